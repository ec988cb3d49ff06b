/**
 * The matching ladder: small named strategies tried from strictest to loosest. The first
 * strategy that finds the SEARCH decides; every strategy but `exact` must find exactly one
 * place, and "several places" stops the ladder (a looser strategy would only find more);
 * `exact` takes the first of several only for a SEARCH big enough to name a place.
 * A wrong edit is worse than a refused one.
 */
import { isElisionLine } from './elision.js';
import { fuzzyMatch } from './fuzzy.js';
import {
  detectIndentUnit,
  findIndentTransform,
  identityIndent,
  type IndentPair,
  type IndentTransform,
} from './indent.js';
import { keptTypoMatch } from './kept-typo.js';
import { findLineRuns, findLooseRuns, mayOccurTrimmed, type LooseKey } from './line-index.js';
import type { Alignment } from './splice.js';
import type { TextFile } from './text-file.js';
import { fileIndent, nonBlankLines } from './trimmed-lines.js';
import { isWeakSearch } from './weak-search.js';

export type StrategyName =
  'exact' | 'line-endings' | 'trailing-whitespace' | 'indentation' | 'blank-lines' | 'elision' | 'fuzzy';

export const STRATEGIES: readonly StrategyName[] = [
  'exact',
  'line-endings',
  'trailing-whitespace',
  'indentation',
  'blank-lines',
  'elision',
  'fuzzy',
];

export type MatchResult =
  | { kind: 'match'; strategy: StrategyName; alignment: Alignment; elisions: boolean }
  /** weak: an exact SEARCH too small to take its first occurrence for it (weak-search.ts). */
  | { kind: 'ambiguous'; strategy: StrategyName; lines: number[]; weak: boolean }
  | { kind: 'none' };

/** What one strategy found: alignments of every place it matched (in file order). */
type Found = Alignment[];

interface Context {
  file: TextFile;
  search: readonly string[];
  /** Indentation units of the model's text (SEARCH and REPLACE) and of the file. */
  modelUnit: string | undefined;
  fileUnit: string | undefined;
}

function hasCrlf(file: TextFile, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (file.eols[i] === '\r\n') return true;
  return false;
}

type Key = 'raw' | LooseKey;

const keyOf: Record<LooseKey, (line: string) => string> = {
  'trim-end': (line) => line.trimEnd(),
  trim: (line) => line.trim(),
};

/** Alignments for every run of the SEARCH's keys in the file. */
function runsByKey(
  ctx: Context,
  key: Key,
  skipBlank: boolean,
): { start: number; spans: Array<[number, number]> }[] {
  if (key === 'raw') {
    return findLineRuns(ctx.file, ctx.search).map((start) => ({
      start,
      spans: ctx.search.map((_, i): [number, number] => [start + i, start + i + 1]),
    }));
  }
  // A SEARCH line found nowhere even trimmed needs no looser search.
  if (!mayOccurTrimmed(ctx.file, ctx.search)) return [];
  const fn = keyOf[key];
  const searchIdx: number[] = [];
  ctx.search.forEach((line, i) => {
    if (!skipBlank || line.trim() !== '') searchIdx.push(i);
  });
  const needle = searchIdx.map((i) => fn(ctx.search[i] ?? ''));
  // File line of a position: positions count the non-blank lines only when they are skipped.
  const nonBlank = skipBlank ? nonBlankLines(ctx.file).index : undefined;
  const lineAt = (p: number): number | undefined => (nonBlank === undefined ? p : nonBlank[p]);
  return findLooseRuns(ctx.file, key, skipBlank, needle).map((p) => {
    const spans: Array<[number, number]> = [];
    let cursor = lineAt(p) ?? 0;
    let j = 0;
    ctx.search.forEach((_, i) => {
      if (searchIdx[j] === i) {
        const fileLine = lineAt(p + j) ?? cursor;
        spans.push([fileLine, fileLine + 1]);
        cursor = fileLine + 1;
        j++;
      } else {
        spans.push([cursor, cursor]);
      }
    });
    return { start: lineAt(p) ?? 0, spans };
  });
}

function alignmentOf(spans: Array<readonly [number, number]>, indent: IndentTransform): Alignment {
  const nonEmpty = spans.filter(([a, b]) => b > a);
  const start = nonEmpty[0]?.[0] ?? spans[0]?.[0] ?? 0;
  const end = nonEmpty.at(-1)?.[1] ?? start;
  return { start, end, spans, indent };
}

function pairsOf(ctx: Context, spans: ReadonlyArray<readonly [number, number]>): IndentPair[] {
  const pairs: IndentPair[] = [];
  spans.forEach(([a, b], i) => {
    const model = ctx.search[i] ?? '';
    if (b === a + 1 && !isElisionLine(model)) pairs.push({ model, file: ctx.file.lines[a] ?? '' });
  });
  return pairs;
}

function exactText(ctx: Context): Found {
  return runsByKey(ctx, 'raw', false).map((r) => alignmentOf(r.spans, identityIndent));
}

function trailingWhitespace(ctx: Context): Found {
  return runsByKey(ctx, 'trim-end', false).map((r) => alignmentOf(r.spans, identityIndent));
}

function reindented(ctx: Context, skipBlank: boolean): Found {
  const found: Found = [];
  for (const run of runsByKey(ctx, 'trim', skipBlank)) {
    const indent = findIndentTransform(pairsOf(ctx, run.spans), ctx.modelUnit, ctx.fileUnit);
    if (indent !== null) found.push(alignmentOf(run.spans, indent));
  }
  return found;
}

/** SEARCH with `...` lines: each run of real lines is found in order; the gaps stand for anything. */
function elided(ctx: Context): Found {
  const segments: number[][] = [[]];
  ctx.search.forEach((line, i) => {
    if (isElisionLine(line)) segments.push([]);
    else if (line.trim() !== '') segments.at(-1)?.push(i);
  });
  if (segments.length < 2) return [];
  if (
    !mayOccurTrimmed(
      ctx.file,
      segments.flat().map((i) => ctx.search[i] ?? ''),
    )
  )
    return [];
  const nonBlank = nonBlankLines(ctx.file).index;
  const runs = segments.map((seg) =>
    seg.length === 0
      ? null
      : findLooseRuns(
          ctx.file,
          'trim',
          true,
          seg.map((i) => (ctx.search[i] ?? '').trim()),
        ),
  );
  const firstReal = runs.findIndex((r) => r !== null);
  if (firstReal === -1) return [];
  const found: Found = [];
  for (const firstStart of runs[firstReal] ?? []) {
    const placed: number[] = [];
    let position = firstStart;
    let ok = true;
    for (let s = firstReal; s < segments.length && ok; s++) {
      const segRuns = runs[s];
      if (segRuns === null || segRuns === undefined) continue;
      const next = segRuns.find((p) => p >= position);
      if (next === undefined) ok = false;
      else {
        placed[s] = next;
        position = next + (segments[s]?.length ?? 0);
      }
    }
    if (!ok) continue;
    const spans = elisionSpans(ctx, segments, placed, nonBlank);
    const indent = findIndentTransform(pairsOf(ctx, spans), ctx.modelUnit, ctx.fileUnit);
    if (indent !== null) found.push(alignmentOf(spans, indent));
  }
  return found;
}

function elisionSpans(
  ctx: Context,
  segments: number[][],
  placed: number[],
  index: readonly number[],
): Array<[number, number]> {
  const fileLineOf = new Map<number, number>();
  segments.forEach((seg, s) => {
    seg.forEach((searchLine, k) => {
      fileLineOf.set(searchLine, index[(placed[s] ?? 0) + k] ?? 0);
    });
  });
  const spans: Array<[number, number]> = [];
  let cursor = -1;
  ctx.search.forEach((line, i) => {
    const fileLine = fileLineOf.get(i);
    if (fileLine !== undefined) {
      spans.push([fileLine, fileLine + 1]);
      cursor = fileLine + 1;
      return;
    }
    // An elision stretches to the next matched line; a leading one is empty.
    let next = cursor === -1 ? -1 : cursor;
    for (let j = i + 1; j < ctx.search.length; j++) {
      const target = fileLineOf.get(j);
      if (target !== undefined) {
        next = target;
        break;
      }
    }
    const from = cursor === -1 ? next : cursor;
    const to = isElisionLine(line) && cursor !== -1 ? Math.max(from, next) : from;
    spans.push([from, to]);
  });
  return spans;
}

/** Of several exact occurrences: the first, or the one nearest a diff hunk's stated line. */
function pickOccurrence(found: Found, lineHint: number | undefined): Alignment | undefined {
  if (lineHint === undefined) return found[0];
  let best = found[0];
  for (const candidate of found) {
    if (best === undefined || Math.abs(candidate.start + 1 - lineHint) < Math.abs(best.start + 1 - lineHint))
      best = candidate;
  }
  return best;
}

/** An exact match; named for its line endings when they differ from the model's LF. */
function exactMatch(file: TextFile, alignment: Alignment): MatchResult {
  const crlf = file.eol === '\r\n' || hasCrlf(file, alignment.start, alignment.end);
  return { kind: 'match', strategy: crlf ? 'line-endings' : 'exact', alignment, elisions: false };
}

/** The fuzzy rung: typos in any line (fuzzy.ts), else short-name slips in kept lines only (kept-typo.ts). */
function fuzzyOrKeptTypo(
  file: TextFile,
  search: readonly string[],
  replace: readonly string[],
  units: () => { model: string | undefined; file: string | undefined },
): Found {
  const found = fuzzyMatch(file, search, units);
  return found.length > 0 ? found : keptTypoMatch(file, search, replace, units);
}

/** How far down the ladder to go, and whether `exact` may take the first of several occurrences. */
export interface MatchOptions {
  lineHint?: number;
  /** Every rung must find exactly one place, `exact` too; `elision` and `fuzzy` are not tried. */
  strict?: boolean;
}

/** Runs the ladder for one SEARCH (non-empty, not all blank) against a file. */
export function matchSearch(
  file: TextFile,
  search: readonly string[],
  replace: readonly string[],
  options: MatchOptions = {},
): MatchResult {
  const { lineHint, strict = false } = options;
  // Units are only needed by the re-indenting rungs; detecting the file's scans every line.
  let units: { model: string | undefined; file: string | undefined } | undefined;
  const unitsOf = () =>
    (units ??= { model: detectIndentUnit([...search, ...replace]), file: fileIndent(file).unit() });
  const ctx: Context = {
    file,
    search,
    get modelUnit() {
      return unitsOf().model;
    },
    get fileUnit() {
      return unitsOf().file;
    },
  };
  const rungs: ReadonlyArray<[StrategyName, () => Found]> = [
    // One search for both exact rungs, so "the first occurrence" means the same in LF and CRLF
    // files; the name says whether line endings differed.
    ['exact', () => exactText(ctx)],
    ['trailing-whitespace', () => trailingWhitespace(ctx)],
    ['indentation', () => reindented(ctx, false)],
    ['blank-lines', () => reindented(ctx, true)],
    ['elision', () => elided(ctx)],
    ['fuzzy', () => fuzzyOrKeptTypo(file, search, replace, unitsOf)],
  ];
  for (const [strategy, run] of rungs) {
    if (strict && (strategy === 'elision' || strategy === 'fuzzy')) break;
    const found = run();
    const first = found[0];
    if (first === undefined) continue;
    // An exact SEARCH which occurs more than once means its first occurrence (aider's convention),
    // unless it is too small to name a place (a lone `}`): then taking the first is a guess.
    // A diff hunk whose stated line is exactly one occurrence names it, as for `git apply`.
    if (strategy === 'exact' && found.length > 1 && (strict || isWeakSearch(search))) {
      const named =
        strict || lineHint === undefined ? undefined : found.find((a) => a.start + 1 === lineHint);
      if (named !== undefined) return exactMatch(file, named);
      return {
        kind: 'ambiguous',
        strategy,
        lines: found.map((a) => a.start + 1),
        weak: isWeakSearch(search),
      };
    }
    if (strategy === 'exact') return exactMatch(file, pickOccurrence(found, lineHint) ?? first);
    if (found.length === 1)
      return { kind: 'match', strategy, alignment: first, elisions: strategy === 'elision' };
    return { kind: 'ambiguous', strategy, lines: found.map((a) => a.start + 1), weak: false };
  }
  return { kind: 'none' };
}
