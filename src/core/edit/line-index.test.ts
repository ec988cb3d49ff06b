/**
 * The looser rungs find runs through one per-file table of trimmed lines: they must find exactly
 * the runs a view of the whole file through each key finds (what each rung built before).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { findLooseRuns, mayOccurTrimmed, type LooseKey } from './line-index.js';
import { editableCopy, spliceInPlace } from './live-lines.js';
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

test('runs through the trimmed table are the runs of a view through each key, blank lines kept or skipped', () => {
  fc.assert(
    fc.property(
      fc.array(line, { maxLength: 40 }),
      fc.array(line, { minLength: 1, maxLength: 4 }),
      (lines, search) => {
        const file = textFile(lines);
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
      },
    ),
    params,
  );
});

test('the table follows the file when the planner edits it in place', () => {
  const file = editableCopy(textFile(['  a', 'b', '  a']));
  assert.deepEqual(findLooseRuns(file, 'trim', false, ['a']), [0, 2]);
  spliceInPlace(file, 0, 1, ['c', '', '\ta'], ['\n', '\n', '\n']);
  assert.deepEqual(findLooseRuns(file, 'trim', false, ['a']), [2, 4]);
  assert.deepEqual(findLooseRuns(file, 'trim', true, ['a', 'b']), [1]);
  assert.equal(mayOccurTrimmed(file, ['c']), true);
  spliceInPlace(file, 0, 1, ['d'], ['\n']);
  assert.equal(mayOccurTrimmed(file, ['c']), false);
  assert.equal(mayOccurTrimmed(file, ['  d ']), true);
});
