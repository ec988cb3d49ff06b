import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capLine, cleanLine, stripTerminalControls, tailOf } from './terminal-text.js';

const ESC = '\u001b';

test('colors, cursor moves and charset switches are stripped', () => {
  assert.equal(
    stripTerminalControls(`${ESC}[1;31mFAIL${ESC}[0m ${ESC}[2K${ESC}[10Gdone${ESC}(B${ESC}7`),
    'FAIL done',
  );
});

test('OSC hyperlinks and titles are stripped whether ended by BEL or ST', () => {
  const link = `${ESC}]8;;https://example.test${ESC}\\file.ts${ESC}]8;;${ESC}\\`;
  assert.equal(stripTerminalControls(`${ESC}]0;title\u0007${link}:3`), 'file.ts:3');
});

test('8-bit CSI, DCS strings and stray control characters are stripped, tabs kept', () => {
  assert.equal(stripTerminalControls(`\u009b31mred\u009b0m${ESC}Pq#0;2${ESC}\\\ta\u0007b\u0008`), 'red\tab');
});

test('a progress line keeps only what follows the last carriage return', () => {
  assert.equal(cleanLine('10%\r50%\r100% done'), '100% done');
});

test('CRLF line endings are not mistaken for progress redraws', () => {
  assert.equal(cleanLine('ok 1 - works\r'), 'ok 1 - works');
  assert.equal(cleanLine('50%\r100%\r\r'), '100%');
});

test('a long line is capped without splitting a surrogate pair', () => {
  assert.equal(capLine('abcdef', 4), 'abcd');
  assert.equal(capLine('abc😀', 4), 'abc');
});

test('the tail is the last whole lines that fit the byte budget', () => {
  const raw = Buffer.from('one\ntwo\nthree\nfour\n');
  assert.equal(tailOf(raw, true, 10), 'three\nfour');
  assert.equal(tailOf(raw, true, 100), 'one\ntwo\nthree\nfour');
});

test('the tail drops the partial first line of a ring that lost the start', () => {
  assert.equal(tailOf(Buffer.from('rtial\nwhole\n'), false, 100), 'whole');
  assert.equal(tailOf(Buffer.from('rtial\nwhole\n'), true, 100), 'rtial\nwhole');
});

test('a last line longer than the budget keeps its end, on a character boundary', () => {
  assert.equal(tailOf(Buffer.from('first\nxxxxxxxxxx the end'), true, 7), 'the end');
  assert.equal(tailOf(Buffer.from('ééé'), true, 3), 'é');
});

test('the tail is stripped of escapes and keeps a last line without newline', () => {
  assert.equal(tailOf(Buffer.from(`${ESC}[32mpass${ESC}[0m\n10%\r100%`), true, 100), 'pass\n100%');
});
