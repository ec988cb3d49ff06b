/**
 * "The closest lines actually in the file", for a SEARCH that matched nowhere: what the model
 * should have copied, and where the first difference is. Bounded work: only windows that
 * share at least one line with the SEARCH, or start near its most similar first line.
 */
import { editDistance } from '../../shared/text.js';
import { lineView } from './line-index.js';
import type { TextFile } from './text-file.js';

export interface Closest {
  /** 1-based first and last file line of the window. */
  startLine: number;
  endLine: number;
  /** The file's lines in the window, verbatim. */
  lines: string[];
  /** 0..1, how much of the SEARCH the window resembles. */
  similarity: number;
  /** The first SEARCH line that differs, and the file line in its place. */
  firstDifference?: { searchLine: string; fileLine: string; fileLineNumber: number };
}

const MAX_WINDOWS = 400;

function lineSimilarity(a: string, b: string): number {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return 1;
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 1;
  const bound = Math.ceil(longest * 0.6);
  const distance = editDistance(x, y, bound);
  return distance > bound ? 0 : 1 - distance / longest;
}

export function findClosest(file: TextFile, search: readonly string[]): Closest | undefined {
  const model = search.filter((line) => line.trim() !== '');
  const view = lineView(file, 'trim', true);
  if (model.length === 0 || view.keys.length === 0) return undefined;
  const width = Math.min(model.length, view.keys.length);
  const last = view.keys.length - width;
  const votes = new Map<number, number>();
  const offsets = new Map<string, number[]>();
  model.forEach((line, j) => offsets.set(line.trim(), [...(offsets.get(line.trim()) ?? []), j]));
  view.keys.forEach((key, p) => {
    for (const j of offsets.get(key) ?? []) {
      const start = Math.min(Math.max(p - j, 0), last);
      votes.set(start, (votes.get(start) ?? 0) + 1);
    }
  });
  if (votes.size === 0) {
    // Nothing equal: start where the SEARCH's first line is most alike.
    const firstLine = model[0] ?? '';
    const scored = view.keys.map((key, p) => ({ p, s: lineSimilarity(firstLine, key) })).filter((x) => x.s > 0.5);
    scored.sort((a, b) => b.s - a.s);
    for (const { p } of scored.slice(0, 20)) votes.set(Math.min(p, last), 1);
  }
  const starts = [...votes].sort((a, b) => b[1] - a[1]).slice(0, MAX_WINDOWS).map(([s]) => s);
  let best: { start: number; score: number } | undefined;
  for (const start of starts) {
    let total = 0;
    for (let k = 0; k < width; k++) total += lineSimilarity(model[k] ?? '', view.keys[start + k] ?? '');
    const score = total / model.length;
    if (best === undefined || score > best.score) best = { start, score };
  }
  if (best === undefined || best.score < 0.3) return undefined;
  const first = view.index[best.start] ?? 0;
  const lastLine = view.index[best.start + width - 1] ?? first;
  const closest: Closest = {
    startLine: first + 1,
    endLine: lastLine + 1,
    lines: file.lines.slice(first, lastLine + 1),
    similarity: best.score,
  };
  for (let k = 0; k < width; k++) {
    const fileIndex = view.index[best.start + k] ?? 0;
    const fileLine = file.lines[fileIndex] ?? '';
    if ((model[k] ?? '') !== fileLine) {
      closest.firstDifference = { searchLine: model[k] ?? '', fileLine, fileLineNumber: fileIndex + 1 };
      break;
    }
  }
  return closest;
}
