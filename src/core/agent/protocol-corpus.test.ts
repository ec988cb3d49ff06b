/**
 * The protocol corpus (test/fixtures/protocol/): replies shaped like local models' and what the
 * parser and the checks must make of them. A case is `NN-name.reply.md` (the reply, byte for
 * byte) and `NN-name.expect.json`: the mode, the calls that must be accepted in order, and a
 * piece (or pieces) of what the model is told for each rejected call or unreadable reply, in order (rejected
 * calls first, then the reply's problems). A later grammar must accept every valid case too.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { checkCall, describeProblem } from './check-call.js';
import { parseCalls } from './parse-calls.js';

/** dist/src/core/agent/protocol-corpus.test.js → <repo>/test/fixtures/protocol/ */
const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/protocol/', import.meta.url));

const expectSchema = z.strictObject({
  description: z.string(),
  mode: z.enum(['plan', 'act']),
  calls: z.array(z.strictObject({ tool: z.string(), input: z.record(z.string(), z.unknown()) })),
  /** Per rejection, one piece of what the model is told, or several. */
  rejected: z.array(z.union([z.string(), z.array(z.string())])),
});

const names = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.reply.md'))
  .map((file) => file.slice(0, -'.reply.md'.length))
  .sort();

describe('protocol corpus', () => {
  test('holds at least 30 cases, valid and malformed', () => {
    assert.ok(names.length >= 30, `${names.length} cases`);
  });

  for (const name of names) {
    const expect = expectSchema.parse(JSON.parse(readFileSync(`${FIXTURES}${name}.expect.json`, 'utf8')));
    test(`${name}: ${expect.description}`, () => {
      const reply = readFileSync(`${FIXTURES}${name}.reply.md`, 'utf8');
      const parsed = parseCalls(reply);
      const checked = parsed.calls.map((call) => checkCall(call, expect.mode));
      const accepted = checked.flatMap((c) => (c.ok ? [c.call] : []));
      const told = [
        ...checked.flatMap((c) => (c.ok ? [] : [c.forModel])),
        ...parsed.problems.map((p) => describeProblem(p, expect.mode).forModel),
      ];
      assert.deepEqual(accepted, expect.calls);
      assert.equal(told.length, expect.rejected.length, `told the model:\n${told.join('\n')}`);
      expect.rejected.forEach((pieces, i) => {
        for (const piece of [pieces].flat())
          assert.ok(told[i]?.includes(piece), `"${piece}" not in:\n${told[i]}`);
      });
    });
  }
});
