import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelReply } from '../../core/ports/model.js';
import { errorMessage, overflowFailure, settleReply } from './classify.js';

test('overflow is recognised in each server wording, and other errors are not', () => {
  const cases: [string, unknown, number | null, number | null][] = [
    [
      'llama-server',
      {
        error: {
          type: 'exceed_context_size_error',
          message: 'request (5000 tokens) exceeds…',
          n_ctx: 4096,
          n_prompt_tokens: 5000,
        },
      },
      4096,
      5000,
    ],
    [
      'vllm',
      { message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens" },
      8192,
      9000,
    ],
    ['ollama', { error: 'the input length exceeds the context length' }, null, null],
    [
      'lm-studio',
      { error: 'the model is loaded with context length of only 4096 tokens, which is not enough' },
      4096,
      null,
    ],
    ['lm-studio', { error: 'Context length exceeded' }, null, null],
  ];
  for (const [server, body, contextTokens, promptTokens] of cases) {
    const failure = overflowFailure(server as 'vllm', JSON.stringify(body));
    assert.deepEqual(
      failure === null
        ? null
        : [
            failure.kind,
            'contextTokens' in failure && failure.contextTokens,
            'promptTokens' in failure && failure.promptTokens,
          ],
      ['overflow', contextTokens, promptTokens],
      server,
    );
  }
  assert.equal(overflowFailure('ollama', JSON.stringify({ error: 'model "x" not found' })), null);
  assert.equal(overflowFailure('openai-compatible', 'Internal Server Error'), null);
});

test('the server message is found in each error shape', () => {
  assert.equal(errorMessage('{"error":"plain"}'), 'plain');
  assert.equal(errorMessage('{"error":{"message":"nested"}}'), 'nested');
  assert.equal(errorMessage('{"object":"error","message":"vllm"}'), 'vllm');
  assert.equal(errorMessage('  Bad Gateway \n'), 'Bad Gateway');
});

function reply(extra: Partial<ModelReply>): ModelReply {
  return {
    text: 'x',
    finishReason: 'stop',
    promptTokens: null,
    cachedPromptTokens: null,
    evalTokens: null,
    timings: { totalMs: 1, firstTokenMs: 1, promptMs: null, evalMs: null },
    tokensPerSecond: null,
    ...extra,
  };
}

test('truncation needs a large shortfall on a prompt big enough to judge; an unreported count passes', () => {
  assert.equal(settleReply(reply({ promptTokens: 499 }), 1000).ok, false);
  assert.equal(settleReply(reply({ promptTokens: 500 }), 1000).ok, true);
  assert.equal(settleReply(reply({ promptTokens: 20 }), 200).ok, true);
  assert.equal(settleReply(reply({ promptTokens: null }), 100_000).ok, true);
  // A server that counts only what it processed anew: the cached part is the rest of the prompt.
  assert.equal(settleReply(reply({ promptTokens: 40, cachedPromptTokens: 960 }), 1000).ok, true);
  assert.equal(settleReply(reply({ promptTokens: 40, cachedPromptTokens: 100 }), 1000).ok, false);
  const cut = settleReply(reply({ promptTokens: 100, finishReason: 'length' }), 1000);
  assert.equal(cut.ok ? '' : cut.failure.kind, 'truncated_prompt');
});
