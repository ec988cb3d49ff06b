import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { ModelRequest } from '../../core/ports/model.js';
import { drain } from '../../../test/helpers/fake-http-server.js';
import { startFakeOpenAi, type FakeOpenAiOptions } from '../../../test/helpers/fake-openai-server.js';
import { OpenAiCompatibleClient } from './openai.js';
import type { ClientSettings } from './settings.js';

const MODEL = 'qwen2.5-coder-14b';
const T = { timeout: 10_000 };

async function openai(t: TestContext, options: FakeOpenAiOptions, extra: Partial<ClientSettings> = {}) {
  const server = await startFakeOpenAi(options);
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
  const kind = options.kind === 'generic' ? 'openai-compatible' : options.kind;
  return { server, client: new OpenAiCompatibleClient(settings, kind) };
}

function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return { messages: [{ role: 'user', content: 'Say hi.' }], promptTokensEstimate: 20, ...extra };
}

test('llama-server: the context is the per-slot n_ctx from /props, not the -c total', T, async (t) => {
  const { client } = await openai(t, { kind: 'llama-server', replies: [], totalContext: 32768, slots: 4 });
  assert.deepEqual(await client.prepare({ neededContextTokens: 6000 }), {
    ok: true,
    value: {
      server: 'llama-server',
      model: MODEL,
      contextTokens: 8192,
      contextSource: '/props n_ctx per slot (4 slots)',
      acceptsGrammar: true,
    },
  });
  const small = await client.prepare({ neededContextTokens: 12000 });
  assert.equal(small.ok, false);
  if (small.ok || small.failure.kind !== 'context_too_small')
    return assert.fail('expected context_too_small');
  assert.deepEqual([small.failure.available, small.failure.needed], [8192, 12000]);
  assert.match(small.failure.knob, /-c \(--ctx-size\).*-np/);
});

test(
  'LM Studio: a model not loaded yet is loaded first, then its loaded_context_length read',
  T,
  async (t) => {
    const { server, client } = await openai(t, { kind: 'lm-studio', replies: [], loadedContextLength: 4096 });
    const outcome = await client.prepare({ neededContextTokens: 2000 });
    assert.deepEqual(outcome, {
      ok: true,
      value: {
        server: 'lm-studio',
        model: MODEL,
        contextTokens: 4096,
        contextSource: 'LM Studio loaded_context_length',
      },
    });
    assert.deepEqual(
      server.requests.map((r) => `${r.method} ${r.path}`),
      ['GET /v1/models', 'GET /api/v0/models', 'POST /v1/chat/completions', 'GET /api/v0/models'],
    );
    const small = await client.prepare({ neededContextTokens: 9000 });
    if (small.ok || small.failure.kind !== 'context_too_small')
      return assert.fail('expected context_too_small');
    assert.match(small.failure.knob, /LM Studio/);
  },
);

test('vLLM: the context is max_model_len; an unknown model lists what it serves', T, async (t) => {
  const { client } = await openai(t, { kind: 'vllm', replies: [], maxModelLen: 16384 });
  const outcome = await client.prepare({ neededContextTokens: 2000 });
  assert.ok(outcome.ok);
  assert.deepEqual(
    [outcome.value.contextTokens, outcome.value.contextSource],
    [16384, '/v1/models max_model_len'],
  );
  const other = await openai(t, { kind: 'vllm', replies: [], models: ['Qwen/Qwen2.5-Coder-7B'] });
  assert.deepEqual(await other.client.prepare({ neededContextTokens: 2000 }), {
    ok: false,
    failure: { kind: 'unknown_model', model: MODEL, available: ['Qwen/Qwen2.5-Coder-7B'] },
  });
});

test('a generic server does not say its context: null, never a guess', T, async (t) => {
  const { client } = await openai(t, { kind: 'generic', replies: [] });
  const outcome = await client.prepare({ neededContextTokens: 900_000 });
  assert.ok(outcome.ok);
  assert.deepEqual([outcome.value.contextTokens, outcome.value.contextSource], [null, null]);
});

test('a reply streams over SSE, with usage and llama-server timings', T, async (t) => {
  const { server, client } = await openai(t, {
    kind: 'llama-server',
    replies: [{ chunks: ['<read', '_file>', 'x'], promptTokens: 25, evalTokens: 3 }],
  });
  const { events, outcome } = await drain(client.chat(request({ maxReplyTokens: 64 })));
  assert.deepEqual(
    events.map((e) => (e.type === 'token' ? e.text : e.type)),
    ['<read', '_file>', 'x'],
  );
  assert.ok(outcome.ok);
  assert.equal(outcome.value.text, '<read_file>x');
  assert.deepEqual([outcome.value.promptTokens, outcome.value.evalTokens], [25, 3]);
  assert.deepEqual([outcome.value.timings.promptMs, outcome.value.timings.evalMs], [120, 400]);
  assert.equal(outcome.value.tokensPerSecond, 7.5);
  assert.deepEqual(server.chats[0], {
    model: MODEL,
    messages: request().messages,
    stream: true,
    temperature: 0.2,
    stream_options: { include_usage: true },
    max_tokens: 64,
  });
});

test('llama-server overflow: exceed_context_size_error with n_ctx and the prompt size', T, async (t) => {
  const body = {
    error: {
      code: 400,
      message: 'request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it',
      type: 'exceed_context_size_error',
      n_prompt_tokens: 9000,
      n_ctx: 8192,
    },
  };
  const { client } = await openai(t, { kind: 'llama-server', replies: [{ status: 400, body }] });
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, {
    ok: false,
    failure: {
      kind: 'overflow',
      server: 'llama-server',
      contextTokens: 8192,
      promptTokens: 9000,
      detail: body.error.message,
    },
  });
});

test('vLLM overflow: "maximum context length" with both numbers', T, async (t) => {
  const message =
    "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4800 in the messages, 200 in the completion). Please reduce the length of the messages or completion.";
  const { client } = await openai(t, {
    kind: 'vllm',
    replies: [{ status: 400, body: { object: 'error', message, type: 'BadRequestError', code: 400 } }],
  });
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, {
    ok: false,
    failure: { kind: 'overflow', server: 'vllm', contextTokens: 4096, promptTokens: 5000, detail: message },
  });
});

test('LM Studio overflow: its error is a plain string', T, async (t) => {
  const message =
    'Trying to keep the first 5120 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input';
  const { client } = await openai(t, {
    kind: 'lm-studio',
    startLoaded: true,
    replies: [{ status: 400, body: { error: message } }],
  });
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, {
    ok: false,
    failure: {
      kind: 'overflow',
      server: 'lm-studio',
      contextTokens: 4096,
      promptTokens: null,
      detail: message,
    },
  });
});

test('an error event after HTTP 200 fails the reply', T, async (t) => {
  const { client } = await openai(t, {
    kind: 'generic',
    replies: [{ chunks: ['a'], errorEvent: { message: 'upstream died', type: 'server_error' } }],
  });
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, {
    ok: false,
    failure: { kind: 'server_error', status: 200, detail: 'upstream died' },
  });
});

test('a length finish is incomplete; a short prompt_tokens is a truncated prompt', T, async (t) => {
  const { client } = await openai(t, {
    kind: 'generic',
    replies: [
      { chunks: ['half'], finishReason: 'length' },
      { chunks: ['ok'], promptTokens: 900 },
      { chunks: ['ok'], promptTokens: 900, cachedTokens: 2100 },
    ],
  });
  const first = await drain(client.chat(request()));
  assert.equal(first.outcome.ok ? 'ok' : first.outcome.failure.kind, 'incomplete');
  const second = await drain(client.chat(request({ promptTokensEstimate: 3000 })));
  assert.deepEqual(second.outcome, {
    ok: false,
    failure: { kind: 'truncated_prompt', reported: 900, estimated: 3000 },
  });
  const cached = await drain(client.chat(request({ promptTokensEstimate: 3000 })));
  assert.ok(cached.outcome.ok, 'usage.prompt_tokens_details.cached_tokens counts towards the prompt');
});

test('llama-server answers 503 "Loading model" until ready: retried, then the reply', T, async (t) => {
  const loading = {
    status: 503,
    body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
  };
  const { client } = await openai(t, {
    kind: 'llama-server',
    replies: [loading, { reset: true }, { chunks: ['up'] }],
  });
  const { events, outcome } = await drain(client.chat(request()));
  const seen = events.map((e) => (e.type === 'retrying' ? e.reason : e.text));
  assert.equal(seen.length, 3);
  assert.equal(seen[0], 'HTTP 503: Loading model');
  assert.match(seen[1] ?? '', /^connection reset/);
  assert.equal(seen[2], 'up');
  assert.ok(outcome.ok);
});

test('still loading after every retry is `loading`, naming the endpoint', T, async (t) => {
  const loading = {
    status: 503,
    body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } },
  };
  const { server, client } = await openai(t, { kind: 'llama-server', replies: [loading, loading, loading] });
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, {
    ok: false,
    failure: { kind: 'loading', endpoint: `${server.url}/v1`, detail: 'HTTP 503: Loading model' },
  });
});

test('aborting mid-stream cancels at once', T, async (t) => {
  const { client } = await openai(t, { kind: 'generic', replies: [{ chunks: ['first'], hang: true }] });
  const controller = new AbortController();
  const chat = client.chat(request({ signal: controller.signal }));
  assert.deepEqual((await chat.next()).value, { type: 'token', text: 'first' });
  controller.abort();
  const { outcome } = await drain(chat);
  assert.deepEqual(outcome, { ok: false, failure: { kind: 'cancelled' } });
});

test('an abort before the answer arrives cancels too, and a silent server times out', T, async (t) => {
  const { client } = await openai(
    t,
    { kind: 'generic', replies: [{ delayMs: 2000, chunks: ['late'] }] },
    {
      timeouts: { totalMs: 5000, idleMs: 100 },
    },
  );
  const { outcome } = await drain(client.chat(request()));
  assert.deepEqual(outcome, { ok: false, failure: { kind: 'timeout', which: 'idle', ms: 100 } });
  const again = await openai(t, { kind: 'generic', replies: [{ delayMs: 2000, chunks: ['late'] }] });
  const controller = new AbortController();
  setTimeout(() => {
    controller.abort();
  }, 50);
  const cancelled = await drain(again.client.chat(request({ signal: controller.signal })));
  assert.deepEqual(cancelled.outcome, { ok: false, failure: { kind: 'cancelled' } });
});

test('an SSE stream cut off before its finish is a failure too', T, async (t) => {
  const { client } = await openai(t, {
    kind: 'generic',
    replies: [{ chunks: ['par'], chunkDelayMs: 20, resetAfter: true }],
  });
  const { outcome } = await drain(client.chat(request()));
  assert.equal(outcome.ok ? 'ok' : outcome.failure.kind, 'server_error');
});

const GRAMMAR = 'root ::= "<read_file>" [^<]* "</read_file>"';

test(
  'a grammar goes as llama-server `grammar` and vLLM `structured_outputs.grammar`, where prepare says so',
  T,
  async (t) => {
    const sent: Record<string, unknown> = {};
    for (const kind of ['llama-server', 'vllm', 'lm-studio', 'generic'] as const) {
      const { server, client } = await openai(t, { kind, replies: [{ chunks: ['ok'] }], startLoaded: true });
      const prepared = await client.prepare({ neededContextTokens: 1000 });
      assert.ok(prepared.ok, kind);
      const { outcome } = await drain(client.chat(request({ grammar: GRAMMAR })));
      assert.ok(outcome.ok, kind);
      const body = server.chats.at(-1) as Record<string, unknown>;
      sent[kind] = {
        acceptsGrammar: prepared.value.acceptsGrammar,
        grammar: body.grammar,
        structured_outputs: body.structured_outputs,
      };
    }
    assert.deepEqual(sent, {
      'llama-server': { acceptsGrammar: true, grammar: GRAMMAR, structured_outputs: undefined },
      vllm: { acceptsGrammar: true, grammar: undefined, structured_outputs: { grammar: GRAMMAR } },
      // Dropped, not refused: a grammar only narrows the reply, which is checked all the same.
      'lm-studio': { acceptsGrammar: undefined, grammar: undefined, structured_outputs: undefined },
      generic: { acceptsGrammar: undefined, grammar: undefined, structured_outputs: undefined },
    });
  },
);

test('model.grammar "off": no grammar support reported, none sent', T, async (t) => {
  const { server, client } = await openai(
    t,
    { kind: 'llama-server', replies: [{ chunks: ['ok'] }] },
    {
      grammar: 'off',
    },
  );
  const prepared = await client.prepare({ neededContextTokens: 1000 });
  assert.ok(prepared.ok);
  assert.equal(prepared.value.acceptsGrammar, undefined);
  await drain(client.chat(request({ grammar: GRAMMAR })));
  assert.equal((server.chats[0] as Record<string, unknown>).grammar, undefined);
});
