import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { ModelRequest } from '../../core/ports/model.js';
import { parseConfigFile } from '../../config/load.js';
import { drain } from '../../../test/helpers/fake-http-server.js';
import { createModelClient } from './create.js';
import { ReplayModelClient } from './replay.js';

function script(t: TestContext, lines: unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-replay-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'replies.jsonl');
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return file;
}

function ask(content: string, count = 1): ModelRequest {
  const messages = Array.from({ length: count }, () => ({ role: 'user' as const, content }));
  return { messages, promptTokensEstimate: 10 };
}

test('replies come in order, streamed, and a request past the script is replay_exhausted', async (t) => {
  const file = script(t, [{ reply: 'first reply' }, { reply: 'second' }]);
  const client = new ReplayModelClient(file);
  const info = await client.prepare({ neededContextTokens: 1000 });
  assert.deepEqual(info, {
    ok: true,
    value: { server: 'replay', model: `replay:${file}`, contextTokens: null, contextSource: null },
  });
  const one = await drain(client.chat(ask('a')));
  assert.deepEqual(one.events, [
    { type: 'token', text: 'first ' },
    { type: 'token', text: 'reply' },
  ]);
  assert.equal(one.outcome.ok ? one.outcome.value.text : '', 'first reply');
  const two = await drain(client.chat(ask('b')));
  assert.equal(two.outcome.ok ? two.outcome.value.text : '', 'second');
  const three = await drain(client.chat(ask('c')));
  assert.deepEqual(three.outcome, { ok: false, failure: { kind: 'replay_exhausted', file, used: 2 } });
});

test('an expected request that does not match names the line', async (t) => {
  const file = script(t, [
    { reply: 'ok', expect: { last_message_contains: 'src/a.ts', messages: 1 } },
    { reply: 'no', expect: { last_message_contains: ['tool result', 'missing'] } },
  ]);
  const client = new ReplayModelClient(file);
  assert.ok((await drain(client.chat(ask('read src/a.ts')))).outcome.ok);
  const { outcome } = await drain(client.chat(ask('tool result')));
  assert.deepEqual(outcome, {
    ok: false,
    failure: {
      kind: 'replay_invalid',
      file,
      line: 2,
      detail: 'expected the last message to contain "missing"',
    },
  });
  const counted = new ReplayModelClient(script(t, [{ reply: 'x', expect: { messages: 3 } }]));
  const wrong = await drain(counted.chat(ask('a', 2)));
  assert.equal(wrong.outcome.ok ? '' : wrong.outcome.failure.kind, 'replay_invalid');
});

test('a malformed line is replay_invalid with its line number, before any reply', async (t) => {
  const file = script(t, [{ reply: 'fine' }, '', '{"reply": 3}', 'not json']);
  const outcome = await new ReplayModelClient(file).prepare({ neededContextTokens: 1 });
  assert.equal(outcome.ok, false);
  if (outcome.ok || outcome.failure.kind !== 'replay_invalid') return assert.fail('expected replay_invalid');
  assert.equal(outcome.failure.line, 3);
  assert.match(outcome.failure.detail, /^reply: /);
  const missing = await new ReplayModelClient(join(tmpdir(), 'no-such-replay.jsonl')).prepare({
    neededContextTokens: 1,
  });
  assert.deepEqual(missing.ok ? null : missing.failure, {
    kind: 'replay_invalid',
    file: join(tmpdir(), 'no-such-replay.jsonl'),
    line: 0,
    detail: 'cannot read the replay file: ENOENT',
  });
});

test('a scripted length finish is an incomplete reply; an aborted request is cancelled', async (t) => {
  const client = new ReplayModelClient(
    script(t, [{ reply: 'cut', finish_reason: 'length' }, { reply: 'x' }]),
  );
  const { outcome } = await drain(client.chat(ask('a')));
  assert.equal(outcome.ok ? '' : outcome.failure.kind, 'incomplete');
  const controller = new AbortController();
  controller.abort();
  const cancelled = await drain(client.chat({ ...ask('b'), signal: controller.signal }));
  assert.deepEqual(cancelled.outcome, { ok: false, failure: { kind: 'cancelled' } });
});

test('model name replay:FILE makes the replay model, the file relative to the workspace', async (t) => {
  const file = script(t, [{ reply: 'hello' }]);
  const loaded = parseConfigFile(JSON.stringify({ model: { name: 'replay:replies.jsonl' } }), {});
  if (!loaded.ok) return assert.fail('expected a valid config');
  const client = createModelClient(loaded.loaded.value.model, { cwd: join(file, '..'), env: {} });
  if (!client.ok) return assert.fail('expected a client');
  const { outcome } = await drain(client.value.chat(ask('a')));
  assert.equal(outcome.ok ? outcome.value.text : '', 'hello');
});
