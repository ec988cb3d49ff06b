import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch } from 'diff';
import { parseText } from './text-file.js';
import { coarseDiff, unifiedDiff } from './unified-diff.js';

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
