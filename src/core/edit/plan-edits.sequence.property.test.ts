/**
 * Many blocks against one file: the planner edits its own copy in place and keeps a content
 * index up to date (live-lines.ts). Whatever the blocks, the plan must be what planning them
 * one at a time gives, each against a fresh parse of the text the blocks before it left.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseResponse } from './parse-response.js';
import { planEdits, type BlockOutcome, type FileInput } from './plan-edits.js';
import { parseText, renderText } from './text-file.js';
import type { EditBlock } from './types.js';

const env = globalThis.process.env;
const params = {
  seed: Number(env['FC_SEED'] ?? 20261202),
  numRuns: Number(env['FC_RUNS'] ?? 150),
  includeErrorInReport: true,
};
const PATH = 'src/app.ts';

// Few distinct lines, so that SEARCH texts recur, collide and match what earlier blocks wrote;
// indentation and trailing-space variants reach the looser rungs.
const line = fc.constantFrom(
  'a();',
  '  a();',
  'a();  ',
  '\ta();',
  'b = 1;',
  '  b = 1;',
  '}',
  '',
  'return x;',
  '  return x;',
  'if (x) {',
);

const fileArb = fc.record({
  lines: fc.array(line, { maxLength: 40 }),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});

/** A block: SEARCH from the original file or from earlier blocks' new lines; REPLACE keeps some of it and adds new lines. */
const blockArb = fc.record({
  from: fc.nat(),
  length: fc.integer({ min: 1, max: 4 }),
  earlier: fc.boolean(),
  keep: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  addsBefore: fc.boolean(),
  extra: fc.array(line, { maxLength: 2 }),
  /** One block in four only drops lines: at the end of the file it reaches the last line's terminator. */
  deletes: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
});

type BlockSpec = typeof blockArb extends fc.Arbitrary<infer T> ? T : never;

function blockText(spec: BlockSpec, k: number, original: readonly string[]): string {
  const pool =
    spec.earlier && k > 0
      ? [...original.slice(0, 3), `new${spec.from % k};`, `new${(spec.from + 1) % k};`]
      : original;
  const start = pool.length === 0 ? 0 : spec.from % pool.length;
  const search = pool.length === 0 ? ['a();'] : pool.slice(start, start + spec.length);
  const kept = search.filter((_, i) => spec.keep[i] === true);
  const added = spec.deletes ? [] : [`new${k};`, ...spec.extra];
  const replace = spec.addsBefore ? [...added, ...kept] : [...kept, ...added];
  return `${PATH}\n<<<<<<< SEARCH\n${search.join('\n')}\n=======\n${replace.join('\n')}\n>>>>>>> REPLACE\n`;
}

function planOneAtATime(
  blocks: readonly EditBlock[],
  text: string,
): { outcomes: BlockOutcome[]; text: string } {
  let current = text;
  const outcomes: BlockOutcome[] = [];
  for (const block of blocks) {
    const plan = planEdits(
      [block],
      new Map<string, FileInput>([[PATH, { state: 'text', file: parseText(current) }]]),
    );
    outcomes.push(...plan.outcomes);
    const after = plan.changes[0]?.after;
    if (plan.ok && after !== undefined && after !== null) current = renderText(after);
  }
  return { outcomes, text: current };
}

test('N blocks planned together against one file give the plan of planning them one at a time', () => {
  fc.assert(
    fc.property(fileArb, fc.array(blockArb, { minLength: 1, maxLength: 40 }), (spec, specs) => {
      const eol = spec.crlf ? '\r\n' : '\n';
      const text = spec.lines.join(eol) + (spec.finalNewline && spec.lines.length > 0 ? eol : '');
      const response = specs.map((s, k) => blockText(s, k, spec.lines)).join('\n');
      const { blocks } = parseResponse(response);
      const file = parseText(text);
      const together = planEdits(blocks, new Map<string, FileInput>([[PATH, { state: 'text', file }]]));
      const alone = planOneAtATime(blocks, text);
      // A deletion whose SEARCH is gone counts as done only when the rest of the reply was
      // already applied (already-applied.ts): alone, it never is. That is not what this test is about.
      fc.pre(!together.outcomes.some((o) => o.ok && o.action === 'already-applied' && o.range === null));
      assert.deepEqual(together.outcomes, alone.outcomes);
      const after = together.changes[0]?.after;
      assert.equal(after === undefined ? text : after === null ? '' : renderText(after), alone.text);
      // The caller's file is never edited in place.
      assert.equal(renderText(file), text);
    }),
    params,
  );
});

test('a file with a line but the last lacking its terminator gets one at the first edit, as a whole-file splice gave it', () => {
  const file = { lines: ['a();', 'b = 1;', '}'], eols: ['', '\n', '\n'], eol: '\n' as const, bom: false };
  const { blocks } = parseResponse(`${PATH}\n<<<<<<< SEARCH\n}\n=======\n};\n>>>>>>> REPLACE\n`);
  const plan = planEdits(blocks, new Map<string, FileInput>([[PATH, { state: 'text', file }]]));
  assert.deepEqual(plan.changes[0]?.after?.eols, ['\n', '\n', '\n']);
  assert.deepEqual(file.eols, ['', '\n', '\n']);
});
