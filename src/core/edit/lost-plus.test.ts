import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lostPlusReadings, type HunkRow } from './lost-plus.js';

const context = (line: string): HunkRow => ({ kind: 'context', line, text: line.slice(1) });

test('each reading takes one more line after the removed ones as added', () => {
  const rows: HunkRow[] = [context(' a'), { kind: 'remove', line: '-b' }, context('B'), context(' c')];
  assert.deepEqual(lostPlusReadings(rows), [
    { search: ['a', 'b', 'c'], replace: ['a', 'B', 'c'] },
    { search: ['a', 'b'], replace: ['a', 'B', 'c'] },
  ]);
});

test('an added line indented by an odd number of columns had its + replaced by a space', () => {
  const rows: HunkRow[] = [{ kind: 'remove', line: '-    x = 1' }, context('     x = 2')];
  assert.deepEqual(lostPlusReadings(rows)[0]?.replace, ['    x = 2']);
});

test('a hunk with + lines, or with no - lines, has only its reading as written', () => {
  assert.deepEqual(
    lostPlusReadings([{ kind: 'remove', line: '-a' }, { kind: 'add', line: '+b' }, context(' c')]),
    [],
  );
  assert.deepEqual(lostPlusReadings([context(' a'), context(' b')]), []);
});

test('two runs of removed lines: only the reading as written', () => {
  const rows: HunkRow[] = [
    { kind: 'remove', line: '-a' },
    context(' b'),
    { kind: 'remove', line: '-c' },
    context(' d'),
  ];
  assert.deepEqual(lostPlusReadings(rows), []);
});
