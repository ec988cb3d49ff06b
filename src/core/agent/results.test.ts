import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { capResult, describeCall, droppedStub, nonEmpty } from './results.js';
import { estimateMessages, estimateTokens } from './tokens.js';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('tool results for the model', () => {
  test('text within the cap is kept as it is', () => {
    assert.deepEqual(capResult('abc\n', 'read_file', 4), { text: 'abc\n', bytes: 4, truncated: false });
  });

  for (const char of ['é', '€', '😀']) {
    test(`a cut never splits a character (${bytes(char)} bytes: ${char})`, () => {
      for (let cap = 120; cap < 130; cap++) {
        const capped = capResult(char.repeat(100), 'search_files', cap);
        assert.ok(capped.truncated);
        assert.ok(bytes(capped.text) <= cap, `${bytes(capped.text)} bytes within ${cap}`);
        assert.ok(!capped.text.includes('\uFFFD'));
        assert.match(capped.text, /\[output cut at \d+ of \d+ bytes\. Narrow the search/);
      }
    });
  }

  test('a file is cut at a line end, so no half line is shown', () => {
    const file = Array.from({ length: 50 }, (_, n) => `${n + 1}\tline number ${n + 1}`).join('\n');
    const capped = capResult(file, 'read_file', 300);
    const shown = capped.text.split('\n').slice(0, -1);
    assert.match(shown.at(-1) ?? '', /^(\d+)\tline number \1$/);
    assert.match(capped.text, /Read on with <read_file> and an <offset> after the last line shown/);
  });

  test('a command keeps the head and the tail of its output, where the errors are', () => {
    const output = ['start', ...Array.from({ length: 200 }, () => 'noise'), 'FAILED: 2 tests'].join('\n');
    const capped = capResult(output, 'run_command', 200);
    assert.ok(capped.text.startsWith('start\n'));
    assert.ok(capped.text.endsWith('FAILED: 2 tests'));
    assert.ok(bytes(capped.text) <= 200);
    assert.match(capped.text, /\[output cut at 200 of \d+ bytes\. The middle of the output is left out/);
  });

  test('an empty or blank result says so', () => {
    assert.equal(nonEmpty(' \n', 'search_files'), '(no output: search_files returned nothing)');
    assert.equal(nonEmpty('', 'run_command'), '(no output: the command printed nothing)');
    assert.equal(nonEmpty('x', 'run_command'), 'x');
  });

  test('calls are named in one line', () => {
    assert.equal(
      describeCall({ tool: 'read_file', input: { path: 'a.ts', offset: 101 } }),
      'read_file a.ts from line 101',
    );
    assert.equal(
      describeCall({ tool: 'list_files', input: { recursive: true } }),
      'list_files . (recursive)',
    );
    const long = describeCall({ tool: 'run_command', input: { command: `echo ${'x'.repeat(200)}` } });
    assert.equal(long.length, 80);
    assert.equal(
      droppedStub('read_file', 'read_file a.ts'),
      '[result of read_file a.ts dropped to fit the context: call it again if you need it]',
    );
  });
});

describe('the token estimate', () => {
  test('is characters / 4 rounded up, as the client’s truncation check assumes, plus template overhead', () => {
    assert.deepEqual([estimateTokens(''), estimateTokens('abcd'), estimateTokens('abcde')], [0, 1, 2]);
    const messages = [
      { role: 'system' as const, content: 'abcd' },
      { role: 'user' as const, content: 'abcdefgh' },
    ];
    assert.equal(estimateMessages(messages), 1 + 2 + 2 * 5);
  });
});
