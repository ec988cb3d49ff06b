import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FilePatch } from '../ports/review.js';
import { FakeModel } from '../testing/fake-model.js';
import { REVIEW_FRAME_TOKENS, runModelCheck, type ModelCheckInput } from './model-check.js';

/** A file of `lines` added lines, each 40 characters or so. */
function added(path: string, lines: number): FilePatch {
  const body = Array.from({ length: lines }, (_, i) => `+const value${i} = compute(${i}); // line`);
  return { path, text: `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines} @@\n${body.join('\n')}\n` };
}

const input = (patches: FilePatch[], extra: Partial<ModelCheckInput> = {}): ModelCheckInput => ({
  patches,
  contextTokens: 32768,
  blocksOn: 'none',
  model: 'fake',
  fence: 'Fence1234abcd',
  ...extra,
});

test('a change larger than the context is cut: the model is told, and so is the report', async () => {
  const model = new FakeModel(['warning a.ts:2: a finding on the part it saw']);
  // Room for a.ts (about 20 lines of 45 characters), not for b.ts as well.
  const budget = REVIEW_FRAME_TOKENS + 300;
  const outcome = await runModelCheck(
    model,
    input([added('a.ts', 20), added('b.ts', 20)], { contextBudgetTokens: budget }),
  );
  assert.ok(outcome.ok);
  assert.equal(outcome.result.status, 'passed');
  assert.deepEqual(
    outcome.result.findings.map((f) => f.file),
    ['a.ts'],
  );
  assert.ok(
    outcome.result.details?.includes("the change was cut to fit the model's context: it saw 1 of 2 files"),
  );
  const prompt = model.requests[0]?.messages.at(-1)?.content ?? '';
  assert.match(prompt, /1 of its 2 files are shown/);
  assert.doesNotMatch(prompt, /### b\.ts/);
  assert.ok((model.requests[0]?.promptTokensEstimate ?? Infinity) <= budget, 'the prompt fits the budget');
});

test('a reply stopped at the token limit keeps its findings and says what may be missing', async () => {
  const model = new FakeModel([{ reply: 'error a.ts:1: first\nerror a.ts:2: sec', finishReason: 'length' }]);
  const outcome = await runModelCheck(model, input([added('a.ts', 3)], { blocksOn: 'error' }));
  assert.ok(outcome.ok);
  assert.equal(outcome.result.status, 'failed');
  assert.equal(outcome.result.findings.length, 2);
  assert.ok(outcome.result.details?.some((d) => d.includes('stopped at the token limit')));
});

test('a failure of the model is returned for the caller to word; nothing to review asks nothing', async () => {
  const down = new FakeModel([{ failure: { kind: 'timeout', which: 'idle', ms: 120_000 } }]);
  assert.deepEqual(await runModelCheck(down, input([added('a.ts', 1)])), {
    ok: false,
    failure: { kind: 'timeout', which: 'idle', ms: 120_000 },
  });
  const idle = new FakeModel([]);
  const empty = await runModelCheck(idle, input([]));
  assert.ok(empty.ok);
  assert.equal(empty.result.status, 'skipped');
  assert.equal(idle.requests.length, 0);
});

test('each finding says what to do: a blocking one how to get past it, an advisory one why it does not block', async () => {
  const reply = 'error a.ts:1: a bug\nwarning a.ts:2: a smell';
  const strict = await runModelCheck(
    new FakeModel([reply]),
    input([added('a.ts', 3)], { blocksOn: 'error' }),
  );
  assert.ok(strict.ok);
  assert.equal(strict.result.status, 'failed');
  assert.deepEqual(
    strict.result.findings.map((f) => [f.severity, f.fix]),
    [
      [
        'error',
        'review.model_blocks_on is "error": fix it, or commit past the hook on purpose (AIDE_SKIP=model).',
      ],
      [
        'warning',
        'Advice: check it yourself; only error findings fail this check (review.model_blocks_on is "error").',
      ],
    ],
  );
  const advisory = await runModelCheck(new FakeModel([reply]), input([added('a.ts', 3)]));
  assert.ok(advisory.ok);
  assert.equal(advisory.result.status, 'passed');
  assert.deepEqual(
    advisory.result.findings.map((f) => f.fix),
    Array.from(
      { length: 2 },
      () =>
        'Advice: check it yourself; model findings never fail this check (review.model_blocks_on is "none").',
    ),
  );
});
