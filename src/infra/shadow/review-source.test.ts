import assert from 'node:assert/strict';
import { chmodSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  git,
  gitRepo,
  leaveMergeConflict,
  tempDir,
  testEnv,
  writeTree,
} from '../../../test/helpers/sandbox.js';
import type { ReviewedFile } from '../../core/ports/review.js';
import { AideError } from '../../shared/errors.js';
import { diffTrees } from './raw-objects.js';
import { addedLines, changesWithPatch, ShadowReviewSource, splitPatch } from './review-source.js';
import { objectsOnly } from './scratch/object-reader.js';
import { ShadowStore } from './shadow-store.js';

test('added lines are numbered as in the new file, per path, quoted paths decoded; deletions add nothing', () => {
  const patch = [
    'diff --git a/a.txt b/a.txt',
    '--- a/a.txt',
    '+++ b/a.txt',
    '@@ -1 +1,2 @@',
    '-old',
    '+new',
    '+second\r',
    '@@ -9,0 +10,2 @@',
    '+tenth',
    '+++ an added "++ " line',
    'diff --git "a/caf\\303\\251 x.txt" "b/caf\\303\\251 x.txt"',
    'new file mode 100644',
    '--- /dev/null',
    '+++ "b/caf\\303\\251 x.txt"',
    '@@ -0,0 +1 @@',
    '++++ plus line',
    'diff --git a/gone.txt b/gone.txt',
    'deleted file mode 100644',
    '--- a/gone.txt',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-bye',
    '',
  ].join('\n');
  const lines = addedLines(patch);
  assert.deepEqual(lines.get('a.txt'), [
    { line: 1, text: 'new' },
    { line: 2, text: 'second' },
    { line: 10, text: 'tenth' },
    { line: 11, text: '++ an added "++ " line' },
  ]);
  assert.deepEqual(lines.get('café x.txt'), [{ line: 1, text: '+++ plus line' }]);
  assert.equal(lines.has('gone.txt'), false);
});

test('a patch cut into one section per file, each named by its path: quoted, deleted, binary', () => {
  const patch = [
    'diff --git a/a.txt b/a.txt',
    'index 1..2 100644',
    '--- a/a.txt',
    '+++ b/a.txt',
    '@@ -1 +1 @@',
    '-diff --git a/x b/x',
    '+new',
    'diff --git "a/caf\\303\\251 x.txt" "b/caf\\303\\251 x.txt"',
    'new file mode 100644',
    '--- /dev/null',
    '+++ "b/caf\\303\\251 x.txt"',
    '@@ -0,0 +1 @@',
    '+hi',
    'diff --git a/gone.txt b/gone.txt',
    'deleted file mode 100644',
    '--- a/gone.txt',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-bye',
    'diff --git a/img b/x.png b/img b/x.png',
    'Binary files a/img b/x.png and b/img b/x.png differ',
    '',
  ].join('\n');
  const sections = splitPatch(patch);
  assert.deepEqual(
    sections.map((s) => s.path),
    ['a.txt', 'café x.txt', 'gone.txt', 'img b/x.png'],
  );
  assert.equal(
    sections[0]?.text,
    'diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-diff --git a/x b/x\n+new\n',
  );
});

/** The files changeTrickily changes. */
const TRICKY_BASE = { 'a.txt': 'a\nb\n', 'bin.dat': 'x\u0000y', 'run.sh': 'r\n', 'gone.txt': 'g\n' };

/**
 * Changes a repository made with TRICKY_BASE in every way a diff reader can trip on: paths that
 * look like raw records or patch lines, a NUL-free byte that is not UTF-8, a binary file, a mode
 * change, a symlink, a deletion; and writes `extra`.
 */
function changeTrickily(root: string, extra: Record<string, string> = {}): void {
  writeTree(root, {
    'a.txt': 'a\nB\nc\n',
    'bin.dat': 'x\u0000z',
    ':100644 x M': '+ a\n',
    'diff --git x': 'd\n',
    ...extra,
  });
  writeFileSync(Buffer.concat([Buffer.from(`${root}/odd-`), Buffer.from([0xff])]), 'odd\n');
  chmodSync(join(root, 'run.sh'), 0o755);
  symlinkSync('a.txt', join(root, 'link'));
  rmSync(join(root, 'gone.txt'));
}

test("one git process gives the raw changes diffTrees gives and `git diff -U0`'s patch, byte for byte", async (t) => {
  const root = gitRepo(t, TRICKY_BASE);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 24, command: 'test' });
  t.after(() => store.close());
  const before = (await store.snapshot()).tree;
  const options = objectsOnly(store.git);
  assert.deepEqual(await changesWithPatch(store.git, before, before, options), { changes: [], patch: '' });
  changeTrickily(root);
  const after = (await store.snapshot()).tree;
  const { changes, patch } = await changesWithPatch(store.git, before, after, options);
  assert.deepEqual(changes, await diffTrees(store.git, before, after, options));
  assert.equal(changes.length, 8);
  const diff = ['diff', '-U0', '--no-color', '--no-ext-diff', '--no-renames', '--no-textconv', before, after];
  assert.equal(patch, (await store.git.run(diff, options)).stdout.toString('utf8'));
  // git ends a `+++` line with a TAB when the name holds a space: not part of the name.
  assert.deepEqual(addedLines(patch).get(':100644 x M'), [{ line: 1, text: '+ a' }]);
  assert.deepEqual(
    splitPatch(patch).map((p) => p.path),
    [':100644 x M', 'a.txt', 'bin.dat', 'diff --git x', 'gone.txt', 'link', 'odd-\uFFFD', 'run.sh'],
  );
});

/** The files of a change without their lazy readers, for comparing two reads of it. */
function plain(files: readonly ReviewedFile[]): unknown[] {
  return files.map((file) =>
    Object.fromEntries(Object.entries(file).filter(([, v]) => typeof v !== 'function')),
  );
}

/**
 * The tricky change staged (the review-ignore file too), later.txt only intended (git add -N),
 * with the shadow opened on it: the store, a review source on it and HEAD's tree.
 */
async function trickyStaged(t: Parameters<typeof gitRepo>[0]) {
  const root = gitRepo(t, TRICKY_BASE);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 24, command: 'test' });
  t.after(() => store.close());
  changeTrickily(root, { '.aide/review-ignore': 'a.txt:2\n', 'later.txt': 'not staged\n' });
  git(root, ['add', '-A']);
  git(root, ['rm', '-q', '--cached', 'later.txt']);
  git(root, ['add', '-N', 'later.txt']);
  const head = git(root, ['rev-parse', 'HEAD^{tree}']).trim();
  return { store, source: new ShadowReviewSource(store.git), head };
}

test('the staged change read from the index while its tree is written is the one diff-tree finds from that tree; git add -N entries left out', async (t) => {
  const { store, source, head } = await trickyStaged(t);
  const staged = await store.withStagedIndex((index) =>
    source.stagedFilesWith(head, index ?? '', '.aide/review-ignore'),
  );
  assert.equal(staged.tree, await store.stagedTree());
  const fromTree = await source.filesWith(head, staged.tree, '.aide/review-ignore');
  assert.deepEqual(plain(staged.files), plain(fromTree.files));
  assert.deepEqual(
    staged.files.map((f) => f.path),
    [
      '.aide/review-ignore',
      ':100644 x M',
      'a.txt',
      'bin.dat',
      'diff --git x',
      'gone.txt',
      'link',
      'odd-\uFFFD',
      'run.sh',
    ],
  );
  assert.equal(Buffer.from(staged.file ?? []).toString('utf8'), 'a.txt:2\n');
  assert.deepEqual(staged.files.find((f) => f.path === 'a.txt')?.added, [
    { line: 2, text: 'B' },
    { line: 3, text: 'c' },
  ]);
  assert.equal(staged.files.find((f) => f.path === 'bin.dat')?.binary, true);
  // A path that is a folder, or names nothing, reads as absent.
  for (const path of ['.aide', 'no/such'])
    assert.equal(
      (await store.withStagedIndex((index) => source.stagedFilesWith(head, index ?? '', path))).file,
      null,
    );
});

/** Reading the staged change of `root` is refused as write-tree refuses it (`reason`), its tree asked for or not. */
async function refusedEitherWay(
  t: Parameters<typeof gitRepo>[0],
  root: string,
  reason: RegExp,
): Promise<void> {
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 24, command: 'test' });
  t.after(() => store.close());
  const source = new ShadowReviewSource(store.git);
  const head = git(root, ['rev-parse', 'HEAD^{tree}']).trim();
  for (const wanted of [true, false])
    await assert.rejects(
      store.withStagedIndex((index) =>
        source.stagedFilesWith(head, index ?? '', '.aide/review-ignore', Promise.resolve(wanted)),
      ),
      (error: unknown) =>
        error instanceof AideError &&
        error.code === 'workspace_invalid' &&
        /staged content cannot be verified: /.test(error.message) &&
        reason.test(error.message),
      `tree ${wanted ? '' : 'not '}asked for`,
    );
}

test('an index with unmerged entries is refused as write-tree refuses it, whatever diff-index made of it, tree written or not', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'base\n', 'b.txt': 'b\n' });
  leaveMergeConflict(root, 'a.txt');
  await refusedEitherWay(t, root, /a\.txt.*unmerged/);
});

test('without its tree, the staged change and its ignore file read from the index are those read with it', async (t) => {
  const { store, source, head } = await trickyStaged(t);
  const read = (wanted: boolean, path: string) =>
    store.withStagedIndex((index) =>
      source.stagedFilesWith(head, index ?? '', path, Promise.resolve(wanted)),
    );
  const [withTree, without] = [
    await read(true, '.aide/review-ignore'),
    await read(false, '.aide/review-ignore'),
  ];
  assert.equal(without.tree, null);
  assert.equal(withTree.tree, await store.stagedTree());
  assert.deepEqual(plain(without.files), plain(withTree.files));
  assert.equal(Buffer.from(without.file ?? []).toString('utf8'), 'a.txt:2\n');
  // A folder, a path never staged, and one only intended (git add -N) hold no ignore file.
  for (const path of ['.aide', 'no/such']) assert.equal((await read(false, path)).file, null);
  assert.equal(Buffer.from((await read(false, 'later.txt')).file ?? []).length, 0);
});

test("a staged entry whose blob is missing is refused in write-tree's words when no tree is written", async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  git(root, ['update-index', '--add', '--info-only', '--cacheinfo', `100644,${'1'.repeat(40)},x.txt`]);
  await refusedEitherWay(t, root, /1111111111/);
});
