import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addedLines, splitPatch } from './review-source.js';

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
