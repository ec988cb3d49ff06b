import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bareNameFromLine, isBareName } from './path-text.js';

test('bare names of files without an extension or folder', () => {
  for (const line of ['VERSION', '`NOTICE`', '**configure**', 'gradlew', 'Caddyfile', 'run_tests'])
    assert.ok(bareNameFromLine(line) !== undefined, line);
});

test('prose is not a bare name', () => {
  for (const line of [
    'Changes',
    'Done',
    'Next:',
    'then:',
    'the fix.',
    'two words',
    '42',
    '---',
    'python',
    'and',
    'then',
  ])
    assert.equal(bareNameFromLine(line), undefined, line);
});

test('a well-known or extension-bearing path is not a bare name', () => {
  assert.equal(isBareName('Makefile'), false);
  assert.equal(isBareName('src/app.ts'), false);
  assert.equal(isBareName('VERSION'), true);
});
