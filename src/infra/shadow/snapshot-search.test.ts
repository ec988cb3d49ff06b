import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandBraces, pathspecs, toExtendedRegex } from './snapshot-search.js';

test('\\d becomes a digit class, in and out of brackets; an escaped backslash stays one', () => {
  assert.equal(toExtendedRegex('v\\d+\\.\\d+'), 'v[0-9]+\\.[0-9]+');
  assert.equal(toExtendedRegex('[\\d_]+'), '[0-9_]+');
  assert.equal(toExtendedRegex('\\D'), '[^0-9]');
  assert.equal(toExtendedRegex('\\\\d'), '\\\\d', 'a literal backslash, then d');
  assert.equal(toExtendedRegex('[]\\d]'), '[]0-9]', 'a ] first in a bracket is a member');
  assert.equal(toExtendedRegex('\\w+\\s*\\('), '\\w+\\s*\\(', 'what glibc reads already is kept');
});

test('braces expand into alternatives, one pathspec each', () => {
  assert.deepEqual(expandBraces('*.{ts,tsx}'), ['*.ts', '*.tsx']);
  assert.deepEqual(expandBraces('{src,test}/*.{js,mjs}'), [
    'src/*.js',
    'src/*.mjs',
    'test/*.js',
    'test/*.mjs',
  ]);
  assert.deepEqual(expandBraces('plain'), ['plain']);
});

test('pathspecs: a literal path, a glob at any depth, a glob under the path', () => {
  assert.deepEqual(pathspecs({}, false), []);
  assert.deepEqual(pathspecs({ path: 'src/[id]' }, false), [':(literal)src/[id]']);
  assert.deepEqual(pathspecs({ glob: '*.ts' }, false), [':(glob)**/*.ts']);
  assert.deepEqual(pathspecs({ glob: './src/*.ts' }, false), [':(glob)src/*.ts']);
  assert.deepEqual(pathspecs({ path: 'app/[id]', glob: '*.ts' }, false), [':(glob)app/\\[id\\]/**/*.ts']);
  assert.deepEqual(pathspecs({ path: 'src', glob: 'src/**/*.ts' }, false), [':(glob)src/**/*.ts']);
  assert.deepEqual(pathspecs({ path: 'src/a.ts', glob: '*.js' }, true), [':(literal)src/a.ts']);
});
