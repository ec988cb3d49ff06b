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
