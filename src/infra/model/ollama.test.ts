import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { ModelMessage, ModelRequest } from '../../core/ports/model.js';
import { drain } from '../../../test/helpers/fake-http-server.js';
import { startFakeOllama, type FakeOllamaOptions } from '../../../test/helpers/fake-ollama-server.js';
import { OllamaClient } from './ollama.js';
import type { ClientSettings } from './settings.js';

const MODEL = 'qwen2.5-coder:14b';
const T = { timeout: 10_000 };
const messages: ModelMessage[] = [
  { role: 'system', content: 'You are aide.' },
  { role: 'user', content: 'Say hi.' },
];

async function ollama(t: TestContext, options: FakeOllamaOptions, extra: Partial<ClientSettings> = {}) {
  const server = await startFakeOllama(options);
  t.after(() => server.close());
  const settings: ClientSettings = {
    endpoint: `${server.url}/v1`,
    model: MODEL,
    contextTokens: 8192,
    temperature: 0.2,
    keepAlive: '30m',
    grammar: 'auto',
    timeouts: { totalMs: 5000, idleMs: 3000 },
    retry: { attempts: 3, baseDelayMs: 5 },
    ...extra,
  };
  return { server, client: new OllamaClient(settings) };
}

function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return { messages, promptTokensEstimate: 20, ...extra };
}

test(
  'prepare loads the model with the session num_ctx and reads the context Ollama allocated',
  T,
  async (t) => {
    const { server, client } = await ollama(t, { replies: [], contextLength: 6144 });
    const info = await client.prepare({ neededContextTokens: 4000 });
    assert.deepEqual(info, {
      ok: true,
      value: { server: 'ollama', model: MODEL, contextTokens: 6144, contextSource: '/api/ps context_length' },
    });
    const load = server.requests.find((r) => r.path === '/api/chat');
    assert.deepEqual(load?.body, {
      model: MODEL,
      messages: [],
      stream: false,
      keep_alive: '30m',
      truncate: false,
      shift: false,
      options: { num_ctx: 8192, temperature: 0.2 },
    });
  },
);

test('a context smaller than the session needs names the Ollama knobs', T, async (t) => {
  const { client } = await ollama(t, { replies: [], contextLength: 2048 });
  const outcome = await client.prepare({ neededContextTokens: 6000 });
  assert.equal(outcome.ok, false);
  if (outcome.ok) return;
  assert.equal(outcome.failure.kind, 'context_too_small');
  if (outcome.failure.kind !== 'context_too_small') return;
  assert.deepEqual([outcome.failure.available, outcome.failure.needed], [2048, 6000]);
  assert.match(outcome.failure.knob, /num_ctx/);
  assert.match(outcome.failure.knob, /OLLAMA_CONTEXT_LENGTH/);
});

test('an unknown model lists the models the server has', T, async (t) => {
  const { client } = await ollama(t, { replies: [], models: ['llama3.2:latest', 'qwen3:8b'] });
  const outcome = await client.prepare({ neededContextTokens: 1000 });
  assert.deepEqual(outcome, {
    ok: false,
    failure: { kind: 'unknown_model', model: MODEL, available: ['llama3.2:latest', 'qwen3:8b'] },
  });
});

test('a reply streams token by token, with the counts and timings Ollama reports', T, async (t) => {
  const { server, client } = await ollama(t, {
    replies: [{ chunks: ['Hel', 'lo', '!'], promptTokens: 18, evalTokens: 3 }],
  });
  const { events, outcome } = await drain(client.chat(request({ maxReplyTokens: 100 })));
  assert.deepEqual(
    events.map((e) => (e.type === 'token' ? e.text : e.type)),
    ['Hel', 'lo', '!'],
  );
  assert.ok(outcome.ok);
  assert.equal(outcome.value.text, 'Hello!');
  assert.equal(outcome.value.finishReason, 'stop');
  assert.deepEqual([outcome.value.promptTokens, outcome.value.evalTokens], [18, 3]);
  assert.deepEqual([outcome.value.timings.promptMs, outcome.value.timings.evalMs], [500, 1000]);
  assert.equal(outcome.value.tokensPerSecond, 3);
  assert.deepEqual(server.chats[0], {
    model: MODEL,
    messages,
    stream: true,
    keep_alive: '30m',
    truncate: false,
    shift: false,
    options: { num_ctx: 8192, temperature: 0.2, num_predict: 100 },
  });
});

test(
  'every request carries the same num_ctx, so Ollama never reloads the model between turns',
  T,
  async (t) => {
    const { server, client } = await ollama(t, { replies: [{ chunks: ['a'] }, { chunks: ['b'] }] });
    await client.prepare({ neededContextTokens: 1000 });
    await drain(client.chat(request()));
    await drain(client.chat(request()));
    const sent = server.requests
      .filter((r) => r.path === '/api/chat')
      .map((r) => (r.body as { options: { num_ctx: number } }).options.num_ctx);
    assert.deepEqual(sent, [8192, 8192, 8192]);
  },
);

test('keep_alive "-1" and "0" go as numbers: Go cannot parse a duration without a unit', T, async (t) => {
  const { server, client } = await ollama(t, { replies: [{ chunks: ['a'] }] }, { keepAlive: '-1' });
  await drain(client.chat(request()));
  assert.equal((server.chats[0] as { keep_alive: unknown }).keep_alive, -1);
});

test('an error line after HTTP 200 fails the reply with the server words', T, async (t) => {
  const { client } = await ollama(t, {
    replies: [{ chunks: ['par'], errorLine: 'an error was encountered while running the model: CUDA error' }],
  });
  const { events, outcome } = await drain(client.chat(request()));
  assert.equal(events.length, 1);
  assert.deepEqual(outcome, {
    ok: false,
    failure: {
      kind: 'server_error',
      status: 200,
      detail: 'an error was encountered while running the model: CUDA error',
    },
  });
});

test('an oversize prompt refused with 400 (truncate: false) is an overflow', T, async (t) => {
  const { client } = await ollama(t, {
    replies: [{ status: 400, body: { error: 'the input length exceeds the context length' } }],
  });
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, {
    ok: false,
    failure: {
      kind: 'overflow',
      server: 'ollama',
      contextTokens: null,
      promptTokens: null,
      detail: 'the input length exceeds the context length',
    },
  });
});

test('a length finish is an incomplete reply, kept whole for the caller to report', T, async (t) => {
  const { client } = await ollama(t, { replies: [{ chunks: ['<write_file>'], finishReason: 'length' }] });
  const { outcome } = await drain(client.chat(request()));
  assert.equal(outcome.ok, false);
  if (outcome.ok) return;
  assert.equal(outcome.failure.kind, 'incomplete');
  if (outcome.failure.kind === 'incomplete') assert.equal(outcome.failure.reply.text, '<write_file>');
});

test('a prompt count far below the estimate means Ollama cut the prompt', T, async (t) => {
  const { client } = await ollama(t, { replies: [{ chunks: ['ok'], promptTokens: 2048 }] });
  const { outcome } = await drain(client.chat(request({ promptTokensEstimate: 7000 })));
  assert.deepEqual(outcome, {
    ok: false,
    failure: { kind: 'truncated_prompt', reported: 2048, estimated: 7000 },
  });
});

test('a count of only the new tokens beside a large cached count is not a cut prompt', T, async (t) => {
  const { client } = await ollama(t, {
    replies: [{ chunks: ['ok'], promptTokens: 120, cachedTokens: 6900 }],
  });
  const { outcome } = await drain(client.chat(request({ promptTokensEstimate: 7000 })));
  assert.ok(outcome.ok);
  assert.deepEqual([outcome.value.promptTokens, outcome.value.cachedPromptTokens], [120, 6900]);
});

test('a 503 and a reset connection are tried again, with a retrying event each', T, async (t) => {
  const { client } = await ollama(t, {
    replies: [{ status: 503, body: { error: 'server busy' } }, { reset: true }, { chunks: ['fine'] }],
  });
  const { events, outcome } = await drain(client.chat(request()));
  assert.deepEqual(
    events.map((e) => (e.type === 'retrying' ? `${e.attempt}:${e.delayMs}` : e.text)),
    ['1:5', '2:10', 'fine'],
  );
  assert.ok(outcome.ok);
});

test('a model still loading after every retry is `loading`', T, async (t) => {
  const loading = { status: 500, body: { error: 'llama runner process has terminated: loading model' } };
  const { server, client } = await ollama(t, { replies: [loading, loading, loading, { chunks: ['never'] }] });
  const { outcome } = await drain(client.chat(request()));
  assert.equal(outcome.ok, false);
  if (!outcome.ok) assert.equal(outcome.failure.kind, 'loading');
  assert.equal(server.chats.length, 3);
});

test('aborting mid-stream cancels the request at once', T, async (t) => {
  const { client } = await ollama(t, { replies: [{ chunks: ['first'], hang: true }] });
  const controller = new AbortController();
  const chat = client.chat(request({ signal: controller.signal }));
  const first = await chat.next();
  assert.deepEqual(first.value, { type: 'token', text: 'first' });
  const started = Date.now();
  controller.abort();
  const { outcome } = await drain(chat);
  assert.deepEqual(outcome, { ok: false, failure: { kind: 'cancelled' } });
  assert.ok(Date.now() - started < 1000);
});

test('a stream that goes silent fails on the idle timeout', T, async (t) => {
  const { client } = await ollama(
    t,
    { replies: [{ chunks: ['a'], hang: true }] },
    { timeouts: { totalMs: 5000, idleMs: 150 } },
  );
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, { ok: false, failure: { kind: 'timeout', which: 'idle', ms: 150 } });
});

test('a reply that keeps trickling past the total timeout fails on it', T, async (t) => {
  const slow = { chunks: Array.from({ length: 40 }, () => 'x'), chunkDelayMs: 20 };
  const { client } = await ollama(t, { replies: [slow] }, { timeouts: { totalMs: 300, idleMs: 200 } });
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, { ok: false, failure: { kind: 'timeout', which: 'total', ms: 300 } });
});

test(
  'a connection reset mid-stream fails the reply: a partial reply is never passed off as whole',
  T,
  async (t) => {
    const { client } = await ollama(t, {
      replies: [{ chunks: ['<write_file>', 'half'], chunkDelayMs: 20, resetAfter: true }],
    });
    const { events, outcome } = await drain(client.chat(request()));
    assert.equal(events.length, 2);
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.match(JSON.stringify(outcome.failure), /server_error.*broke off/);
  },
);

test('Ollama takes no grammar: prepare does not offer it and a request with one sends none', T, async (t) => {
  const { server, client } = await ollama(t, { replies: [{ chunks: ['ok'] }] });
  const prepared = await client.prepare({ neededContextTokens: 1000 });
  assert.ok(prepared.ok);
  assert.equal(prepared.value.acceptsGrammar, undefined);
  const { outcome } = await drain(client.chat(request({ grammar: 'root ::= "x"' })));
  assert.ok(outcome.ok);
  assert.doesNotMatch(JSON.stringify(server.chats[0]), /grammar|root ::=/);
});
