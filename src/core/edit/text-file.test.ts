import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeTextFile, parseText, renderText, textFileContent, type TextFile } from './text-file.js';

const naive = (text: string) => new TextEncoder().encode(renderText(parseText(text)));

test('encodeTextFile writes the bytes of the rendered text: BOM, CRLF, no final newline, non-ASCII', () => {
  for (const text of [
    '',
    'one',
    'one\ntwo\n',
    '\uFEFFbom\r\nmixed\nend',
    'café ☕\n日本語のテキスト\n😀 emoji\n',
    'a lone surrogate \uD800 here\n',
  ])
    assert.deepEqual(encodeTextFile(parseText(text)), naive(text), JSON.stringify(text));
});

test('encodeTextFile across many chunks, the buffer grown past the ASCII estimate', () => {
  const ascii = Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`).join('');
  assert.deepEqual(encodeTextFile(parseText(ascii)), naive(ascii));
  // Three bytes a unit from the first line on: the estimate is short by two thirds, chunk after chunk.
  const wide = Array.from({ length: 20_000 }, (_, i) => `行${'字'.repeat(i % 40)}\r\n`).join('');
  const bytes = encodeTextFile(parseText(wide));
  assert.deepEqual(bytes, naive(wide));
  assert.equal(new TextDecoder().decode(bytes), wide);
});

test('textFileContent yields the bytes encodeTextFile makes, in pieces', () => {
  const many = Array.from({ length: 20_000 }, (_, i) => `行 ${i}${i % 3 === 0 ? '\r\n' : '\n'}`).join('');
  // Copied as they come: a piece is valid only until the next one is asked for.
  const piecesOf = (file: TextFile) => Array.from(textFileContent(file).chunks(), (piece) => piece.slice());
  for (const text of [
    '',
    'one',
    '\uFEFF',
    '\uFEFFbom\r\nmixed\nend',
    'a lone surrogate \uD800 here\n',
    many,
  ]) {
    const file = parseText(text);
    const pieces = piecesOf(file);
    assert.ok(
      pieces.every((piece) => piece.length > 0),
      'no empty piece',
    );
    assert.deepEqual(
      Buffer.concat(pieces),
      Buffer.from(encodeTextFile(file)),
      JSON.stringify(text.slice(0, 40)),
    );
    // Asked again, from the start.
    assert.deepEqual(Buffer.concat(piecesOf(file)), Buffer.concat(pieces));
  }
  assert.ok(piecesOf(parseText(many)).length > 1, 'a large file comes in several pieces');
  // A line longer than a piece, and characters of three and four bytes, encoded over one buffer.
  const long = `${'x'.repeat(200_000)}\n${'字'.repeat(100_000)}😀\n${'😀'.repeat(50_000)}`;
  assert.ok(piecesOf(parseText(long)).length > 3);
  assert.equal(new TextDecoder().decode(Buffer.concat(piecesOf(parseText(long)))), long);
  // A file of fewer than four bytes still takes a character of four.
  assert.equal(new TextDecoder().decode(Buffer.concat(piecesOf(parseText('😀')))), '😀');
});
