/**
 * The lines by trimmed text are found by a scan that reads character codes, or from a table once
 * a file has been asked about often: both must say what `trim()` says, and neither may outlive
 * an edit of the lines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { detectIndentUnit, indentStyle } from './indent.js';
import { editableCopy, spliceInPlace } from './live-lines.js';
import { parseText, type TextFile } from './text-file.js';
import {
  builtTable,
  fileIndent,
  isTrimSpace,
  lineView,
  nonBlankLines,
  SCANS_BEFORE_TABLE,
  trimmedPositions,
  trimsTo,
} from './trimmed-lines.js';

const env = globalThis.process.env;
const params = {
  seed: Number(env['FC_SEED'] ?? 20261202),
  numRuns: Number(env['FC_RUNS'] ?? 150),
  includeErrorInReport: true,
};

const line = fc.constantFrom(
  'a',
  '  a',
  '\ta ',
  'a\u00a0',
  '\u3000a',
  'b',
  '\tb',
  '',
  ' ',
  '\t\t',
  '}',
  'a b',
);

function textFile(lines: readonly string[]): TextFile {
  return parseText(lines.map((l) => `${l}\n`).join(''));
}

function positionsByTrim(lines: readonly string[], text: string): number[] {
  return lines.flatMap((l, i) => (l.trim() === text ? [i] : []));
}

/** Makes the next query on `file` read the table: enough scans for texts found nowhere. */
function forceTable(file: TextFile): void {
  for (let i = 0; i <= SCANS_BEFORE_TABLE; i++) trimmedPositions(file, [`absent ${i}`]);
  assert.notEqual(builtTable(file), undefined);
}

test('white space is what trim() removes, for every code unit', () => {
  for (let code = 0; code <= 0xffff; code++) {
    const ch = String.fromCharCode(code);
    assert.equal(isTrimSpace(code), ch.trim() === '', `U+${code.toString(16)}`);
    assert.equal(trimsTo(` ${ch}x${ch}\t`, `${ch}x${ch}`.trim()), true);
  }
});

test('scan and table give the lines trim() gives, and the non-blank lines are those trim() leaves text in', () => {
  fc.assert(
    fc.property(fc.array(line, { maxLength: 40 }), fc.array(line, { maxLength: 4 }), (lines, asked) => {
      const texts = asked.map((l) => l.trim());
      const expected = texts.map((text) => positionsByTrim(lines, text));
      const scanned = textFile(lines);
      assert.deepEqual(trimmedPositions(scanned, texts), expected, 'scan');
      assert.deepEqual(trimmedPositions(scanned, texts), expected, 'asked again');
      const tabled = textFile(lines);
      forceTable(tabled);
      assert.deepEqual(trimmedPositions(tabled, texts), expected, 'table');
      for (const l of lines) for (const text of texts) assert.equal(trimsTo(l, text), l.trim() === text);
      const index = lines.flatMap((l, i) => (l.trim() === '' ? [] : [i]));
      const { index: found, position } = nonBlankLines(scanned);
      assert.deepEqual(found, index);
      assert.deepEqual(
        [...position],
        lines.map((_, i) => index.indexOf(i)),
      );
      assert.deepEqual(
        lineView(scanned).keys,
        index.map((i) => (lines[i] ?? '').trim()),
      );
      assert.equal(fileIndent(scanned).unit(), detectIndentUnit(lines));
      assert.equal(fileIndent(scanned).style(), indentStyle(lines));
    }),
    params,
  );
});

test('what is found for a file is found again after the planner edits its lines in place', () => {
  for (const table of [false, true]) {
    const file = editableCopy(textFile(['  a', 'b', '\ta']));
    if (table) forceTable(file);
    assert.deepEqual(trimmedPositions(file, ['a']), [[0, 2]]);
    assert.deepEqual(nonBlankLines(file).index, [0, 1, 2]);
    assert.equal(fileIndent(file).style(), undefined);
    spliceInPlace(file, 1, 2, ['', 'a', '\t\tc'], ['\n', '\n', '\n']);
    assert.deepEqual(file.lines, ['  a', '', 'a', '\t\tc', '\ta']);
    assert.equal(builtTable(file), undefined);
    assert.deepEqual(trimmedPositions(file, ['a', 'b']), [[0, 2, 4], []]);
    assert.deepEqual(nonBlankLines(file).index, [0, 2, 3, 4]);
    assert.deepEqual(lineView(file).keys, ['a', 'a', 'c', 'a']);
    spliceInPlace(file, 0, 1, ['\tx'], ['\n']);
    assert.equal(fileIndent(file).style(), '\t');
    assert.equal(fileIndent(file).unit(), '\t');
  }
});
