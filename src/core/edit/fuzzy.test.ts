/**
 * The fuzzy rung looks for a one-line SEARCH only among lines shaped like it (skeleton): that
 * must never hide a line that relateLines calls the same or a typo.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { relateLines, skeleton } from './fuzzy.js';

const params = {
  seed: Number(globalThis.process.env['FC_SEED'] ?? 20261204),
  numRuns: 3000,
  includeErrorInReport: true,
};

const token = fc.constantFrom(
  'receive',
  'recieve',
  'addUser',
  'adUser',
  'total',
  'totl',
  'item1',
  'item2',
  '42',
  '7',
  '=',
  '(',
  ')',
  ';',
  ',',
  '.',
  '+',
  'café',
  'cafe',
);
const lineArb = fc.array(token, { minLength: 1, maxLength: 6 }).chain((tokens) =>
  fc.record({
    a: fc.constant(tokens),
    // The other line: the same tokens, some swapped for another token, some `;` `,` added or dropped.
    edits: fc.array(
      fc.record({ at: fc.nat(), kind: fc.constantFrom('swap', 'insert', 'drop'), with: token }),
      { maxLength: 3 },
    ),
    spaced: fc.boolean(),
  }),
);

test('a line the same as or a typo of another has its skeleton', () => {
  fc.assert(
    fc.property(lineArb, ({ a, edits, spaced }) => {
      const b = [...a];
      for (const edit of edits) {
        const at = edit.at % (b.length + 1);
        if (edit.kind === 'insert') b.splice(at, 0, edit.with);
        else if (edit.kind === 'drop') b.splice(at, 1);
        else b[Math.min(at, b.length - 1)] = edit.with;
      }
      const join = (tokens: string[]) => tokens.join(spaced ? ' ' : '');
      const left = a.join(' ');
      const right = join(b);
      if (relateLines(left, right) !== 'different')
        assert.equal(skeleton(left), skeleton(right), `${left} | ${right}`);
    }),
    params,
  );
});
