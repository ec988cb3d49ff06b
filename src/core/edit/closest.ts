/**
 * "The closest lines actually in the file", for a SEARCH that matched nowhere: what the model
 * should have copied, and where the first difference is. Bounded work: only windows that
 * share at least one line with the SEARCH, or start near its most similar first line.
 */
import { lineView } from './trimmed-lines.js';
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

/** Characters of a line compared at most: keeps the cost linear on minified or unwrapped lines. */
const MAX_COMPARED = 400;

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + 1 < text.length; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/**
 * 0..1 likeness of two lines: the Dice coefficient of their character pairs. Linear in line
 * length, unlike an edit distance, which took minutes on long Markdown lines.
 */
function lineSimilarity(a: string, b: string): number {
  const x = a.trim().slice(0, MAX_COMPARED);
  const y = b.trim().slice(0, MAX_COMPARED);
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const left = bigrams(x);
  let shared = 0;
  for (let i = 0; i + 1 < y.length; i++) {
    const pair = y.slice(i, i + 2);
    const count = left.get(pair) ?? 0;
    if (count > 0) {
      shared++;
      left.set(pair, count - 1);
    }
  }
  return (2 * shared) / (x.length - 1 + y.length - 1);
}

export function findClosest(file: TextFile, search: readonly string[]): Closest | undefined {
  const model = search.filter((line) => line.trim() !== '');
  const view = lineView(file);
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
    const scored = view.keys
      .map((key, p) => ({ p, s: lineSimilarity(firstLine, key) }))
      .filter((x) => x.s > 0.5);
    scored.sort((a, b) => b.s - a.s);
    for (const { p } of scored.slice(0, 20)) votes.set(Math.min(p, last), 1);
  }
  const starts = [...votes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_WINDOWS)
    .map(([s]) => s);
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
