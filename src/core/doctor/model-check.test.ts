import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelFailure } from '../ports/model.js';
import { modelVerdict, type ModelContact, type ModelFacts } from './model-check.js';

const ENDPOINT = 'http://127.0.0.1:11434';

function facts(contact: ModelContact, loopback = true): ModelFacts {
  return { endpoint: ENDPOINT, loopback, allowRemote: !loopback, contact };
}

const failed = (failure: ModelFailure): ModelFacts =>
  facts({ state: 'failed', model: 'qwen2.5-coder:14b', failure });

test('a ready server: its kind, the model, the real context and the round trip with its latency and tokens/s', () => {
  const verdict = modelVerdict(
    facts({
      state: 'ready',
      info: {
        server: 'llama-server',
        model: 'qwen',
        contextTokens: 4096,
        contextSource: '/props n_ctx per slot',
        acceptsGrammar: true,
      },
      roundTrip: { ok: true, latencyMs: 12.6, evalTokens: 1, tokensPerSecond: 80 },
    }),
  );
  assert.equal(verdict.status, 'ok');
  assert.equal(
    verdict.summary,
    `llama-server at ${ENDPOINT}: model qwen, context 4096 tokens (/props n_ctx per slot)`,
  );
  assert.deepEqual(verdict.details, [
    'round trip: 1 token in 13 ms, 80.0 tokens/s',
    'grammar mode: yes (a rejected tool call is asked again under a grammar of the tools)',
  ]);
});

test('a generic server that does not say its context, and does not count tokens', () => {
  const verdict = modelVerdict(
    facts({
      state: 'ready',
      info: { server: 'openai-compatible', model: 'm', contextTokens: null, contextSource: null },
      roundTrip: { ok: true, latencyMs: 5, evalTokens: null, tokensPerSecond: null },
    }),
  );
  assert.match(verdict.summary, /: model m, context unknown \(the server does not say\)$/);
  assert.deepEqual(verdict.details, [
    'round trip: a reply in 5 ms',
    'grammar mode: no (this server takes no grammar, or model.grammar is "off")',
  ]);
});

test('a remote server with consent warns that prompts leave the machine', () => {
  const verdict = modelVerdict(
    facts(
      {
        state: 'ready',
        info: { server: 'vllm', model: 'm', contextTokens: 32768, contextSource: 'max_model_len' },
        roundTrip: { ok: true, latencyMs: 5, evalTokens: 1, tokensPerSecond: 10 },
      },
      false,
    ),
  );
  assert.equal(verdict.status, 'warn');
  assert.match(verdict.details[0] ?? '', /leave this machine/);
});

test('each failure: fail or warn, with a fix naming the knob', () => {
  const table: Array<[ModelFailure, 'fail' | 'warn', RegExp, RegExp]> = [
    [
      { kind: 'no_server', endpoint: ENDPOINT, detail: 'ECONNREFUSED' },
      'warn',
      /^no model server at http:\/\/127\.0\.0\.1:11434 \(needed only by model-driven steps\)$/,
      /`ollama serve`.*model\.endpoint \(AIDE_MODEL_ENDPOINT\)/,
    ],
    [
      { kind: 'unknown_model', model: 'qwen2.5-coder:14b', available: ['llama3.1:8b', 'phi4'] },
      'fail',
      /has no model "qwen2\.5-coder:14b"/,
      /model\.name \(or AIDE_MODEL\).*`ollama pull qwen2\.5-coder:14b`/,
    ],
    [{ kind: 'loading', endpoint: ENDPOINT, detail: 'loading model' }, 'warn', /still loading/, /Wait/],
    [{ kind: 'timeout', which: 'total', ms: 5000 }, 'warn', /did not answer within 5000 ms/, /aide doctor/],
    [
      {
        kind: 'context_too_small',
        server: 'lm-studio',
        available: 512,
        needed: 1024,
        knob: "LM Studio's load setting",
      },
      'fail',
      /context of 512 tokens, below the 1024/,
      /LM Studio's load setting/,
    ],
    [
      { kind: 'server_error', status: 500, detail: 'boom' },
      'fail',
      /refused doctor's one-token request \(HTTP 500\)/,
      /model\.provider/,
    ],
    [
      { kind: 'replay_invalid', file: '/w/r.jsonl', line: 2, detail: 'not valid JSON' },
      'fail',
      /replay model \/w\/r\.jsonl: line 2: not valid JSON/,
      /replay script/,
    ],
  ];
  for (const [failure, status, summary, fix] of table) {
    const verdict = modelVerdict(failed(failure));
    assert.equal(verdict.status, status, failure.kind);
    assert.match(verdict.summary, summary, failure.kind);
    assert.match(verdict.fix ?? '', fix, failure.kind);
  }
  assert.deepEqual(
    modelVerdict(failed({ kind: 'unknown_model', model: 'x', available: ['a', 'b'] })).details,
    ['the server has: a, b'],
  );
});

test('a round trip that fails after prepare keeps what prepare found and words the failure', () => {
  const verdict = modelVerdict(
    facts({
      state: 'ready',
      info: { server: 'ollama', model: 'q', contextTokens: 8192, contextSource: '/api/ps context_length' },
      roundTrip: { ok: false, failure: { kind: 'timeout', which: 'idle', ms: 5000 } },
    }),
  );
  assert.equal(verdict.status, 'warn');
  assert.match(verdict.summary, /^ollama at .*: model q, context 8192 tokens/);
  assert.match(verdict.details[0] ?? '', /^round trip failed: .*did not answer within 5000 ms/);
  assert.notEqual(verdict.fix, null);
});

test('a replay model is named with the number of its replies', () => {
  const verdict = modelVerdict(facts({ state: 'replay', file: '/w/script.jsonl', replies: 3 }));
  assert.equal(verdict.status, 'ok');
  assert.equal(verdict.summary, 'replay model /w/script.jsonl (3 replies)');
});
