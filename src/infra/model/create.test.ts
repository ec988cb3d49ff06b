import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { parseConfigFile } from '../../config/load.js';
import type { AideConfig } from '../../config/config-schema.js';
import { drain, freePort } from '../../../test/helpers/fake-http-server.js';
import { startFakeOllama } from '../../../test/helpers/fake-ollama-server.js';
import { startFakeOpenAi, type FakeKind } from '../../../test/helpers/fake-openai-server.js';
import { createModelClient } from './create.js';

const T = { timeout: 10_000 };
const deps = { cwd: '/', env: {}, retry: { attempts: 2, baseDelayMs: 5 } };

/** The model section as the config loader gives it, defaults applied. */
function modelConfig(model: Record<string, unknown>): AideConfig['model'] {
  const loaded = parseConfigFile(JSON.stringify({ model }), {});
  if (!loaded.ok) return assert.fail(JSON.stringify(loaded.problems));
  return loaded.loaded.value.model;
}

async function detected(t: TestContext, kind: FakeKind) {
  const server = await startFakeOpenAi({ kind, replies: [], startLoaded: true });
  t.after(() => server.close());
  const client = createModelClient(
    modelConfig({ endpoint: `${server.url}/v1`, name: 'qwen2.5-coder-14b' }),
    deps,
  );
  if (!client.ok) return assert.fail('expected a client');
  const info = await client.value.prepare({ neededContextTokens: 1024 });
  if (!info.ok) return assert.fail(JSON.stringify(info.failure));
  return info.value.server;
}

test('auto detects Ollama by /api/version and speaks its native API', T, async (t) => {
  const server = await startFakeOllama({ replies: [{ chunks: ['hi'] }] });
  t.after(() => server.close());
  const client = createModelClient(modelConfig({ endpoint: `${server.url}/v1` }), deps);
  if (!client.ok) return assert.fail('expected a client');
  const info = await client.value.prepare({ neededContextTokens: 1024 });
  assert.equal(info.ok ? info.value.server : info.failure.kind, 'ollama');
  const { outcome } = await drain(
    client.value.chat({ messages: [{ role: 'user', content: 'x' }], promptTokensEstimate: 5 }),
  );
  assert.ok(outcome.ok);
  assert.ok(
    server.requests.some((r) => r.path === '/api/chat' && (r.body as { stream?: boolean }).stream === true),
  );
});

test(
  'auto detects llama-server by /props, LM Studio by /api/v0/models, vLLM by max_model_len',
  T,
  async (t) => {
    assert.equal(await detected(t, 'llama-server'), 'llama-server');
    assert.equal(await detected(t, 'lm-studio'), 'lm-studio');
    assert.equal(await detected(t, 'vllm'), 'vllm');
    assert.equal(await detected(t, 'generic'), 'openai-compatible');
  },
);

test('provider "ollama" skips detection; "openai-compatible" speaks /v1 even to Ollama', T, async (t) => {
  const server = await startFakeOllama({ replies: [] });
  t.after(() => server.close());
  const native = createModelClient(modelConfig({ endpoint: `${server.url}/v1`, provider: 'ollama' }), deps);
  if (!native.ok) return assert.fail('expected a client');
  await native.value.prepare({ neededContextTokens: 1024 });
  assert.ok(!server.requests.some((r) => r.path === '/api/version'));
  const openai = createModelClient(
    modelConfig({ endpoint: `${server.url}/v1`, provider: 'openai-compatible' }),
    deps,
  );
  if (!openai.ok) return assert.fail('expected a client');
  const info = await openai.value.prepare({ neededContextTokens: 1024 });
  assert.ok(server.requests.some((r) => r.path === '/v1/models'));
  assert.equal(info.ok ? info.value.server : 'failed', 'openai-compatible');
});

test('nothing listening is no_server, naming the endpoint', T, async () => {
  const endpoint = `http://127.0.0.1:${await freePort()}/v1`;
  const client = createModelClient(modelConfig({ endpoint }), deps);
  if (!client.ok) return assert.fail('expected a client');
  const info = await client.value.prepare({ neededContextTokens: 1024 });
  assert.equal(info.ok, false);
  if (info.ok) return;
  assert.equal(info.failure.kind, 'no_server');
  if (info.failure.kind === 'no_server') {
    assert.equal(info.failure.endpoint, endpoint);
    assert.equal(info.failure.detail, 'ECONNREFUSED');
  }
});

test('a remote endpoint without allow_remote gets no client, and is never contacted', T, () => {
  const model = { ...modelConfig({}), endpoint: 'http://192.0.2.10:11434/v1' };
  assert.deepEqual(createModelClient(model, deps), {
    ok: false,
    failure: { kind: 'remote_refused', endpoint: 'http://192.0.2.10:11434/v1', host: '192.0.2.10' },
  });
  assert.ok(createModelClient({ ...model, allow_remote: true }, deps).ok);
});

test('the api key is read from the variable api_key_env names and sent as a bearer token', T, async (t) => {
  const server = await startFakeOpenAi({ kind: 'generic', replies: [] });
  t.after(() => server.close());
  const config = modelConfig({
    endpoint: `${server.url}/v1`,
    name: 'qwen2.5-coder-14b',
    api_key_env: 'MY_KEY',
  });
  const client = createModelClient(config, { ...deps, env: { MY_KEY: 'sekrit' } });
  if (!client.ok) return assert.fail('expected a client');
  await client.value.prepare({ neededContextTokens: 1024 });
  assert.ok(server.requests.length > 0);
  for (const r of server.requests) assert.equal(r.headers.authorization, 'Bearer sekrit', r.path);
  const without = createModelClient({ ...config, api_key_env: undefined }, deps);
  if (!without.ok) return assert.fail('expected a client');
  const seen = server.requests.length;
  await without.value.prepare({ neededContextTokens: 1024 });
  assert.equal(server.requests[seen]?.headers.authorization, undefined);
});
