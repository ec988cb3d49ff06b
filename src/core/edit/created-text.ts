/**
 * A file that one block creates whole (an empty SEARCH), kept as a range of the reply until
 * something reads its lines: the block's REPLACE, then the planned file itself.
 *
 * Both look like the eager kinds (`EditVariant.replace`, and `TextFile.lines`/`eols` through
 * text-file.ts `rangeTextFile`, are enumerable properties, so spreads, JSON and deep equality see
 * plain arrays), but each read makes the lines anew and nothing keeps them: a reader takes the
 * array once and holds it while it works. The arrays are frozen, so an edit in place throws
 * instead of being lost at the next read; the planner edits only its own eager copy
 * (`eagerTextFile`).
 */
import type { LineRange } from './line-table.js';
import { rangeTextFile, type TextFile } from './text-file.js';
import type { EditVariant } from './types.js';

const variantRanges = new WeakMap<EditVariant, LineRange>();

/** The reading of a block that creates a file from `range`, with nothing to find. */
export function createVariant(range: LineRange): EditVariant {
  const variant = Object.defineProperty({ search: [] as string[] }, 'replace', {
    enumerable: true,
    get: () => range.lines(),
  }) as EditVariant;
  variantRanges.set(variant, range);
  return variant;
}

/** The file a variant creates: kept as its range when the parser made it so, else its own lines. */
export function createdTextFile(variant: EditVariant): TextFile {
  const range = variantRanges.get(variant);
  if (range !== undefined) return rangeTextFile(range);
  const lines = variant.replace;
  return { lines, eols: lines.map(() => '\n'), eol: '\n', bom: false };
}

/** How many lines a variant puts in, without reading a created file's lines. */
export function replaceCount(variant: EditVariant): number {
  return variantRanges.get(variant)?.count ?? variant.replace.length;
}
