/**
 * The looser rungs find runs from the file's lines by trimmed text (a scan, or a table for a file
 * asked about often): they must find exactly the runs a view of the whole file through each key
 * finds (what each rung built before), and the exact rung the runs of the raw lines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { findLineRuns, findLooseRuns, mayOccurTrimmed, type LooseKey } from './line-index.js';
import { builtLiveLines, editableCopy, liveLines, SCANS_BEFORE_INDEX, spliceInPlace } from './live-lines.js';
import { SCANS_BEFORE_TABLE, trimmedPositions } from './trimmed-lines.js';
import { parseText, type TextFile } from './text-file.js';

const env = globalThis.process.env;
const params = {
  seed: Number(env['FC_SEED'] ?? 20261202),
  numRuns: Number(env['FC_RUNS'] ?? 150),
  includeErrorInReport: true,
};

// Lines that collide once trimmed (tabs, spaces, a no-break space, trailing white space) and blanks.
const line = fc.constantFrom('a', '  a', '\ta', 'a  ', ' a\t', '\u00a0a', 'b', '  b', '', '  ', '\t', '}');

const keyOf: Record<LooseKey, (l: string) => string> = {
  'trim-end': (l) => l.trimEnd(),
  trim: (l) => l.trim(),
};

/** The runs of the needle in the file seen through the key, as the views of every key found them. */
function viewRuns(lines: readonly string[], key: LooseKey, skipBlank: boolean, needle: readonly string[]) {
  const keys = lines.filter((l) => !skipBlank || l.trim() !== '').map(keyOf[key]);
  const starts: number[] = [];
  for (let s = 0; s + needle.length <= keys.length; s++)
    if (needle.every((n, k) => keys[s + k] === n)) starts.push(s);
  return needle.length === 0 ? [] : starts;
}

function textFile(lines: readonly string[]): TextFile {
  return parseText(lines.map((l) => `${l}\n`).join(''));
}

/** Makes later queries on `file` read the table of trimmed lines. */
function forceTable(file: TextFile): void {
  for (let i = 0; i <= SCANS_BEFORE_TABLE; i++) trimmedPositions(file, [`absent ${i}`]);
}

test('loose runs, by a scan or from the table, are the runs of a view through each key, blank lines kept or skipped', () => {
  fc.assert(
    fc.property(
      fc.array(line, { maxLength: 40 }),
      fc.array(line, { minLength: 1, maxLength: 4 }),
      (lines, search) => {
        const scanned = textFile(lines);
        const tabled = textFile(lines);
        forceTable(tabled);
        for (const file of [scanned, tabled]) {
          for (const key of ['trim-end', 'trim'] as const) {
            for (const skipBlank of [false, true]) {
              const needle = search.filter((l) => !skipBlank || l.trim() !== '').map(keyOf[key]);
              assert.deepEqual(
                findLooseRuns(file, key, skipBlank, needle),
                viewRuns(lines, key, skipBlank, needle),
                `${key}, skipBlank ${String(skipBlank)}`,
              );
            }
          }
          const present = search.every((s) => s.trim() === '' || lines.some((l) => l.trim() === s.trim()));
          assert.equal(mayOccurTrimmed(file, search), present);
        }
      },
    ),
    params,
  );
});

test('exact runs are found by a scan at first, then from the content index, the same', () => {
  const lines = ['a', 'b', 'a', 'b', 'a', '', 'b'];
  const file = textFile(lines);
  for (let query = 0; query <= SCANS_BEFORE_INDEX; query++) {
    assert.deepEqual(findLineRuns(file, ['a', 'b']), [0, 2]);
    assert.equal(builtLiveLines(file) !== undefined, query === SCANS_BEFORE_INDEX, `query ${query}`);
  }
  assert.deepEqual(findLineRuns(file, ['b', 'a', '']), [3]);
  assert.deepEqual(findLineRuns(file, ['b', 'c']), []);
  // An editable copy keeps the count: its index comes after the same number of scans in all.
  const other = textFile(lines);
  for (let query = 0; query < SCANS_BEFORE_INDEX; query++) findLineRuns(other, ['a']);
  const copy = editableCopy(other);
  assert.deepEqual(findLineRuns(copy, ['a', '']), [4]);
  assert.notEqual(builtLiveLines(copy), undefined);
});

test('the runs follow the file when the planner edits it in place, with or without its content index', () => {
  for (const indexed of [false, true]) {
    const file = editableCopy(textFile(['  a', 'b', '  a']));
    if (indexed) liveLines(file);
    assert.deepEqual(findLooseRuns(file, 'trim', false, ['a']), [0, 2]);
    spliceInPlace(file, 0, 1, ['c', '', '\ta'], ['\n', '\n', '\n']);
    assert.deepEqual(findLooseRuns(file, 'trim', false, ['a']), [2, 4]);
    assert.deepEqual(findLooseRuns(file, 'trim', true, ['a', 'b']), [1]);
    assert.equal(mayOccurTrimmed(file, ['c']), true);
    spliceInPlace(file, 0, 1, ['d'], ['\n']);
    assert.equal(mayOccurTrimmed(file, ['c']), false);
    assert.equal(mayOccurTrimmed(file, ['  d ']), true);
    assert.equal(builtLiveLines(file)?.edited ?? false, indexed);
  }
});
