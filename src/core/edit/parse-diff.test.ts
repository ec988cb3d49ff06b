import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseResponse } from './parse-response.js';

test('a diff without an @@ line starts its hunk right after the file headers', () => {
  const parsed = parseResponse('--- a/x.py\n+++ b/x.py\n a\n-b\n+c\n');
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.blocks[0]?.variants[0], { search: ['a', 'b'], replace: ['a', 'c'] });
});

test('a fenced diff under a path line needs neither headers nor @@', () => {
  const parsed = parseResponse('x.py\n```diff\n a\n-b\n+c\n```\n');
  assert.deepEqual(parsed.problems, []);
  assert.equal(parsed.blocks[0]?.path, 'x.py');
  assert.deepEqual(parsed.blocks[0]?.variants[0], { search: ['a', 'b'], replace: ['a', 'c'] });
});

test('an unfenced diff line away from the headers is still outside any hunk', () => {
  const parsed = parseResponse(
    '```diff\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n```\n\n```diff\n a\n-b\n```\n',
  );
  assert.equal(parsed.blocks.length, 1);
  assert.ok(parsed.problems.length > 0);
});

test('--- /dev/null over - lines is an edit of the file, not a creation', () => {
  const parsed = parseResponse('```diff\n--- /dev/null\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n```\n');
  assert.deepEqual(parsed.blocks[0]?.variants[0], { search: ['a'], replace: ['b'] });
  const created = parseResponse('```diff\n--- /dev/null\n+++ b/x.py\n@@ -0,0 +1 @@\n+b\n```\n');
  assert.deepEqual(created.blocks[0]?.variants[0], { search: [], replace: ['b'] });
});

test('a hunk without + lines also has the readings of lost-plus.ts', () => {
  const parsed = parseResponse('```diff\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n c\n```\n');
  assert.equal(parsed.blocks[0]?.variants.length, 2);
});

test('a git diff -M rename moves the file, then its hunks apply at the new path', () => {
  const parsed = parseResponse(
    'diff --git a/a.py b/b.py\nsimilarity index 90%\nrename from a.py\nrename to b.py\n--- a/a.py\n+++ b/b.py\n@@ -1 +1 @@\n-x\n+y\n',
  );
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(
    parsed.blocks.map((b) => [b.path, b.renameFrom, b.variants[0]]),
    [
      ['b.py', 'a.py', { search: [], replace: [] }],
      ['b.py', undefined, { search: ['x'], replace: ['y'] }],
    ],
  );
});

test('a rename whose headers name other files is a problem, not a guess', () => {
  const parsed = parseResponse(
    '```diff\nrename from a.py\nrename to b.py\n--- a/c.py\n+++ b/c.py\n@@ -1 +1 @@\n-x\n+y\n```\n',
  );
  assert.equal(parsed.blocks.length, 0);
  assert.match(parsed.problems[0]?.message ?? '', /renames a.py to b.py, but its file headers name c.py/);
});

test('half a rename is a problem', () => {
  const parsed = parseResponse('```diff\ndiff --git a/a.py b/b.py\nrename from a.py\n```\n');
  assert.match(parsed.problems[0]?.message ?? '', /without its `rename to`/);
});
