/**
 * The content index that the planner keeps up to date as it edits a file in place must say
 * exactly what a scan of the lines says, across enough splices to rebuild its snapshot.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { findLineRuns } from './line-index.js';
import { editableCopy, liveLines, spliceInPlace } from './live-lines.js';
import { parseText, type TextFile } from './text-file.js';

const env = globalThis.process.env;
const params = {
  seed: Number(env['FC_SEED'] ?? 20261201),
  numRuns: Number(env['FC_RUNS'] ?? 60),
  includeErrorInReport: true,
};

// Few distinct lines, some equal but for white space, so that lines repeat and trimmed forms collide.
const line = fc.constantFrom('a', 'b', '  a', 'a  ', '}', '', '  ', 'c();');
const spliceArb = fc.record({
  at: fc.nat(),
  removed: fc.nat({ max: 6 }),
  added: fc.array(line, { maxLength: 40 }),
});

function scanPositions(lines: readonly string[], wanted: string): number[] {
  return lines.flatMap((l, i) => (l === wanted ? [i] : []));
}

function scanRuns(lines: readonly string[], needle: readonly string[]): number[] {
  const starts: number[] = [];
  for (let s = 0; s + needle.length <= lines.length; s++)
    if (needle.every((n, k) => lines[s + k] === n)) starts.push(s);
  return starts;
}

function multiset(lines: readonly string[], key: (l: string) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(key(l), (counts.get(key(l)) ?? 0) + 1);
  return counts;
}

function assertIndexMatches(file: TextFile): void {
  const index = liveLines(file);
  for (const wanted of ['a', 'b', '  a', 'a  ', '}', '', '  ', 'c();']) {
    assert.deepEqual(
      index.positions(wanted, file.lines),
      scanPositions(file.lines, wanted),
      `positions of ${JSON.stringify(wanted)}`,
    );
  }
  const nonZero = (m: Map<string, number>) => new Map([...m].filter(([, n]) => n !== 0));
  assert.deepEqual(
    nonZero(index.counts),
    multiset(file.lines, (l) => l),
  );
  assert.deepEqual(
    nonZero(new Map(index.trimmedCounts(file.lines))),
    multiset(file.lines, (l) => l.trim()),
  );
}

test('the index gives the positions, counts and runs a scan gives, after every splice', () => {
  fc.assert(
    fc.property(
      fc.array(line, { maxLength: 60 }),
      fc.array(spliceArb, { minLength: 40, maxLength: 80 }),
      (initial, splices) => {
        const file = editableCopy(parseText(initial.map((l) => `${l}\n`).join('')));
        assertIndexMatches(file);
        for (const { at, removed, added } of splices) {
          const start = file.lines.length === 0 ? 0 : at % (file.lines.length + 1);
          const end = Math.min(file.lines.length, start + removed);
          spliceInPlace(
            file,
            start,
            end,
            added,
            added.map(() => '\n'),
          );
          assertIndexMatches(file);
          for (const needle of [['a', 'b'], ['}', ''], ['  a']])
            assert.deepEqual(findLineRuns(file, needle), scanRuns(file.lines, needle));
        }
      },
    ),
    params,
  );
});

test('a copy made for editing leaves the original and its index as they were', () => {
  const original = parseText('a\nb\na\n');
  assert.deepEqual(liveLines(original).positions('a', original.lines), [0, 2]);
  const copy = editableCopy(original);
  spliceInPlace(copy, 0, 1, ['b', 'b'], ['\n', '\n']);
  assert.deepEqual(original.lines, ['a', 'b', 'a']);
  assert.deepEqual(liveLines(original).positions('a', original.lines), [0, 2]);
  assert.deepEqual(liveLines(copy).positions('a', copy.lines), [3]);
});
