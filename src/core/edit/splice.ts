/**
 * Writing a matched edit into the file. The model's SEARCH and REPLACE are diffed line by
 * line; lines they share are context, and for context the file's own version of the line is
 * kept. So a typo the model made in an unchanged line, or its wrong indentation, or a blank
 * line it forgot, is never written into the file: only the lines the model changed are.
 */
import { diffArrays } from 'diff';
import type { IndentTransform } from './indent.js';
import { isElisionLine } from './elision.js';
import type { TextFile } from './text-file.js';

/** How a SEARCH was found in the file. */
export interface Alignment {
  /** File line range [start, end) the match covers. */
  start: number;
  end: number;
  /**
   * For each SEARCH line, the file lines it stands for: one line normally, none for a blank
   * SEARCH line the file does not have, any number for an elision (`...`).
   */
  spans: ReadonlyArray<readonly [number, number]>;
  /** How to indent lines the model added. */
  indent: IndentTransform;
}

/** Lines [start, end) of the old file become `lines`, each ended by its entry of `eols`. */
export interface SplicedRegion {
  start: number;
  end: number;
  lines: string[];
  eols: string[];
}

export type SpliceResult =
  | {
      ok: true;
      /** What changes: the rest of the file stays as it is, so a caller need not copy it. */
      region: SplicedRegion;
      /** 1-based range of the edited region in the new file. */
      firstLine: number;
      lastLine: number;
      /** 0-based indices of the lines the model added, in the new file. */
      added: number[];
    }
  | { ok: false; reason: 'indent' | 'lazy-elision'; line: string };

type Op = { kind: 'keep'; search: number } | { kind: 'drop'; search: number } | { kind: 'add'; text: string };

const ELISION = '\u0000elision';

/** The line-level edit from SEARCH to REPLACE; elision lines on both sides compare equal. */
export function searchToReplaceOps(
  search: readonly string[],
  replace: readonly string[],
  elisions: boolean,
): Op[] {
  const canon = (line: string) => (elisions && isElisionLine(line) ? ELISION : line);
  const changes = diffArrays(search.map(canon), replace.map(canon));
  const ops: Op[] = [];
  let s = 0;
  let r = 0;
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    for (let k = 0; k < count; k++) {
      if (change.added) ops.push({ kind: 'add', text: replace[r++] ?? '' });
      else if (change.removed) ops.push({ kind: 'drop', search: s++ });
      else {
        ops.push({ kind: 'keep', search: s++ });
        r++;
      }
    }
  }
  return ops;
}

/**
 * Applies SEARCH→REPLACE at the aligned place in the file. Returns only the lines that change,
 * so that N blocks against one file do not copy it N times.
 */
export function splice(
  file: TextFile,
  alignment: Alignment,
  search: readonly string[],
  replace: readonly string[],
  elisions: boolean,
): SpliceResult {
  const ops = searchToReplaceOps(search, replace, elisions);
  // When the edit reaches the end of the file the line before it may become the last line,
  // whose terminator follows the file's: it belongs to the region too.
  const regionStart =
    alignment.end >= file.lines.length && alignment.start > 0 ? alignment.start - 1 : alignment.start;
  const lines: string[] = [];
  const eols: string[] = [];
  const keep = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      lines.push(file.lines[i] ?? '');
      eols.push(file.eols[i] ?? file.eol);
    }
  };
  keep(regionStart, alignment.start);
  let cursor = alignment.start;
  let previousDropped = false;
  const added: number[] = [];
  for (const op of ops) {
    if (op.kind === 'add') {
      if (elisions && isElisionLine(op.text)) return { ok: false, reason: 'lazy-elision', line: op.text };
      const text = alignment.indent(op.text);
      if (text === null) return { ok: false, reason: 'indent', line: op.text };
      added.push(regionStart + lines.length);
      lines.push(text);
      eols.push(file.eol);
      continue;
    }
    const [from, to] = alignment.spans[op.search] ?? [cursor, cursor];
    const dropped = op.kind === 'drop';
    // File lines between two SEARCH lines that the SEARCH did not mention (blank-line drift)
    // stay, unless they sit inside a removed stretch.
    if (from > cursor && !(dropped && previousDropped)) keep(cursor, from);
    if (!dropped) keep(from, to);
    cursor = Math.max(cursor, to);
    previousDropped = dropped;
  }
  keep(cursor, alignment.end);
  const regionEnd = regionStart + lines.length;
  const end = Math.max(alignment.end, regionStart);
  fixTerminators(eols, file, end >= file.lines.length);
  const firstLine = alignment.start + 1;
  const lastLine = Math.max(firstLine, regionEnd);
  return { ok: true, region: { start: regionStart, end, lines, eols }, firstLine, lastLine, added };
}

/**
 * Only the last line may lack a terminator, and it lacks one exactly when the original file's
 * last line did: a file without a final newline keeps that. `atEnd`: the region's last line is
 * the file's. Outside the region a file keeps this rule already (normalizeTerminators).
 */
function fixTerminators(eols: string[], original: TextFile, atEnd: boolean): void {
  const hadFinalNewline = original.lines.length === 0 || original.eols[original.eols.length - 1] !== '';
  const last = atEnd ? eols.length - 1 : eols.length;
  for (let i = 0; i < last; i++) if (eols[i] === '') eols[i] = original.eol;
  if (atEnd && eols.length > 0)
    eols[eols.length - 1] = hadFinalNewline ? eols[eols.length - 1] || original.eol : '';
}

/** Gives every line but the last a terminator, as a splice of the whole file would. */
export function normalizeTerminators(file: TextFile): void {
  for (let i = 0; i < file.eols.length - 1; i++) if (file.eols[i] === '') file.eols[i] = file.eol;
}
