import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { printError } from './error.js';

function capture() {
  let text = '';
  return { out: { write: (chunk: string) => (text += chunk) }, text: () => text };
}

test('an AideError prints its message, details and hint and returns its exit code', () => {
  const sink = capture();
  const code = printError(
    new AideError('config_invalid', 'bad config', { hint: 'fix it', details: ['a.json:1:2: x'] }),
    sink.out,
    false,
  );
  assert.equal(code, 2);
  assert.equal(sink.text(), 'aide: bad config\n  a.json:1:2: x\n  hint: fix it\n');
});

test('a remedy is worded by the CLI, as the hint of the text and of --json', () => {
  const error = new AideError('workspace_invalid', 'the directory /x does not exist', {
    remedy: 'check_cwd',
  });
  const text = capture();
  assert.equal(printError(error, text.out, false), 2);
  assert.equal(text.text(), 'aide: the directory /x does not exist\n  hint: Check --cwd.\n');
  const json = capture();
  printError(error, json.out, true);
  assert.equal((JSON.parse(json.text()) as { error: { hint: string } }).error.hint, 'Check --cwd.');
});

test('any other error is a bug: the stack, a request for a report, exit 70', () => {
  const sink = capture();
  const code = printError(new TypeError('boom'), sink.out, false);
  assert.equal(code, 70);
  assert.match(sink.text(), /internal error \(this is a bug in aide\)/);
  assert.match(sink.text(), /TypeError: boom\n\s+at /);
  assert.match(sink.text(), /Please report it/);
});

test('--json errors are one JSON object with a stable code', () => {
  const sink = capture();
  assert.equal(printError(new Error('x'), sink.out, true), 70);
  const parsed = JSON.parse(sink.text()) as { ok: boolean; error: { code: string } };
  assert.deepEqual([parsed.ok, parsed.error.code], [false, 'internal']);
});
