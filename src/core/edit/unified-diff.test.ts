import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch } from 'diff';
import { parseText } from './text-file.js';
import { coarseDiff, diffStat, unifiedDiff } from './unified-diff.js';

const CASES: Array<[string, string]> = [
  ['a\nb\nc\nd\ne\nf\ng\nh\n', 'a\nb\nc\nD\ne\nf\nG\nh\n'],
  ['a\nb\nc', 'a\nB\nc'],
  ['a\nb\nc\n', 'a\nb\nc'],
  ['', 'new\nfile\n'],
  ['old\nfile\n', ''],
  ['x\n', 'y\n'],
  ['same\nstart\nthen\nold\nsame\nend\n', 'same\nstart\nthen\nnew\nmore\nsame\nend\n'],
];

test('the one-hunk diff for huge changes applies back to exactly the new text', () => {
  for (const [before, after] of CASES) {
    const diff = coarseDiff('a/f.txt', 'b/f.txt', before, after);
    assert.equal(
      applyPatch(before, diff),
      after,
      `${JSON.stringify(before)} → ${JSON.stringify(after)}:\n${diff}`,
    );
  }
});

test('a change of every line of a 10,000-line file gets a diff that applies, without the quadratic search', () => {
  const before = Array.from({ length: 10_000 }, (_, i) => `export const value${i} = ${i};\n`).join('');
  const after = before.replace(/= (\d+);/g, (_, n: string) => `= ${Number(n) + 1};`);
  const diff = unifiedDiff('src/values.ts', parseText(before), parseText(after));
  assert.equal(applyPatch(before, diff), after);
  assert.match(diff, /^--- a\/src\/values\.ts\n\+\+\+ b\/src\/values\.ts\n@@ -1,10000 \+1,10000 @@\n/);
});

test('a created and a deleted file: one hunk of every line, the way git writes it, and their stat', () => {
  const text = (raw: string) => parseText(raw);
  const created = unifiedDiff('src/new.ts', null, text('one\ntwo\n'));
  assert.equal(created, '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,2 @@\n+one\n+two\n');
  assert.deepEqual(diffStat(created), { added: 2, removed: 0 });
  const deleted = unifiedDiff('old.txt', text('gone'), null);
  assert.equal(
    deleted,
    '--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone\n\\ No newline at end of file\n',
  );
  assert.equal(applyPatch('gone', deleted), '');
  assert.deepEqual(diffStat(deleted), { added: 0, removed: 1 });
  // Lines that look like the file headers inside a hunk still count.
  assert.deepEqual(diffStat(unifiedDiff('x', null, text('--- a\n+++ b\n'))), { added: 2, removed: 0 });
});
