import assert from 'node:assert/strict';
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gitRepo, tempDir, testEnv, writeTree } from '../../../test/helpers/sandbox.js';
import { changedFilesBetween, lineCounts } from './changed-files.js';
import { ShadowStore } from './shadow-store.js';

test('line counts are the + and - lines of the hunks, never the --- and +++ headers', () => {
  const diff = [
    'diff --git a/x b/x',
    '--- a/x',
    '+++ b/x',
    '@@ -1,2 +1,2 @@',
    '-old',
    '--- a line of dashes that was removed',
    '+new',
    '+++ a line of pluses that was added',
    ' same',
    '\\ No newline at end of file',
    'diff --git a/bin b/bin',
    'Binary files a/bin and b/bin differ',
    '',
  ].join('\n');
  assert.deepEqual(lineCounts(diff), { added: 2, removed: 2 });
});

test('changed files between two trees: one per path, in one vocabulary, each with its own diff', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n', 'gone.txt': 'g\n', flip: 'file\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 24, command: 'test' });
  t.after(() => store.close());
  const before = (await store.snapshot()).tree;
  writeTree(root, { 'a.txt': 'a2\nmore\n', 'new.txt': 'n\n' });
  rmSync(join(root, 'gone.txt'));
  rmSync(join(root, 'flip'));
  symlinkSync('a.txt', join(root, 'flip'));
  const after = (await store.snapshot()).tree;
  const files = await changedFilesBetween(store.git, before, after);
  assert.deepEqual(
    files.map((f) => [f.path, f.action, f.added, f.removed]),
    [
      ['a.txt', 'modified', 2, 1],
      ['flip', 'type_changed', 1, 1],
      ['gone.txt', 'deleted', 0, 1],
      ['new.txt', 'created', 1, 0],
    ],
  );
  const flip = files.find((f) => f.path === 'flip');
  assert.match(
    flip?.diff ?? '',
    /deleted file mode 100644[\s\S]*new file mode 120000/,
    'both halves of the type change',
  );
  assert.equal(files.find((f) => f.path === 'new.txt')?.diff.match(/^diff --git /gm)?.length, 1);
  assert.match(files.find((f) => f.path === 'gone.txt')?.diff ?? '', /^-g$/m);
  assert.deepEqual(await changedFilesBetween(store.git, after, after), []);
});

test('changes the caller has already (shuffled) give the same files as diff-tree: folders sort as if they ended in "/"', async (t) => {
  // U+FF01 sorts before U+1F600 by UTF-8 bytes (git's order), after it by UTF-16 units.
  const names = ['a/x', 'a-b', 'a0', 'a.b', 'é/x', 'z', '\uff01', '\u{1f600}'];
  const root = gitRepo(t, Object.fromEntries(names.map((n) => [n, '1\n'])));
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 24, command: 'test' });
  t.after(() => store.close());
  const before = (await store.snapshot()).tree;
  writeTree(root, Object.fromEntries(names.map((n) => [n, '2\n'])));
  const after = (await store.snapshot()).tree;
  const listed = await changedFilesBetween(store.git, before, after);
  assert.deepEqual(
    listed.map((f) => f.path),
    ['a-b', 'a.b', 'a/x', 'a0', 'z', 'é/x', '\uff01', '\u{1f600}'],
  );
  const known = [...listed].reverse().map((f) => ({ path: f.path, action: f.action }));
  assert.deepEqual(await changedFilesBetween(store.git, before, after, known), listed);
});
