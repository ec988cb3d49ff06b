/** The marker rule of markers.ts, both sides of it. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HEAD, TAIL, isDivider, isNearMarker } from './markers.js';

describe('markers with a missing or doubled space, or decorated', () => {
  for (const line of [
    '<<<<<<<SEARCH',
    '<<<<<<<  SEARCH',
    '<<<<<<< SEARCH>>',
    '<<<<<<<SEARCH>>>>>>>',
    '<<<<<<<<<< SEARCH',
    '<<<<<<< search',
  ])
    test(`"${line}" opens a block`, () => {
      assert.ok(HEAD.test(line));
    });
  for (const line of ['>>>>>>>REPLACE', '>>>>>>>  REPLACE', '>>>>>>> REPLACE<<<', '>>>>>>>>>> REPLACE'])
    test(`"${line}" closes a block`, () => {
      assert.ok(TAIL.test(line));
    });
  test('an inline path still follows the SEARCH keyword', () => {
    assert.equal(HEAD.exec('<<<<<<< SEARCH src/a.ts')?.[2], 'src/a.ts');
    assert.equal(HEAD.exec('<<<<<<<SEARCH>> src/a.ts')?.[2], 'src/a.ts');
  });
});

describe('lines that are not markers', () => {
  for (const line of ['<<<<<<< SEARCHING', '<<<< SEARCH', 'SEARCH', '<<<<<<< HEAD', '    <<<<<<< SEARCH'])
    test(`"${line}" does not open a block`, () => {
      assert.equal(HEAD.test(line), false);
    });
  for (const line of ['>>>>>>> REPLACED', '>>> REPLACE', '>>>>>>> main'])
    test(`"${line}" does not close a block`, () => {
      assert.equal(TAIL.test(line), false);
    });
});

describe('near markers are reported, other lines are not', () => {
  for (const line of ['<<< SEARCH', '<<SEARCH>>', 'SEARCH>>>>>>>', '>>> REPLACE', 'REPLACE <<<<<<<'])
    test(`"${line}" is a near marker`, () => {
      assert.ok(isNearMarker(line));
    });
  for (const line of [
    '- SEARCH',
    'SEARCH',
    'search the docs',
    '<<<<<<< SEARCH',
    '>>> print(x)',
    '<search>',
    '<SEARCH>',
    '> REPLACE',
    '<<< search',
  ])
    test(`"${line}" is not`, () => {
      assert.equal(isNearMarker(line), false);
    });
});

describe('dividers', () => {
  test('5 to 9 characters split any block', () => {
    assert.ok(isDivider('=====', 7));
    assert.ok(isDivider('=========', 7));
    assert.equal(isDivider('====', 7), false);
  });
  test('a longer run splits only a block whose SEARCH marker is as long (else it is an underline)', () => {
    assert.equal(isDivider('==========', 7), false);
    assert.ok(isDivider('==========', 10));
    assert.equal(isDivider('============', 10), false);
  });
});
