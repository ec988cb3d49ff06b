/**
 * Finding a run of lines in a file by a normalized key per line, in time linear in the file:
 * candidates come only from the positions of the SEARCH's rarest line.
 */
import { liveLines, onLinesChanged } from './live-lines.js';
import type { TextFile } from './text-file.js';

export type KeyName = 'raw' | 'trim-end' | 'trim';

export const keyOf: Record<KeyName, (line: string) => string> = {
  raw: (line) => line,
  'trim-end': (line) => line.trimEnd(),
  trim: (line) => line.trim(),
};

/** A file seen through one key, with or without its blank lines. */
export interface LineView {
  keys: string[];
  /** File line index of each entry of `keys`. */
  index: number[];
  counts: Map<string, number>;
}

const cache = new WeakMap<TextFile, Map<string, LineView>>();

export function lineView(file: TextFile, key: KeyName, skipBlank: boolean): LineView {
  let perFile = cache.get(file);
  if (perFile === undefined) {
    perFile = new Map();
    cache.set(file, perFile);
    // The planner edits its own copies in place (live-lines.ts): a view of the old lines is stale.
    onLinesChanged(file, () => cache.delete(file));
  }
  const name = `${key}:${String(skipBlank)}`;
  const cached = perFile.get(name);
  if (cached !== undefined) return cached;
  const view: LineView = { keys: [], index: [], counts: new Map() };
  const fn = keyOf[key];
  file.lines.forEach((line, i) => {
    if (skipBlank && line.trim() === '') return;
    const k = fn(line);
    view.keys.push(k);
    view.index.push(i);
    view.counts.set(k, (view.counts.get(k) ?? 0) + 1);
  });
  perFile.set(name, view);
  return view;
}

/** Every position in the view where `needle` occurs as a contiguous run, ascending. */
export function findRuns(view: LineView, needle: readonly string[], from = 0): number[] {
  if (needle.length === 0) return [];
  let anchor = 0;
  let anchorCount = Number.POSITIVE_INFINITY;
  for (let k = 0; k < needle.length; k++) {
    const count = view.counts.get(needle[k] ?? '') ?? 0;
    if (count === 0) return [];
    if (count < anchorCount) {
      anchor = k;
      anchorCount = count;
    }
  }
  const anchorKey = needle[anchor];
  const starts: number[] = [];
  for (let p = from + anchor; p < view.keys.length; p++) {
    if (view.keys[p] !== anchorKey) continue;
    const start = p - anchor;
    if (start + needle.length > view.keys.length) break;
    let ok = true;
    for (let k = 0; k < needle.length && ok; k++) ok = view.keys[start + k] === needle[k];
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
