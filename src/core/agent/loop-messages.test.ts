import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ModelMessage } from '../ports/model.js';
import { FakeClock } from '../testing/fake-model.js';
import { FakeTools, GOOD_PLAN, ofType, runScript as run, stopOf } from '../testing/fake-agent.js';

describe('the agent loop’s messages', () => {
  test('every request extends the previous one byte for byte', async () => {
    const { model, outcome } = await run([
      '<read_file><path>a.ts</path></read_file>',
      'Thinking aloud, no call.',
      '<read_files><path>a.ts</path></read_files>',
      '<submit_plan><plan>no steps</plan></submit_plan>',
      '<list_files/>',
      GOOD_PLAN,
    ]);
    assert.ok(outcome.ok);
    assert.equal(model.requests.length, 6);
    for (let n = 1; n < model.requests.length; n++) {
      const before = model.requests[n - 1]?.messages ?? [];
      const now = model.requests[n]?.messages ?? [];
      assert.deepEqual(now.slice(0, before.length), before, `request ${n} starts with request ${n - 1}`);
      assert.equal(now.length, before.length + 2);
    }
    const first = model.requests[0]?.messages as ModelMessage[];
    assert.deepEqual(first, [
      { role: 'system', content: 'SYSTEM PROMPT' },
      { role: 'user', content: 'Task: fix it.' },
    ]);
    assert.equal(
      model.requests[1]?.messages[2]?.content,
      '<read_file><path>a.ts</path></read_file>',
      'the reply verbatim',
    );
  });

  test('when the budget runs out the oldest results are dropped first, and the model is told', async () => {
    const big = (name: string) => `${name}:${'x'.repeat(1996)}`; // 2000 characters: 500 tokens
    const tools = new FakeTools((call) =>
      call.tool === 'read_file' ? { ok: true, forModel: big(call.input.path), forUser: 'read' } : undefined,
    );
    const read = (path: string) => `<read_file><path>${path}</path></read_file>`;
    const { model, events, outcome } = await run(
      [read('a.ts'), read('b.ts'), read('c.ts'), '<list_files/>', GOOD_PLAN],
      {
        tools,
        contextTokens: 1800,
        replyReserveTokens: 300,
      },
    );
    assert.ok(outcome.ok);
    const trimmed = ofType(events, 'context_trimmed');
    assert.equal(trimmed.length, 1);
    const at = (trimmed[0]?.iteration ?? 0) - 1;
    const messages = model.requests[at]?.messages ?? [];
    const all = messages.map((message) => message.content).join('\n');
    assert.match(
      all,
      /\[result of read_file a\.ts dropped to fit the context: call it again if you need it\]/,
    );
    assert.ok(!all.includes('a.ts:xxx'), 'the oldest result is gone');
    assert.ok(all.includes('c.ts:xxx'), 'the newest result is kept');
    assert.match(messages.at(-1)?.content ?? '', /the results? of read_file a\.ts.* were replaced by a stub/);
    for (const request of model.requests)
      assert.ok(request.promptTokensEstimate + 300 <= 1800, `${request.promptTokensEstimate} fits`);
    assert.equal(trimmed[0]?.promptTokensEstimate, model.requests[at]?.promptTokensEstimate);
    for (let n = at + 1; n < model.requests.length; n++) {
      const before = model.requests[n - 1]?.messages ?? [];
      const after = model.requests[n]?.messages.slice(0, before.length);
      assert.deepEqual(after, before, `after the trim, request ${n} extends request ${n - 1} again`);
    }
    assert.ok(at + 1 < model.requests.length, 'a request followed the trim');
  });

  test('a conversation that cannot fit even without results stops before sending it', async () => {
    const { outcome, model } = await run([GOOD_PLAN], { contextTokens: 1000, replyReserveTokens: 999 });
    // 13 + 13 characters: 4 + 4 tokens, and 5 of template per message.
    assert.deepEqual(stopOf(outcome), {
      kind: 'context_full',
      promptTokensEstimate: 18,
      contextTokens: 1000,
    });
    assert.equal(model.requests.length, 0);
  });

  test('a long result is cut at the byte cap on a character boundary, with how to read on', async () => {
    const tools = new FakeTools(() => ({ ok: true, forModel: 'é'.repeat(200), forUser: 'read' }));
    const { told, events } = await run(['<read_file><path>a.ts</path></read_file>', GOOD_PLAN], {
      tools,
      limits: { maxToolResultBytes: 200 },
    });
    const body = /fence=\w+\]\]\n([^]*)\[\[\/tool_result/.exec(told(1))?.[1] ?? '';
    assert.ok(new TextEncoder().encode(body.trimEnd()).length <= 200, 'within the cap');
    assert.ok(!body.includes('\uFFFD'), 'no character cut in half');
    assert.match(body, /^é+\n\[output cut at 200 of 400 bytes\. Read on with <read_file> and an <offset>/);
    assert.deepEqual(
      ofType(events, 'tool_result')
        .filter((event) => event.tool === 'read_file')
        .map((event) => [event.bytes, event.truncated]),
      [[400, true]],
    );
  });

  test('an empty result is said, not left silent', async () => {
    const tools = new FakeTools(() => ({ ok: true, forModel: '', forUser: 'ran' }));
    const { told } = await run(
      ['<run_command>true</run_command>', '<attempt_completion><result>ok</result></attempt_completion>'],
      {
        mode: 'act',
        tools,
      },
    );
    assert.match(told(1), /\]\]\n\(no output: the command printed nothing\)\n\[\[\/tool_result/);
  });

  test('the stream is passed on throttled, whole, with retries and the turn’s counts', async () => {
    const clock = new FakeClock();
    const pieces = Array.from({ length: 10 }, (_, n) => (n === 0 ? '<list_files/>' : ` w${n}`));
    const reply = pieces.join('');
    const { events } = await run([{ reply, pieces, retries: 1, promptTokens: 40 }, GOOD_PLAN], {
      clock,
      model: { msPerPiece: 30 },
    });
    const streamed = ofType(events, 'model_streaming').filter((event) => event.iteration === 1);
    assert.equal(streamed.map((event) => event.text).join(''), reply, 'every piece, once');
    assert.ok(streamed.length >= 3 && streamed.length <= 5, `${streamed.length} events for 300 ms`);
    assert.equal(streamed.at(-1)?.tokens, 10);
    assert.deepEqual(ofType(events, 'model_retrying')[0], {
      type: 'model_retrying',
      iteration: 1,
      attempt: 1,
      delayMs: 10,
      reason: 'HTTP 503 (loading model)',
    });
    const turn = ofType(events, 'model_turn')[0];
    assert.equal(turn?.promptTokens, 40);
    assert.equal(turn?.evalTokens, 10);
    assert.equal(turn?.durationMs, 300);
  });
});
