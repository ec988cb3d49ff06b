import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { isIgnored, parseReviewIgnore } from './review-ignore.js';

test('path:rule:line and path:rule entries, comments and blank lines', () => {
  const entries = parseReviewIgnore(
    '# fixtures\n\ntest/fixtures/a.json:generic-secret-assignment:12\r\ndocs/my:file.md:github-pat\n',
  );
  assert.deepEqual(entries, [
    { path: 'test/fixtures/a.json', rule: 'generic-secret-assignment', line: 12 },
    { path: 'docs/my:file.md', rule: 'github-pat', line: null },
  ]);
  const at = (file: string, rule: string, line: number) => isIgnored(entries, { file, rule, line });
  assert.equal(at('test/fixtures/a.json', 'generic-secret-assignment', 12), true);
  assert.equal(at('test/fixtures/a.json', 'generic-secret-assignment', 13), false);
  assert.equal(at('test/fixtures/a.json', 'github-pat', 12), false);
  assert.equal(at('docs/my:file.md', 'github-pat', 99), true);
  assert.equal(at('docs/other.md', 'github-pat', 99), false);
});

test('a line that is not path:rule[:line], or names no rule, is an error naming the line', () => {
  for (const [text, line] of [
    ['ok.js:github-pat\nsrc/a.js\n', 2],
    ['src/a.js:github-token:3\n', 1],
    ['src/a.js:github-pat:0\n', 1],
  ] as const) {
    assert.throws(
      () => parseReviewIgnore(text),
      (error: unknown) =>
        error instanceof AideError &&
        error.code === 'config_invalid' &&
        error.message.startsWith(`.aide/review-ignore:${line}:`),
      text,
    );
  }
});
