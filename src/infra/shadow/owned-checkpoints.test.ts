import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { git, gitRepo, testEnv, type Cleanup } from '../../../test/helpers/sandbox.js';
import { createCheckpoint } from './checkpoint-commit.js';
import { forgetOwnedCheckpoints, ownedOnTopOf } from './owned-checkpoints.js';
import { ShadowStore } from './shadow-store.js';

async function open(t: Cleanup, root: string): Promise<ShadowStore> {
  const store = await ShadowStore.open(root, testEnv(), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(async () => {
    await store.close();
  });
  return store;
}

/** git in the shadow repository itself (objects it writes go to the shadow's own store). */
function inShadow(store: ShadowStore, args: string[], input?: string): string {
  const env = { ...testEnv(), GIT_DIR: store.git.location.gitDir };
  return execFileSync('git', args, { env, input, encoding: 'utf8' }).trim();
}

function tree(store: ShadowStore, files: Record<string, string>): string {
  const lines = Object.entries(files).map(([name, blob]) => `100644 blob ${blob}\t${name}\n`);
  return inShadow(store, ['mktree'], lines.join(''));
}

function shadowHas(store: ShadowStore, id: string): boolean {
  try {
    inShadow(store, ['cat-file', '-e', id]);
    return true;
  } catch {
    return false;
  }
}

const meta = (extra: object) => ({ session: 'own-test', reason: 'step', message: 'a step', ...extra });

test("a step's checkpoint whose new blob is only in the user's store still makes it the shadow's own", async (t) => {
  const repo = gitRepo(t, { 'a.txt': 'committed\n' });
  const store = await open(t, repo);
  const objects = store.objectReader();
  const a = git(repo, ['rev-parse', 'HEAD:a.txt']).trim();
  const first = tree(store, { 'a.txt': a });
  const start = await createCheckpoint(store.git, first, meta({ newSession: true }), { objects });

  // Written by the user after the first checkpoint's pass: loose in the user's store only.
  const borrowed = execFileSync('git', ['hash-object', '-w', '--stdin'], {
    cwd: repo,
    env: testEnv(),
    input: 'only the user has this\n',
    encoding: 'utf8',
  }).trim();
  const second = tree(store, { 'a.txt': a, 'b.txt': borrowed });
  assert.equal(await ownedOnTopOf(objects, store.git.location.gitDir, start.checkpoint.id, second), false);
  const step = await createCheckpoint(
    store.git,
    second,
    meta({ parentHint: { id: start.checkpoint.id, tree: first, filesChanged: 1 } }),
    { objects },
  );
  assert.equal(step.checkpoint.parent, start.checkpoint.id);

  rmSync(join(repo, '.git/objects'), { recursive: true, force: true });
  assert.ok(shadowHas(store, borrowed), 'the blob outlives the user gc-ing it');
  assert.ok(shadowHas(store, a), "the first checkpoint's blob too");
});

test('on top of a checkpoint of this process, objects aide wrote into the shadow need no pass; anything else does', async (t) => {
  const repo = gitRepo(t, { 'src/a.txt': 'committed\n', 'b.txt': 'b\n' });
  const store = await open(t, repo);
  const objects = store.objectReader();
  const gitDir = store.git.location.gitDir;
  const a = git(repo, ['rev-parse', 'HEAD:src/a.txt']).trim();
  const b = git(repo, ['rev-parse', 'HEAD:b.txt']).trim();
  const src = tree(store, { 'a.txt': a });
  const first = inShadow(store, ['mktree'], `040000 tree ${src}\tsrc\n100644 blob ${b}\tb.txt\n`);
  const start = await createCheckpoint(store.git, first, meta({ newSession: true }), { objects });

  // A new blob and the trees above it, all written into the shadow's own loose store.
  const own = inShadow(store, ['hash-object', '-w', '--stdin'], "written by aide's step\n");
  const newSrc = tree(store, { 'a.txt': a, 'new.txt': own });
  const next = inShadow(store, ['mktree'], `040000 tree ${newSrc}\tsrc\n100644 blob ${b}\tb.txt\n`);
  assert.equal(await ownedOnTopOf(objects, gitDir, start.checkpoint.id, next), true);
  assert.equal(await ownedOnTopOf(objects, gitDir, start.checkpoint.id, first), true, 'the same tree');

  assert.equal(
    await ownedOnTopOf(objects, gitDir, 'f'.repeat(40), next),
    false,
    'a parent of another process',
  );
  // A blob the user wrote after the first checkpoint's pass, one folder down: only borrowed.
  const later = execFileSync('git', ['hash-object', '-w', '--stdin'], {
    cwd: repo,
    env: testEnv(),
    input: 'the user wrote this later\n',
    encoding: 'utf8',
  }).trim();
  const laterSrc = tree(store, { 'a.txt': a, 'later.txt': later });
  const laterRoot = inShadow(store, ['mktree'], `040000 tree ${laterSrc}\tsrc\n100644 blob ${b}\tb.txt\n`);
  assert.equal(await ownedOnTopOf(objects, gitDir, start.checkpoint.id, laterRoot), false);

  const step = await createCheckpoint(
    store.git,
    next,
    meta({ parentHint: { id: start.checkpoint.id, tree: first, filesChanged: 1 } }),
    { objects },
  );
  assert.equal(
    await ownedOnTopOf(objects, gitDir, step.checkpoint.id, next),
    true,
    'the step is known in turn',
  );
  forgetOwnedCheckpoints(gitDir);
  assert.equal(
    await ownedOnTopOf(objects, gitDir, step.checkpoint.id, next),
    false,
    'forgotten after a prune',
  );
});
