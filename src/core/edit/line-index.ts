/**
 * Finding a run of lines in a file by a normalized key per line, in time linear in the file:
 * candidates come only from the positions of the SEARCH's rarest line.
 *
 * The looser rungs (trailing white space, indentation, blank lines, elision, fuzzy) all read one
 * per-file table, built once: each line trimmed and the lines by trimmed text. A view per key,
 * each with its own map of the whole file, made a shifted SEARCH on 50k lines build four maps
 * of 50k strings (and trim every line twice): the time grew faster than the file.
 */
import { liveLines, onLinesChanged } from './live-lines.js';
import type { TextFile } from './text-file.js';

/** The keys of the looser rungs: a line compared without its trailing, or all its, white space. */
export type LooseKey = 'trim-end' | 'trim';

/** A file's lines trimmed, and indexed by that text: what every looser rung needs. */
export interface TrimmedLines {
  /** Each file line's `trim()`; a line with nothing to trim is the same string. */
  trims: string[];
  /** File lines by trimmed text, ascending; one number for a text that occurs once (most do). */
  positions: Map<string, number | number[]>;
  /** File line of each non-blank line, in order: the index of the view without blank lines. */
  nonBlank: number[];
  /** Each file line's position in `nonBlank`; -1 for a blank line. */
  viewPosition: Int32Array;
}

/** The file's non-blank lines trimmed (keys), and the file line of each (index). */
export interface LineView {
  keys: string[];
  index: number[];
}

interface Derived {
  trimmed?: TrimmedLines;
  view?: LineView;
}

const cache = new WeakMap<TextFile, Derived>();

function derived(file: TextFile): Derived {
  let entry = cache.get(file);
  if (entry === undefined) {
    entry = {};
    cache.set(file, entry);
    // The planner edits its own copies in place (live-lines.ts): tables of the old lines are stale.
    onLinesChanged(file, () => cache.delete(file));
  }
  return entry;
}

/** The file's trimmed lines, built on first use and kept until its lines change. */
export function trimmedLines(file: TextFile): TrimmedLines {
  const entry = derived(file);
  if (entry.trimmed !== undefined) return entry.trimmed;
  const lines = file.lines;
  const trims = new Array<string>(lines.length);
  const positions = new Map<string, number | number[]>();
  const nonBlank: number[] = [];
  const viewPosition = new Int32Array(lines.length).fill(-1);
  for (let i = 0; i < lines.length; i++) {
    const t = (lines[i] ?? '').trim();
    trims[i] = t;
    if (t !== '') viewPosition[i] = nonBlank.push(i) - 1;
    const at = positions.get(t);
    if (at === undefined) positions.set(t, i);
    else if (typeof at === 'number') positions.set(t, [at, i]);
    else at.push(i);
  }
  entry.trimmed = { trims, positions, nonBlank, viewPosition };
  return entry.trimmed;
}

/** The trimmed table if it is already built for the file's current lines. */
export function builtTrimmedLines(file: TextFile): TrimmedLines | undefined {
  return cache.get(file)?.trimmed;
}

/** The file without its blank lines, each line trimmed: the view the elision and fuzzy rungs read. */
export function lineView(file: TextFile): LineView {
  const entry = derived(file);
  if (entry.view !== undefined) return entry.view;
  const { trims, nonBlank } = trimmedLines(file);
  entry.view = { keys: nonBlank.map((i) => trims[i] ?? ''), index: nonBlank };
  return entry.view;
}

function countOf(at: number | number[] | undefined): number {
  return at === undefined ? 0 : typeof at === 'number' ? 1 : at.length;
}

export function positionsOf(at: number | number[] | undefined): readonly number[] {
  return at === undefined ? [] : typeof at === 'number' ? [at] : at;
}

/** Whether every line's trimmed text occurs in the file: when not, no rung up to blank-lines can match. */
export function mayOccurTrimmed(file: TextFile, lines: readonly string[]): boolean {
  const present = trimmedPresence(file);
  return lines.every((line) => line.trim() === '' || present(line.trim()));
}

/**
 * Whether a trimmed text occurs in the file. The table answers while it is built; once the
 * planner has edited the file it is dropped, and the trimmed counts the content index keeps up
 * to date answer: rebuilding the table per block would make a reply of many blocks that fail
 * (applied a second time) scan the whole file per block.
 */
function trimmedPresence(file: TextFile): (text: string) => boolean {
  const built = builtTrimmedLines(file);
  const index = liveLines(file);
  if (built === undefined && (index.edited || index.countsTrimmed)) {
    const counts = index.trimmedCounts(file.lines);
    return (text) => (counts.get(text) ?? 0) > 0;
  }
  // A file not edited yet: the table, which the rung about to run reads anyway.
  const { positions } = built ?? trimmedLines(file);
  return (text) => positions.has(text);
}

/**
 * Every run of `needle` (already keyed) in the file seen through `key`, ascending: file lines,
 * or with `skipBlank` positions among the non-blank lines (the index of lineView). Candidates
 * come from the file lines whose trimmed text is the rarest needle line's: a line equal to
 * another but for trailing white space is also equal to it trimmed.
 */
export function findLooseRuns(
  file: TextFile,
  key: LooseKey,
  skipBlank: boolean,
  needle: readonly string[],
): number[] {
  if (needle.length === 0) return [];
  const { trims, positions, nonBlank, viewPosition } = trimmedLines(file);
  let anchor = 0;
  let anchorAt: number | number[] | undefined;
  let anchorCount = Number.POSITIVE_INFINITY;
  for (let k = 0; k < needle.length; k++) {
    const at = positions.get((needle[k] ?? '').trim());
    const count = countOf(at);
    if (count === 0) return [];
    if (count < anchorCount) {
      anchor = k;
      anchorAt = at;
      anchorCount = count;
    }
  }
  const lines = file.lines;
  const size = skipBlank ? nonBlank.length : lines.length;
  const starts: number[] = [];
  for (const fileLine of positionsOf(anchorAt)) {
    const p = skipBlank ? (viewPosition[fileLine] ?? -1) : fileLine;
    if (p === -1) continue;
    const start = p - anchor;
    if (start < 0) continue;
    if (start + needle.length > size) break;
    let ok = true;
    for (let k = 0; k < needle.length && ok; k++) {
      const at = skipBlank ? (nonBlank[start + k] ?? 0) : start + k;
      ok = key === 'trim' ? trims[at] === needle[k] : (lines[at] ?? '').trimEnd() === needle[k];
    }
    if (ok) starts.push(start);
  }
  return starts;
}

/**
 * findRuns on the file's raw lines, from its content index (live-lines.ts): the time goes to
 * the places where the SEARCH's rarest line occurs, not to the whole file.
 */
export function findLineRuns(file: TextFile, needle: readonly string[]): number[] {
  if (needle.length === 0) return [];
  const index = liveLines(file);
  let anchor = 0;
  let anchorCount = Number.POSITIVE_INFINITY;
  for (let k = 0; k < needle.length; k++) {
    const count = index.counts.get(needle[k] ?? '') ?? 0;
    if (count === 0) return [];
    if (count < anchorCount) {
      anchor = k;
      anchorCount = count;
    }
  }
  const lines = file.lines;
  const starts: number[] = [];
  for (const p of index.positions(needle[anchor] ?? '', lines)) {
    const start = p - anchor;
    if (start < 0) continue;
    if (start + needle.length > lines.length) break;
    let ok = true;
    for (let k = 0; k < needle.length && ok; k++) ok = lines[start + k] === needle[k];
    if (ok) starts.push(start);
  }
  return starts;
}
