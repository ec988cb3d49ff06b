import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createVariant, createdTextFile } from './created-text.js';
import { LineTable } from './line-table.js';
import { parseResponse } from './parse-response.js';
import { planEdits } from './plan-edits.js';
import {
  createdRange,
  eagerTextFile,
  encodeTextFile,
  lineCount,
  parseText,
  renderText,
  textFileContent,
  type TextFile,
} from './text-file.js';

const texts = [
  '',
  '\n',
  'one',
  'one\n',
  '\n\nthree\n\n',
  'a\nb\nc',
  'café ☕\n日本語\n😀\n',
  'x'.repeat(70_000) + '\n😀' + 'y'.repeat(65_535) + '\n',
];

test('LineTable reads every line exactly as split("\\n") splits, and nothing outside them', () => {
  for (const text of texts) {
    const table = new LineTable(text);
    const split = text.split('\n');
    assert.equal(table.length, split.length, JSON.stringify(text.slice(0, 20)));
    for (const [i, line] of split.entries()) assert.equal(table.at(i), line);
    for (const outside of [-1, split.length, 1.5, Number.NaN]) assert.equal(table.at(outside), undefined);
    assert.deepEqual(table.slice(1, split.length - 1), split.slice(1, split.length - 1));
    assert.deepEqual(table.slice(-3, split.length + 3), split);
  }
});

test('a range of whole lines: its lines, count, content, pieces and forward reader agree', () => {
  const text =
    'head\n' + Array.from({ length: 5000 }, (_, i) => `${'字'.repeat(i % 50)}😀 ${i}`).join('\n') + '\nend\n';
  const table = new LineTable(text);
  const all = text.split('\n');
  for (const [from, to] of [
    [1, 5001],
    [1, 1],
    [0, 1],
    [5001, 5002],
  ] as const) {
    const range = table.range(from, to);
    const expected = all.slice(from, to);
    assert.deepEqual(range.lines(), expected);
    assert.equal(range.count, expected.length);
    assert.equal(range.content(), expected.map((line) => `${line}\n`).join(''));
    const pieces = [...range.pieces(1000)];
    assert.equal(pieces.join(''), range.content());
    // Cut only after a line end: no piece starts or ends inside a character.
    for (const piece of pieces.slice(0, -1)) assert.ok(piece.endsWith('\n') && piece.length >= 1000);
    const read = range.reader();
    for (const [i, line] of expected.entries()) assert.equal(read(i), line);
    assert.equal(read(expected.length), undefined);
    // Out of order: still the right line.
    if (expected.length > 3) assert.equal(read(2), expected[2]);
  }
});

test('the lines of a created variant and file are frozen: an edit in place throws, it is never lost', () => {
  const table = new LineTable('a\nb\nc\n');
  const variant = createVariant(table.range(0, 3));
  assert.deepEqual(variant, { search: [], replace: ['a', 'b', 'c'] });
  assert.throws(() => variant.replace.push('d'), TypeError);
  const file = createdTextFile(variant);
  assert.throws(() => {
    file.lines[0] = 'changed';
  }, TypeError);
  assert.throws(() => file.eols.pop(), TypeError);
  assert.deepEqual({ ...file }, { eol: '\n', bom: false, lines: ['a', 'b', 'c'], eols: ['\n', '\n', '\n'] });
  assert.equal(lineCount(file), 3);
  const eager = eagerTextFile(file);
  assert.equal(createdRange(eager), undefined);
  eager.lines[0] = 'mine';
  assert.deepEqual(file.lines, ['a', 'b', 'c']);
});

test('a created file writes, renders and encodes the bytes of the same file with lines of its own', () => {
  const body = Array.from({ length: 30_000 }, (_, i) => `行 ${i} 😀${'x'.repeat(i % 90)}`).join('\n') + '\n';
  const parsed = parseResponse(`new/file.ts\n<<<<<<< SEARCH\n=======\n${body}>>>>>>> REPLACE\n`);
  const variant = parsed.blocks[0]?.variants[0];
  assert.ok(variant !== undefined);
  const created = createdTextFile(variant);
  assert.ok(createdRange(created) !== undefined, 'the parser keeps a created file as a range');
  const eager: TextFile = parseText(body);
  assert.equal(renderText(created), body);
  assert.deepEqual(encodeTextFile(created), encodeTextFile(eager));
  const bytes = (file: TextFile) =>
    Buffer.concat(Array.from(textFileContent(file).chunks(), (p) => Buffer.from(p)));
  assert.deepEqual(bytes(created), bytes(eager));
  assert.equal(bytes(created).toString('utf8'), body);
});

test('a file created by one block and edited by the next: the edit lands in the created text', () => {
  const reply = [
    'src/new.ts',
    '<<<<<<< SEARCH',
    '=======',
    'export const a = 1;',
    'export const b = 2;',
    '>>>>>>> REPLACE',
    '',
    'src/new.ts',
    '<<<<<<< SEARCH',
    'export const b = 2;',
    '=======',
    'export const b = 3;',
    '>>>>>>> REPLACE',
    '',
  ].join('\n');
  const plan = planEdits(parseResponse(reply).blocks, new Map([['src/new.ts', { state: 'missing' }]]));
  assert.ok(plan.ok, JSON.stringify(plan.outcomes));
  const after = plan.changes[0]?.after;
  assert.ok(after !== null && after !== undefined);
  assert.equal(renderText(after), 'export const a = 1;\nexport const b = 3;\n');
});

test('a created file with an invisible character is refused at its line, read in order or not', () => {
  const reply = 'src/x.ts\n<<<<<<< SEARCH\n=======\nconst ok = 1;\nconst bad = "\u202E";\n>>>>>>> REPLACE\n';
  const plan = planEdits(parseResponse(reply).blocks, new Map([['src/x.ts', { state: 'missing' }]]));
  assert.equal(plan.ok, false);
  const failure = plan.outcomes[0]?.ok === false ? plan.outcomes[0].failure : undefined;
  assert.equal(failure?.kind, 'invisible-characters');
  assert.match(failure?.message ?? '', /line 2, column 14/);
});
