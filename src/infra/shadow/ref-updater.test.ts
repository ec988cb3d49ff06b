import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { git, gitRepo, testEnv, type Cleanup } from '../../../test/helpers/sandbox.js';
import { GitCommandError } from './git.js';
import { RefUpdater } from './ref-updater.js';
import { ShadowStore } from './shadow-store.js';

async function open(t: Cleanup, root: string): Promise<ShadowStore> {
  const store = await ShadowStore.open(root, testEnv(), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(async () => {
    await store.close();
  });
  return store;
}

function inShadow(store: ShadowStore, args: string[]): string {
  const env = { ...testEnv(), GIT_DIR: store.git.location.gitDir };
  return execFileSync('git', args, { env, encoding: 'utf8' }).trim();
}

/** Two commits of the user's, borrowed by the shadow (alternates). */
function commits(t: Cleanup): { repo: string; first: string; second: string } {
  const repo = gitRepo(t, { 'a.txt': 'a\n' });
  const first = git(repo, ['rev-parse', 'HEAD']).trim();
  git(repo, ['commit', '-q', '--allow-empty', '-m', 'second']);
  return { repo, first, second: git(repo, ['rev-parse', 'HEAD']).trim() };
}

/** A shadow, a ref updater on it (closed after the test) and the branch the test moves. */
async function setup(t: Cleanup) {
  const { repo, first, second } = commits(t);
  const store = await open(t, repo);
  const refs = new RefUpdater(store.git);
  t.after(() => {
    refs.close();
  });
  return { store, refs, ref: 'refs/heads/aide/ref-test', first, second };
}

test('branch moves go through one update-ref process, old values checked, reflog written', async (t) => {
  const { store, refs, ref, first, second } = await setup(t);
  await refs.update(ref, first, '', 'aide: step');
  assert.equal(inShadow(store, ['rev-parse', ref]), first);
  // Asked together: answered in order, the second checked against the first's new value.
  await Promise.all([
    refs.update(ref, second, first, 'aide: step'),
    refs.update(ref, first, second, 'aide: step'),
  ]);
  assert.equal(inShadow(store, ['rev-parse', ref]), first);
  assert.deepEqual(inShadow(store, ['reflog', 'show', '--format=%H %gs', ref]).split('\n'), [
    `${first} aide: step`,
    `${second} aide: step`,
    `${first} aide: step`,
  ]);
});

test('a refused move throws git’s message and leaves the branch; the next move works', async (t) => {
  const { store, refs, ref, first, second } = await setup(t);
  await refs.update(ref, first, '', 'aide: step');
  // The branch exists: an empty old value means it must not.
  await assert.rejects(refs.update(ref, second, '', 'aide: step'), (error: unknown) => {
    assert.ok(error instanceof GitCommandError);
    assert.match(error.stderr, /cannot lock ref|reference already exists/);
    return true;
  });
  await assert.rejects(refs.update(ref, second, second, 'aide: step'), GitCommandError);
  assert.equal(inShadow(store, ['rev-parse', ref]), first);
  await refs.update(ref, second, first, 'aide: step');
  assert.equal(inShadow(store, ['rev-parse', ref]), second);
  await assert.rejects(refs.update('refs/heads/a b', second, '', 'aide: step'), /not a ref update/);
  await assert.rejects(refs.update(ref, first, second, 'two\nlines'), /not a ref update/);
});
