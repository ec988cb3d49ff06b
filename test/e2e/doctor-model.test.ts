import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAideInProcess } from '../helpers/in-process.js';
import { freePort } from '../helpers/fake-http-server.js';
import { startFakeOllama } from '../helpers/fake-ollama-server.js';
import { startFakeOpenAi } from '../helpers/fake-openai-server.js';
import { gitRepo, tempDir } from '../helpers/sandbox.js';

interface DoctorJson {
  ok: boolean;
  checks: Array<{ id: string; status: string; summary: string; details: string[]; fix: string | null }>;
  facts: { model: { contact: { state: string; info?: { server: string; contextTokens: number | null } } } };
}

const T = { timeout: 30_000 };

function repoWithModel(t: Parameters<typeof gitRepo>[0], model: Record<string, unknown>): string {
  return gitRepo(t, { 'a.txt': 'a\n', '.aide/config.json': JSON.stringify({ model }) });
}

test('doctor contacts Ollama: kind, model, loaded context and a one-token round trip', T, async (t) => {
  const server = await startFakeOllama({ replies: [{ chunks: ['ok'] }], contextLength: 8192 });
  t.after(() => server.close());
  const root = repoWithModel(t, { endpoint: `${server.url}/v1`, name: 'qwen2.5-coder:14b' });
  const result = await runAideInProcess(['doctor'], {
    cwd: root,
    home: tempDir(t),
    env: { TMPDIR: tempDir(t) },
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /^ {2}ok {4}model +ollama at http:\/\/127\.0\.0\.1:\d+\/v1: model qwen2\.5-coder:14b, context 8192 tokens \(/m,
  );
  assert.match(result.stdout, /round trip: 1 token in \d+ ms, [\d.]+ tokens\/s/);
  assert.match(result.stdout, /grammar mode: no/);
  assert.equal(server.chats.length, 1, 'one round trip, the warm-up aside');
});

test(
  'doctor contacts llama-server: its per-slot context, and --json carries the same facts',
  T,
  async (t) => {
    const server = await startFakeOpenAi({
      kind: 'llama-server',
      replies: [{ chunks: ['ok'] }, { chunks: ['ok'] }],
      totalContext: 16384,
      slots: 2,
    });
    t.after(() => server.close());
    const root = repoWithModel(t, { endpoint: `${server.url}/v1`, name: 'qwen2.5-coder-14b' });
    const run = { cwd: root, home: tempDir(t), env: { TMPDIR: tempDir(t) } };
    const text = await runAideInProcess(['doctor'], run);
    assert.equal(text.code, 0, text.stdout + text.stderr);
    assert.match(text.stdout, /model +llama-server at \S+: model qwen2\.5-coder-14b, context 8192 tokens/);
    assert.match(text.stdout, /round trip: /);
    assert.match(text.stdout, /grammar mode: yes/);
    const json = await runAideInProcess(['doctor', '--json'], run);
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as DoctorJson;
    const model = report.checks.find((c) => c.id === 'model');
    assert.equal(model?.status, 'ok');
    assert.ok(model?.details.some((d) => d.startsWith('round trip: ')));
    assert.equal(report.facts.model.contact.state, 'ready');
    assert.equal(report.facts.model.contact.info?.server, 'llama-server');
    assert.equal(report.facts.model.contact.info?.contextTokens, 8192);
  },
);

test('doctor names the models the server has when the configured one is missing', T, async (t) => {
  const server = await startFakeOllama({ replies: [], models: ['llama3.1:8b', 'phi4'] });
  t.after(() => server.close());
  const root = repoWithModel(t, { endpoint: server.url, name: 'qwen2.5-coder:14b' });
  const result = await runAideInProcess(['doctor'], {
    cwd: root,
    home: tempDir(t),
    env: { TMPDIR: tempDir(t) },
  });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /FAIL {2}model +\S+ has no model "qwen2\.5-coder:14b"/);
  assert.match(result.stdout, /the server has: llama3\.1:8b, phi4/);
  assert.match(result.stdout, /fix: Set model\.name \(or AIDE_MODEL\)/);
});

test(
  'doctor with nothing listening: the model check warns with its fix, exit 0 (nothing today needs the model), quickly',
  T,
  async (t) => {
    const port = await freePort();
    const root = gitRepo(t, { 'a.txt': 'a\n' });
    const started = Date.now();
    const result = await runAideInProcess(['doctor'], {
      cwd: root,
      home: tempDir(t),
      env: { TMPDIR: tempDir(t), AIDE_MODEL_ENDPOINT: `http://127.0.0.1:${port}/v1` },
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      new RegExp(
        `warn {2}model +no model server at http://127\\.0\\.0\\.1:${port}/v1 \\(needed only by model-driven steps\\)`,
      ),
    );
    assert.match(result.stdout, /fix: Start one, e\.g\. `ollama serve`/);
    assert.match(result.stdout, /Everything aide needs is here \(1 warning\)/);
    assert.ok(Date.now() - started < 20_000, 'doctor does not hang on a missing server');
  },
);

test('doctor names a replay model and counts its replies without consuming them', T, async (t) => {
  const root = gitRepo(t, {
    'a.txt': 'a\n',
    'script.jsonl': '{"reply": "one"}\n{"reply": "two"}\n',
    '.aide/config.json': JSON.stringify({ model: { name: 'replay:script.jsonl' } }),
  });
  const result = await runAideInProcess(['doctor'], {
    cwd: root,
    home: tempDir(t),
    env: { TMPDIR: tempDir(t) },
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /ok {4}model +replay model \S*script\.jsonl \(2 replies\)/);
});

test('doctor gives up on a server that stops answering: a warning with its fix, not a hang', T, async (t) => {
  const server = await startFakeOllama({ replies: [{ chunks: ['o'], hang: true }] });
  t.after(() => server.close());
  const root = repoWithModel(t, { endpoint: server.url, name: 'qwen2.5-coder:14b' });
  const started = Date.now();
  const result = await runAideInProcess(['doctor'], {
    cwd: root,
    home: tempDir(t),
    env: { TMPDIR: tempDir(t) },
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /warn {2}model +ollama at \S+: model qwen2\.5-coder:14b, context \d+ tokens/);
  assert.match(result.stdout, /round trip failed: .*did not answer within 5000 ms/);
  assert.match(result.stdout, /fix: A model can take longer/);
  assert.ok(Date.now() - started < 20_000, 'doctor does not hang on a silent server');
});
