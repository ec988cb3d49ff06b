/**
 * splice returns only the lines that change; put back into the file they must give exactly
 * what splicing the whole file gave before (the reference below is that code, kept verbatim),
 * line terminators and a missing final newline included.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { identityIndent } from './indent.js';
import { searchToReplaceOps, splice, type Alignment } from './splice.js';
import type { TextFile } from './text-file.js';

const params = {
  seed: Number(globalThis.process.env['FC_SEED'] ?? 20261203),
  numRuns: 400,
  includeErrorInReport: true,
};

/** The whole-file splice this replaces (without its elision and indentation refusals, not generated here). */
function referenceSplice(
  file: TextFile,
  alignment: Alignment,
  search: readonly string[],
  replace: readonly string[],
): TextFile {
  const ops = searchToReplaceOps(search, replace, false);
  const lines: string[] = [];
  const eols: string[] = [];
  const keep = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      lines.push(file.lines[i] ?? '');
      eols.push(file.eols[i] ?? file.eol);
    }
  };
  keep(0, alignment.start);
  let cursor = alignment.start;
  let previousDropped = false;
  for (const op of ops) {
    if (op.kind === 'add') {
      lines.push(op.text);
      eols.push(file.eol);
      continue;
    }
    const [from, to] = alignment.spans[op.search] ?? [cursor, cursor];
    const dropped = op.kind === 'drop';
    if (from > cursor && !(dropped && previousDropped)) keep(cursor, from);
    if (!dropped) keep(from, to);
    cursor = Math.max(cursor, to);
    previousDropped = dropped;
  }
  keep(cursor, alignment.end);
  keep(alignment.end, file.lines.length);
  const hadFinalNewline = file.lines.length === 0 || file.eols[file.eols.length - 1] !== '';
  for (let i = 0; i < eols.length - 1; i++) if (eols[i] === '') eols[i] = file.eol;
  if (eols.length > 0) eols[eols.length - 1] = hadFinalNewline ? eols[eols.length - 1] || file.eol : '';
  return { ...file, lines, eols };
}

const line = fc.constantFrom('a', 'b', 'c', '', '}');
const caseArb = fc
  .record({
    lines: fc.array(line, { minLength: 1, maxLength: 12 }),
    crlf: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    finalNewline: fc.boolean(),
    picks: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    first: fc.nat(),
    replace: fc.array(line, { maxLength: 5 }),
  })
  .map(({ lines, crlf, finalNewline, picks, first, replace }) => {
    const eols = lines.map((_, i) =>
      i === lines.length - 1 && !finalNewline ? '' : crlf[i] === true ? '\r\n' : '\n',
    );
    const file: TextFile = { lines, eols, eol: crlf[0] === true ? '\r\n' : '\n', bom: false };
    // SEARCH: some of the file's lines from `start` on, in order; the ones skipped are blank-line drift.
    const start = first % lines.length;
    const positions = lines.flatMap((_, i) => (i === start || (i > start && picks[i] === true) ? [i] : []));
    const search = positions.map((p) => lines[p] ?? '');
    const spans = positions.map((p): [number, number] => [p, p + 1]);
    const alignment: Alignment = {
      start,
      end: (positions.at(-1) ?? start) + 1,
      spans,
      indent: identityIndent,
    };
    return { file, alignment, search, replace };
  });

test('the spliced region put back into the file is the whole-file splice, terminators included', () => {
  fc.assert(
    fc.property(caseArb, ({ file, alignment, search, replace }) => {
      const result = splice(file, alignment, search, replace, false);
      assert.ok(result.ok);
      const { region } = result;
      const lines = [...file.lines.slice(0, region.start), ...region.lines, ...file.lines.slice(region.end)];
      const eols = [...file.eols.slice(0, region.start), ...region.eols, ...file.eols.slice(region.end)];
      const expected = referenceSplice(file, alignment, search, replace);
      assert.deepEqual({ lines, eols }, { lines: expected.lines, eols: expected.eols });
    }),
    params,
  );
});
