/**
 * A file's lines indexed by content and kept up to date as the planner edits the file in place,
 * so that N blocks against one file cost about N·√lines rather than N·lines: rebuilding the
 * whole-file index and copying every line per block made 10,000 blocks in one file take 25 s.
 *
 * Positions of a line are those of a snapshot, carried through the splices made since (a log),
 * plus the lines those splices inserted (scanned directly). The snapshot is rebuilt once the log
 * or the inserted lines grow past about √lines, so each query and each rebuild stay cheap.
 */
import type { TextFile } from './text-file.js';

interface Splice {
  start: number;
  removed: number;
  added: number;
}

/** A file's raw lines by content, and the multiset of its trimmed lines. */
export class LiveLines {
  /** How often each raw line occurs. */
  readonly counts = new Map<string, number>();
  /** How often each trimmed line occurs, once asked for (trimmedCounts). */
  private trimmed: Map<string, number> | undefined;
  /** A line's positions at the last rebuild: one number for a line that occurs once (most do). */
  private snapshot = new Map<string, number | number[]>();
  private log: Splice[] = [];
  /** Line ranges [from, to) inserted since the snapshot, in current positions, ascending, disjoint. */
  private fresh: Array<[number, number]> = [];

  /** Whether a splice was recorded: the planner edits this file in place. */
  private spliced = false;

  constructor(lines: readonly string[]) {
    this.rebuild(lines);
    // Counted from the snapshot's entries, not from the lines: one pass over a map of 50k lines
    // fewer, and the keys' hashes are already computed.
    for (const [line, at] of this.snapshot) this.counts.set(line, typeof at === 'number' ? 1 : at.length);
  }

  /** Whether the planner has edited the file since this index was built. */
  get edited(): boolean {
    return this.spliced;
  }

  /** Whether the trimmed lines are counted (and kept up to date from then on). */
  get countsTrimmed(): boolean {
    return this.trimmed !== undefined;
  }

  /** How often each trimmed line occurs: a line no looser rung can match is absent. Built when the exact rung first fails. */
  trimmedCounts(lines: readonly string[]): ReadonlyMap<string, number> {
    if (this.trimmed === undefined) {
      const trimmed = new Map<string, number>();
      for (const line of lines) {
        const key = line.trim();
        trimmed.set(key, (trimmed.get(key) ?? 0) + 1);
      }
      this.trimmed = trimmed;
    }
    return this.trimmed;
  }

  /** Every position of `line`, ascending. */
  positions(line: string, lines: readonly string[]): number[] {
    const out: number[] = [];
    const at = this.snapshot.get(line);
    for (const first of typeof at === 'number' ? [at] : (at ?? [])) {
      const p = this.carry(first);
      if (p !== undefined) out.push(p);
    }
    if (this.fresh.length === 0) return out;
    for (const [from, to] of this.fresh) for (let i = from; i < to; i++) if (lines[i] === line) out.push(i);
    return out.sort((a, b) => a - b);
  }

  /** Records that lines [start, start + removed.length) became `added`; `lines` is the file after it. */
  update(
    start: number,
    removed: readonly string[],
    added: readonly string[],
    lines: readonly string[],
  ): void {
    for (const line of removed) this.count(line, -1);
    for (const line of added) this.count(line, 1);
    const end = start + removed.length;
    const delta = added.length - removed.length;
    const fresh: Array<[number, number]> = [];
    const push = (from: number, to: number) => {
      if (to <= from) return;
      const last = fresh.at(-1);
      if (last !== undefined && last[1] >= from) last[1] = Math.max(last[1], to);
      else fresh.push([from, to]);
    };
    let inserted = false;
    for (const [from, to] of this.fresh) {
      if (!inserted && from >= start) {
        push(start, start + added.length);
        inserted = true;
      }
      if (to <= start) push(from, to);
      else if (from >= end) push(from + delta, to + delta);
      else {
        push(from, start);
        if (!inserted) {
          push(start, start + added.length);
          inserted = true;
        }
        push(start + added.length, to + delta);
      }
    }
    if (!inserted) push(start, start + added.length);
    this.fresh = fresh;
    this.log.push({ start, removed: removed.length, added: added.length });
    this.spliced = true;
    // A rebuild costs a map entry per line, a query a step per logged splice and a comparison
    // per inserted line: measured on 10,000 blocks, these bounds keep both small.
    const root = Math.sqrt(lines.length);
    const freshLines = fresh.reduce((sum, [from, to]) => sum + to - from, 0);
    if (this.log.length > Math.max(32, 4 * root) || freshLines > Math.max(64, 2 * root)) this.rebuild(lines);
  }

  private count(line: string, by: number): void {
    this.counts.set(line, (this.counts.get(line) ?? 0) + by);
    if (this.trimmed === undefined) return;
    const key = line.trim();
    this.trimmed.set(key, (this.trimmed.get(key) ?? 0) + by);
  }

  /** A snapshot position now, or undefined when a splice since replaced that line. */
  private carry(first: number): number | undefined {
    let p = first;
    for (const s of this.log) {
      if (p < s.start) continue;
      if (p < s.start + s.removed) return undefined;
      p += s.added - s.removed;
    }
    return p;
  }

  private rebuild(lines: readonly string[]): void {
    const snapshot = new Map<string, number | number[]>();
    lines.forEach((line, i) => {
      const at = snapshot.get(line);
      if (at === undefined) snapshot.set(line, i);
      else if (typeof at === 'number') snapshot.set(line, [at, i]);
      else at.push(i);
    });
    this.snapshot = snapshot;
    this.log = [];
    this.fresh = [];
  }
}

const live = new WeakMap<TextFile, LiveLines>();
/** What is derived from a file's lines (trimmed-lines.ts), dropped when the lines change in place. */
const dependents = new WeakMap<TextFile, () => void>();

/** The content index of a file, built on first use. */
export function liveLines(file: TextFile): LiveLines {
  let index = live.get(file);
  if (index === undefined) {
    index = new LiveLines(file.lines);
    live.set(file, index);
  }
  return index;
}

/** The content index if it is built. */
export function builtLiveLines(file: TextFile): LiveLines | undefined {
  return live.get(file);
}

/**
 * Queries a file's lines answer by a scan before its index is built. A plan of one block asks
 * once or twice, and a scan reads the lines in order and allocates nothing; the index hashes
 * every line into maps of the whole file, which on 50k lines outgrow the caches (the map cost
 * more per line than on 10k). Many blocks in one file get the index after a few scans.
 */
export const SCANS_BEFORE_INDEX = 8;

/** Scans answered so far, per file; carried to an editable copy as the index is. */
const scans = new WeakMap<TextFile, number>();

/** The content index, or undefined while a scan is the cheaper answer (the scan is counted). */
export function indexedLines(file: TextFile): LiveLines | undefined {
  const built = live.get(file);
  if (built !== undefined) return built;
  const done = scans.get(file) ?? 0;
  if (done >= SCANS_BEFORE_INDEX) return liveLines(file);
  scans.set(file, done + 1);
  return undefined;
}

/** Registers what to drop when `file`'s lines change in place. */
export function onLinesChanged(file: TextFile, drop: () => void): void {
  dependents.set(file, drop);
}

/** A copy of `file` that can be edited in place; its content index moves to the copy. */
export function editableCopy(file: TextFile): TextFile {
  const copy: TextFile = { ...file, lines: [...file.lines], eols: [...file.eols] };
  const index = live.get(file);
  if (index !== undefined) {
    live.delete(file);
    live.set(copy, index);
  }
  const done = scans.get(file);
  if (done !== undefined) scans.set(copy, done);
  return copy;
}

function replaceRange(array: string[], start: number, count: number, items: readonly string[]): void {
  // A spread of very many arguments overflows the stack.
  if (items.length < 10_000) {
    array.splice(start, count, ...items);
    return;
  }
  const tail = array.slice(start + count);
  array.length = start;
  for (const item of items) array.push(item);
  for (const item of tail) array.push(item);
}

/** Replaces lines [start, end) of a file the caller owns (editableCopy) by `lines` with `eols`. */
export function spliceInPlace(
  file: TextFile,
  start: number,
  end: number,
  lines: readonly string[],
  eols: readonly string[],
): void {
  const removed = file.lines.slice(start, end);
  replaceRange(file.lines, start, end - start, lines);
  replaceRange(file.eols, start, end - start, eols);
  live.get(file)?.update(start, removed, lines, file.lines);
  dependents.get(file)?.();
}
