/**
 * The scratch home (`<tmp>/aide-scratch/<hash>`) goes with its last scratch, so the temp dir does
 * not keep a folder per workspace; a home that still holds anything, and the shared
 * `aide-scratch` above it, stay.
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { gitRepo, tempDir, testEnv, writeTree } from '../../../../test/helpers/sandbox.js';
import { ShadowStore } from '../shadow-store.js';
import { ShadowScratches } from './worktree-scratch.js';

async function setup(t: TestContext) {
  const root = gitRepo(t, { 'src/a.ts': 'export const a = 1;\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const scratches = new ShadowScratches(store.git, store.workspace, {
    tempRoot: tempDir(t, 'aide-scratch-test-'),
    links: [],
  });
  return { store, scratches, tree: (await store.snapshot()).tree };
}

test('disposing the last scratch removes the emptied scratch home, not the shared aide-scratch', async (t) => {
  const { scratches, tree } = await setup(t);
  const scratch = await scratches.open('s1', tree);
  assert.ok(existsSync(scratches.home));
  await scratch.dispose();
  assert.equal(existsSync(scratches.home), false, 'the emptied home is removed');
  assert.ok(lstatSync(dirname(scratches.home)).isDirectory(), 'aide-scratch stays');
  // The next scratch makes the home again, private as before.
  const again = await scratches.open('s2', tree);
  assert.equal(lstatSync(scratches.home).mode & 0o777, 0o700);
  await again.dispose();
  assert.equal(existsSync(scratches.home), false);
});

test('a scratch home that still holds anything stays, with what it holds', async (t) => {
  const { scratches, tree } = await setup(t);
  const outside = tempDir(t, 'aide-outside-');
  const first = await scratches.open('s1', tree);
  const second = await scratches.open('s2', tree);
  await first.dispose();
  assert.ok(existsSync(second.path), 'another scratch in it keeps the home');
  // Names aide never removes: a dot-folder, a file, a symlink to a folder outside.
  mkdirSync(join(scratches.home, '.kept'));
  writeTree(scratches.home, { 'not a session/file.txt': 'x' });
  symlinkSync(outside, join(scratches.home, 'planted link'));
  await second.dispose();
  assert.deepEqual(readdirSync(scratches.home).sort(), ['.kept', 'not a session', 'planted link']);
  assert.ok(existsSync(join(scratches.home, 'not a session/file.txt')));
  assert.ok(existsSync(outside), 'the folder outside is untouched');
});
