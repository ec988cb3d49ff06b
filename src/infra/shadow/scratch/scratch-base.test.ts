import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { git, gitRepo, tempDir, testEnv } from '../../../../test/helpers/sandbox.js';
import { readTree } from '../../../../test/helpers/tree.js';
import { BRANCH_PREFIX } from '../checkpoints.js';
import { ShadowStore } from '../shadow-store.js';
import { listScratches } from './registry.js';
import { ShadowScratches } from './worktree-scratch.js';

// The base of a scratch is looked up through its `cat-file --batch` reader, not `rev-parse`:
// these hold the lookups to what rev-parse answered (the tree, the commit, nothing for a name
// that is no tree), for a kept scratch and for a scratch per session alike.

async function setup(t: TestContext, keep: boolean) {
  const root = gitRepo(t, { 'src/a.ts': 'a\n', 'lib/b.ts': 'b\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const scratches = new ShadowScratches(store.git, store.workspace, {
    tempRoot: tempDir(t, 'aide-base-'),
    links: [],
    keep,
  });
  return { root, store, scratches };
}

/** git inside the scratch, as a verify command runs it. */
function inside(path: string, args: string[]): string {
  return git(path, args).trim();
}

for (const keep of [false, true]) {
  const kind = keep ? 'kept scratch' : 'scratch per session';

  test(`${kind}: a checkpoint is checked out at its own commit, by id or by its branch`, async (t) => {
    const { store, scratches } = await setup(t, keep);
    const { checkpoint } = await store.checkpoint({ session: 's1', reason: 'test', message: 'base' });
    const { tree } = await store.show(checkpoint.id);
    for (const [session, base] of [
      ['v1', checkpoint.id],
      ['v2', `${BRANCH_PREFIX}s1`],
    ] as const) {
      const scratch = await scratches.open(session, base);
      try {
        assert.equal(scratch.base, tree);
        assert.equal(inside(scratch.path, ['rev-parse', 'HEAD']), checkpoint.id);
        assert.deepEqual([...readTree(scratch.path, ['.git']).keys()].sort(), ['lib/b.ts', 'src/a.ts']);
        assert.equal(inside(scratch.path, ['status', '--porcelain']), '');
      } finally {
        await scratch.dispose();
      }
    }
  });

  test(`${kind}: a bare tree gets a parentless commit of that very tree`, async (t) => {
    const { store, scratches } = await setup(t, keep);
    const tree = (await store.snapshot()).tree;
    // By its full id (as a review opens it) and by an abbreviation (no commit to peel to either).
    for (const [session, base] of [
      ['v1', tree],
      ['v2', tree.slice(0, 12)],
    ] as const) {
      const scratch = await scratches.open(session, base);
      try {
        assert.equal(scratch.base, tree);
        assert.equal(inside(scratch.path, ['rev-parse', 'HEAD^{tree}']), tree);
        assert.equal(inside(scratch.path, ['rev-list', '--parents', '-1', 'HEAD']).split(' ').length, 1);
        assert.equal(inside(scratch.path, ['log', '-1', '--format=%s']), 'aide scratch base');
      } finally {
        await scratch.dispose();
      }
    }
  });

  test(`${kind}: a name that is no tree (missing, a blob, no such ref) is an unknown base, and leaves nothing`, async (t) => {
    const { store, scratches } = await setup(t, keep);
    const tree = (await store.snapshot()).tree;
    const blob = await store.git.text(['rev-parse', `${tree}:src/a.ts`]);
    for (const base of ['0123456789abcdef0123456789abcdef01234567', blob, `${BRANCH_PREFIX}none`])
      await assert.rejects(scratches.open('v1', base), /no snapshot or checkpoint/, base);
    assert.deepEqual(await listScratches(scratches.home, scratches.records), []);
    assert.ok(!existsSync(join(store.git.location.gitDir, 'aide-kept-scratch.json')));
    // The blob's commit is not taken for the blob's tree either: the next open still works.
    const scratch = await scratches.open('v2', tree);
    t.after(() => scratch.dispose());
    assert.equal(inside(scratch.path, ['rev-parse', 'HEAD^{tree}']), tree);
  });
}
