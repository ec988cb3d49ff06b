import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeCodePoint, findInvisible } from './invisible.js';

const codePoints = (line: string) => findInvisible(line).map((c) => c.codePoint);

test('zero-width characters are found', () => {
  for (const cp of [
    0x200b, 0x200c, 0x200d, 0x2060, 0x00ad, 0x034f, 0x180e, 0x2061, 0x2064, 0x3164, 0xffa0, 0x115f,
  ]) {
    assert.deepEqual(codePoints(`ab${String.fromCodePoint(cp)}cd`), [cp], describeCodePoint(cp));
  }
});

test('bidi controls are found: marks, embeddings, overrides and isolates', () => {
  for (const cp of [
    0x200e, 0x200f, 0x061c, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
  ]) {
    assert.deepEqual(codePoints(`if (x${String.fromCodePoint(cp)}) {`), [cp], describeCodePoint(cp));
  }
});

test('the whole tag block is found, U+E0000 through U+E007F', () => {
  for (const cp of [0xe0000, 0xe0001, 0xe0020, 0xe0041, 0xe007e, 0xe007f]) {
    assert.deepEqual(codePoints(`x${String.fromCodePoint(cp)}y`), [cp], describeCodePoint(cp));
  }
  assert.deepEqual(codePoints(`x${String.fromCodePoint(0xe0080)}y`), [], 'U+E0080 is past the tag block');
});

test('a BOM in the middle of a line is found', () => {
  assert.deepEqual(findInvisible('const a\uFEFF = 1;'), [
    { column: 8, codePoint: 0xfeff, label: 'U+FEFF ZERO WIDTH NO-BREAK SPACE (BOM)' },
  ]);
});

test('columns count code points, not UTF-16 units', () => {
  // 😀 and 𝒳 are two UTF-16 units each but one column.
  assert.deepEqual(
    findInvisible('😀𝒳a\u{E0041}b\u202E').map((c) => [c.column, c.label]),
    [
      [4, 'U+E0041 TAG CHARACTER'],
      [6, 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ],
  );
});

test('every finding in a line is reported, and a second call finds the same (no regex state)', () => {
  const line = '\u200Ba\u200Bb\u2066';
  assert.deepEqual(codePoints(line), [0x200b, 0x200b, 0x2066]);
  assert.deepEqual(codePoints(line), [0x200b, 0x200b, 0x2066]);
});

test('labels name the code point', () => {
  assert.equal(describeCodePoint(0x202e), 'U+202E RIGHT-TO-LEFT OVERRIDE');
  assert.equal(describeCodePoint(0xe007f), 'U+E007F TAG CHARACTER');
  assert.equal(describeCodePoint(0x00ad), 'U+00AD SOFT HYPHEN');
});

test('plain ASCII has no findings (regression: a mis-escaped astral class matched all of ASCII)', () => {
  let ascii = '';
  for (let cp = 0x20; cp < 0x7f; cp++) ascii += String.fromCodePoint(cp);
  assert.deepEqual(findInvisible(ascii), []);
  assert.deepEqual(findInvisible('\tconst x = 0; // E000 e0000 \\u{E0041}'), []);
});

test('emoji, CJK, accented and other scripts have no findings', () => {
  for (const text of [
    '😀 🚀 🦀 👍🏽 ❤️',
    '漢字かなカナ 한국어',
    'café naïve größe ñandú',
    'cafe\u0301 (decomposed)',
    'Ελληνικά русский עברית العربية',
    '→ ≠ ∑ € £ ¥ ©',
    'ｆｕｌｌｗｉｄｔｈ',
  ]) {
    assert.deepEqual(findInvisible(text), [], text);
  }
});

test('the joiner inside an emoji sequence and the tags of a subdivision flag are visible, so not reported', () => {
  assert.deepEqual(codePoints('family: 👨\u200D👩\u200D👧, ❤️\u200D🔥'), []);
  assert.deepEqual(
    codePoints('Scotland: \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}'),
    [],
  );
});

test('a joiner or tag outside an emoji sequence is still reported', () => {
  assert.deepEqual(codePoints('admin\u200Duser 👨\u200D'), [0x200d, 0x200d]);
  assert.deepEqual(codePoints('\u{1F3F4} then \u{E0067}\u{E007F}'), [0xe0067, 0xe007f]);
});
