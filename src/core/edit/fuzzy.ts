/**
 * The last rung: a bounded fuzzy match for SEARCH text with a typo or two. It is deliberately
 * narrow. Lines are compared as tokens, never as characters, so a line counts as "a typo of"
 * another only when every token is equal except an identifier that differs by a slip of the
 * keyboard (recieve/receive, adUser/addUser) or a missing `;` or `,`. A different name
 * (getX/getY, calculateTax/calculateDiscount), a different number, operator or string is a
 * different line. Only a few lines of a window may be typos, and the rest must be equal.
 */
import { editDistance } from '../../shared/text.js';
import { findIndentTransform } from './indent.js';
import {
  lineView,
  nonBlankLines,
  trimmedPositions,
  type LineView,
  type NonBlankLines,
} from './trimmed-lines.js';
import type { Alignment } from './splice.js';
import type { TextFile } from './text-file.js';

export type LineRelation = 'same' | 'typo' | 'different';

const TOKEN = /[\p{L}_$][\p{L}\p{N}_$]*|\p{N}[\p{L}\p{N}_.]*|\S/gu;
const WORD = /^[\p{L}_$]/u;
const SOFT_PUNCTUATION = new Set([';', ',']);

export function tokenize(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

/** Whether two identifiers differ only by a typo. */
export function isTypo(a: string, b: string): boolean {
  if (a === b) return true;
  if (!WORD.test(a) || !WORD.test(b)) return false;
  const length = Math.min(a.length, b.length);
  const allowed = length >= 10 ? 2 : length >= 6 ? 1 : 0;
  if (allowed === 0) return false;
  if (a.replace(/\D/g, '') !== b.replace(/\D/g, '')) return false;
  // Names that differ only in their last character (itemA/itemB, handler1/handler2) are different names.
  if (a.length === b.length && a.slice(0, -1) === b.slice(0, -1)) return false;
  return editDistance(a, b, allowed) <= allowed;
}

/** Token alignment cost between two lines; Infinity when they are different lines. */
function tokenCost(a: readonly string[], b: readonly string[]): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const dp = new Float64Array(rows * cols).fill(Number.POSITIVE_INFINITY);
  dp[0] = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const here = dp[i * cols + j] ?? Number.POSITIVE_INFINITY;
      if (here === Number.POSITIVE_INFINITY) continue;
      const ta = a[i];
      const tb = b[j];
      if (ta !== undefined && tb !== undefined) {
        const cost = ta === tb ? 0 : isTypo(ta, tb) ? 1 : Number.POSITIVE_INFINITY;
        const k = (i + 1) * cols + j + 1;
        if (here + cost < (dp[k] ?? Number.POSITIVE_INFINITY)) dp[k] = here + cost;
      }
      if (ta !== undefined && SOFT_PUNCTUATION.has(ta)) {
        const k = (i + 1) * cols + j;
        if (here + 1 < (dp[k] ?? Number.POSITIVE_INFINITY)) dp[k] = here + 1;
      }
      if (tb !== undefined && SOFT_PUNCTUATION.has(tb)) {
        const k = i * cols + j + 1;
        if (here + 1 < (dp[k] ?? Number.POSITIVE_INFINITY)) dp[k] = here + 1;
      }
    }
  }
  return dp[rows * cols - 1] ?? Number.POSITIVE_INFINITY;
}

/** How a model's line relates to a file line. */
export function relateLines(model: string, file: string): LineRelation {
  const a = model.trim();
  const b = file.trim();
  if (a === b) return 'same';
  if (Math.abs(a.length - b.length) > 6) return 'different';
  const ta = tokenize(a);
  const tb = tokenize(b);
  if (ta.length === tb.length && ta.every((t, i) => t === tb[i])) return 'same';
  return tokenCost(ta, tb) <= 2 ? 'typo' : 'different';
}

/** How many lines of a window of `m` may be typos. */
export function typoBudget(m: number): number {
  return Math.max(1, Math.floor(m / 4));
}

/**
 * A line with its names blanked out and `;` `,` dropped. A line is the same as or a typo of
 * another only if their skeletons are equal: tokenCost pairs every other token with an equal
 * one, and a typo only pairs two names.
 */
export function skeleton(line: string): string {
  return tokenize(line)
    .filter((token) => !SOFT_PUNCTUATION.has(token))
    .map((token) => (WORD.test(token) ? '\u0000' : token))
    .join('\u0001');
}

const skeletons = new WeakMap<LineView, Map<string, number[]>>();

/** Positions in the view of the lines with this skeleton, ascending; built once per view. */
function skeletonPositions(view: LineView, wanted: string): number[] {
  let index = skeletons.get(view);
  if (index === undefined) {
    index = new Map();
    for (const [p, key] of view.keys.entries()) {
      const k = skeleton(key);
      const list = index.get(k);
      if (list) list.push(p);
      else index.set(k, [p]);
    }
    skeletons.set(view, index);
  }
  return index.get(wanted) ?? [];
}

/** Window starts (in the non-blank view) worth checking: enough lines equal after trimming. */
export function candidateStarts(file: TextFile, model: readonly string[], budget: number): number[] {
  const nonBlank = nonBlankLines(file);
  // The fuzzy rung asks twice for the same SEARCH (fuzzyMatch, then kept-typo.ts): count the votes once.
  const key = `${String(budget)}\u0000${model.join('\u0000')}`;
  const last = lastStarts.get(nonBlank);
  if (last?.key === key) return last.starts;
  const starts = computeStarts(file, nonBlank, model, budget);
  lastStarts.set(nonBlank, { key, starts });
  return starts;
}

/** The last SEARCH's window starts per file state (its non-blank lines are found again when it changes). */
const lastStarts = new WeakMap<NonBlankLines, { key: string; starts: number[] }>();

function computeStarts(
  file: TextFile,
  nonBlank: NonBlankLines,
  model: readonly string[],
  budget: number,
): number[] {
  const m = model.length;
  const last = nonBlank.index.length - m;
  if (last < 0) return [];
  // A one-line SEARCH (budget 1) may be a typo of any line: only lines shaped like it can be, and
  // finding them by shape keeps a reply of many one-line blocks from scanning the file per block.
  if (m === 1) return skeletonPositions(lineView(file), skeleton(model[0] ?? ''));
  if (m <= budget) {
    const starts: number[] = [];
    for (let p = 0; p <= last; p++) starts.push(p);
    return starts;
  }
  // The file lines of each model line (trimmed-lines.ts), as positions among the non-blank lines:
  // a map of every line of the view, built per SEARCH, cost more than the rest of the rung.
  const positions = trimmedPositions(
    file,
    model.map((line) => line.trim()),
  );
  // Votes per window start in an array, read in order: short common lines (`}`, `return result;`)
  // vote for a start in every function, and a map of those grew with the file.
  const votes = new Int32Array(last + 1);
  model.forEach((_, k) => {
    for (const fileLine of positions[k] ?? []) {
      const p = nonBlank.position[fileLine] ?? -1;
      if (p === -1) continue;
      const start = p - k;
      if (start >= 0 && start <= last) votes[start] = (votes[start] ?? 0) + 1;
    }
  });
  const starts: number[] = [];
  for (let start = 0; start <= last; start++) if ((votes[start] ?? 0) >= m - budget) starts.push(start);
  return starts;
}

/** Every place where the SEARCH's non-blank lines match the file's within the typo budget. */
export function fuzzyMatch(
  file: TextFile,
  search: readonly string[],
  /** The indentation units of the model's text and of the file: asked only for a window that matches (detecting the file's scans it). */
  units: () => { model: string | undefined; file: string | undefined },
): Alignment[] {
  const modelIdx = search.flatMap((line, i) => (line.trim() === '' ? [] : [i]));
  const model = modelIdx.map((i) => search[i] ?? '');
  const budget = typoBudget(model.length);
  const view = nonBlankLines(file);
  const found: Alignment[] = [];
  for (const start of candidateStarts(file, model, budget)) {
    let typos = 0;
    for (let k = 0; k < model.length && typos <= budget; k++) {
      const relation = relateLines(model[k] ?? '', file.lines[view.index[start + k] ?? 0] ?? '');
      if (relation === 'different') typos = budget + 1;
      else if (relation === 'typo') typos++;
    }
    if (typos === 0 || typos > budget) continue;
    const alignment = windowAlignment(file, search, modelIdx, start, units);
    if (alignment !== null) found.push(alignment);
  }
  return found;
}

/**
 * The alignment of SEARCH's non-blank lines (`modelIdx`) onto the window of the file's non-blank
 * lines that begins at `start`; null when no uniform re-indentation maps one onto the other.
 */
export function windowAlignment(
  file: TextFile,
  search: readonly string[],
  modelIdx: readonly number[],
  start: number,
  units: () => { model: string | undefined; file: string | undefined },
): Alignment | null {
  const view = nonBlankLines(file);
  const spans: Array<[number, number]> = [];
  let cursor = view.index[start] ?? 0;
  let k = 0;
  search.forEach((_, i) => {
    if (modelIdx[k] === i) {
      const line = view.index[start + k] ?? cursor;
      spans.push([line, line + 1]);
      cursor = line + 1;
      k++;
    } else spans.push([cursor, cursor]);
  });
  const pairs = modelIdx.map((i, j) => ({
    model: search[i] ?? '',
    file: file.lines[view.index[start + j] ?? 0] ?? '',
  }));
  const { model: modelUnit, file: fileUnit } = units();
  const indent = findIndentTransform(pairs, modelUnit, fileUnit);
  if (indent === null) return null;
  return {
    start: view.index[start] ?? 0,
    end: (view.index[start + modelIdx.length - 1] ?? 0) + 1,
    spans,
    indent,
  };
}
