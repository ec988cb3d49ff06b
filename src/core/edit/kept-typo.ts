/**
 * A typo in a line the block does not change. A model that copies SEARCH by hand slips on a
 * short name (`nmae = user.name` for `name = user.name`) and copies the slip into REPLACE, since
 * it keeps the line. The fuzzy rung does not take `nmae` for `name` (names shorter than six
 * letters have no typo budget there: `getX`/`getY`, `ab`/`ba` are different names), so the
 * block failed although every line it changes matches one place exactly. The line is context:
 * splice.ts writes the file's own version of it, never the model's, so accepting the slip
 * changes where the edit goes, never what it writes.
 *
 * Part of the `fuzzy` rung, tried when the token-level fuzzy match found nothing. The limits
 * (README "How edits are matched"):
 * - only lines that SEARCH and REPLACE share word for word (kept lines) may differ from the
 *   file; every other non-blank SEARCH line, every line the block changes above all, matches
 *   its file line exactly (up to indentation), so a different name in a changed line is
 *   never taken for a typo;
 * - a kept line differs only in one or two names, each at least MIN_NAME characters long and
 *   within one edit (a swap of two neighbours counts as one; two edits from eight characters),
 *   with the same digits, and not two names that differ only in their last character
 *   (`handler1`/`handler2`); or it is what the fuzzy rung calls a typo (`;` or `,` missing);
 * - at most typoBudget(lines) such lines (one in up to seven lines, two from eight);
 * - at least MIN_ANCHORS exact lines, which on their own are big enough to name a place
 *   (weak-search.ts): a typo line is never the only line, nor next to a lone `}`;
 * - the window must be the only one in the file that matches (match.ts).
 */
import { editDistance } from '../../shared/text.js';
import { candidateStarts, relateLines, tokenize, typoBudget, windowAlignment } from './fuzzy.js';
import { nonBlankLines } from './trimmed-lines.js';
import { searchToReplaceOps, type Alignment } from './splice.js';
import type { TextFile } from './text-file.js';
import { isWeakSearch } from './weak-search.js';

/** Shortest name that may be a typo of another in a kept line. */
export const MIN_NAME = 3;
/** Exact lines a window needs besides its typo lines. */
export const MIN_ANCHORS = 2;

const NAME = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** Whether two names in a kept line differ only by a slip of the keyboard. */
function isNameSlip(a: string, b: string): boolean {
  if (!NAME.test(a) || !NAME.test(b)) return false;
  const length = Math.min(a.length, b.length);
  if (length < MIN_NAME) return false;
  if (a.replace(/\D/g, '') !== b.replace(/\D/g, '')) return false;
  if (a.length === b.length && a.slice(0, -1) === b.slice(0, -1)) return false;
  const allowed = length >= 8 ? 2 : 1;
  return editDistance(a, b, allowed) <= allowed;
}

/** Whether a kept SEARCH line may stand for this file line (it is not equal to it). */
export function isKeptTypo(model: string, file: string): boolean {
  if (relateLines(model, file) === 'typo') return true;
  const a = tokenize(model.trim());
  const b = tokenize(file.trim());
  if (a.length !== b.length) return false;
  let slips = 0;
  for (let i = 0; i < a.length; i++) {
    const ta = a[i] ?? '';
    const tb = b[i] ?? '';
    if (ta === tb) continue;
    if (!isNameSlip(ta, tb) || ++slips > 2) return false;
  }
  return slips > 0;
}

/** SEARCH lines that REPLACE keeps as they are. */
function keptLines(search: readonly string[], replace: readonly string[]): Set<number> {
  const kept = new Set<number>();
  for (const op of searchToReplaceOps(search, replace, false)) if (op.kind === 'keep') kept.add(op.search);
  return kept;
}

/** Every place where SEARCH matches with typos in kept lines only, within the limits above. */
export function keptTypoMatch(
  file: TextFile,
  search: readonly string[],
  replace: readonly string[],
  units: () => { model: string | undefined; file: string | undefined },
): Alignment[] {
  const modelIdx = search.flatMap((line, i) => (line.trim() === '' ? [] : [i]));
  if (modelIdx.length < MIN_ANCHORS + 1) return [];
  const kept = keptLines(search, replace);
  if (!modelIdx.some((i) => kept.has(i))) return [];
  const model = modelIdx.map((i) => search[i] ?? '');
  const budget = typoBudget(model.length);
  const view = nonBlankLines(file);
  const found: Alignment[] = [];
  for (const start of candidateStarts(file, model, budget)) {
    const anchors: string[] = [];
    let typos = 0;
    for (let k = 0; k < model.length && typos <= budget; k++) {
      const line = model[k] ?? '';
      const fileLine = file.lines[view.index[start + k] ?? 0] ?? '';
      if (line.trim() === fileLine.trim()) anchors.push(line);
      else if (kept.has(modelIdx[k] ?? -1) && isKeptTypo(line, fileLine)) typos++;
      else typos = budget + 1;
    }
    if (typos === 0 || typos > budget || anchors.length < MIN_ANCHORS || isWeakSearch(anchors)) continue;
    const alignment = windowAlignment(file, search, modelIdx, start, units);
    if (alignment !== null) found.push(alignment);
  }
  return found;
}
