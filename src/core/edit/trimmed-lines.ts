/**
 * A file's lines by trimmed text, for the looser rungs (trailing white space, indentation, blank
 * lines, elision, fuzzy): the lines where each of a few texts occurs, and the non-blank lines.
 *
 * A plan of one block asks about a few texts, and a scan answers them all in one sequential pass
 * that allocates nothing (the rungs of one SEARCH ask for the same texts: one scan serves them). A map of every trimmed line answers at once, but building it trims every
 * line and hashes it into a table of the whole file: on 50k lines that table outgrows the caches
 * and each line costs more than on 10k (a shifted SEARCH grew 7× for 5× the lines). So the
 * first queries on a file scan, and only a file asked about many times (many blocks, or a
 * reply applied again) gets the map. Both answer the same.
 */
import { detectIndentUnit, indentStyle, type FileIndent } from './indent.js';
import { onLinesChanged } from './live-lines.js';
import type { TextFile } from './text-file.js';

/** The file's non-blank lines: the index of the view the blank-lines, elision and fuzzy rungs read. */
export interface NonBlankLines {
  /** File line of each non-blank line, ascending. */
  index: number[];
  /** Each file line's position in `index`; -1 for a blank line. */
  position: Int32Array;
}

/** The file's non-blank lines trimmed (keys), and the file line of each (index). */
export interface LineView {
  keys: string[];
  index: number[];
}

interface Derived {
  /** The file's indentation unit and style, once read. */
  unit?: { value: string | undefined };
  style?: { value: '\t' | ' ' | undefined };
  nonBlank?: NonBlankLines;
  view?: LineView;
  /** File lines by trimmed text, ascending; one number for a text that occurs once (most do). */
  table?: Map<string, number | number[]>;
  /** Scans so far, and the lines of every text they looked for. */
  scans: number;
  asked: Map<string, number[]>;
}

/** Scans of a file before its table is built: a scan costs a small fraction of building it. */
export const SCANS_BEFORE_TABLE = 8;

const cache = new WeakMap<TextFile, Derived>();

/** What is derived from the file's current lines; dropped when the planner edits them in place. */
function derivedOf(file: TextFile): Derived {
  let entry = cache.get(file);
  if (entry === undefined) {
    entry = { scans: 0, asked: new Map() };
    cache.set(file, entry);
    onLinesChanged(file, () => cache.delete(file));
  }
  return entry;
}

/** White space as `String.prototype.trim` removes it (ECMAScript WhiteSpace and LineTerminator). */
export function isTrimSpace(code: number): boolean {
  if (code > 32 && code < 127) return false;
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Where `line.trim()` starts in the line. */
function trimStart(line: string): number {
  let start = 0;
  while (start < line.length) {
    const code = line.charCodeAt(start);
    // Indentation and printable ASCII decide almost every line without the full test.
    if (code === 32 || code === 9) start++;
    else if ((code > 32 && code < 127) || !isTrimSpace(code)) break;
    else start++;
  }
  return start;
}

/** Where `line.trim()` ends, given where it starts. */
function trimEnd(line: string, start: number): number {
  let end = line.length;
  while (end > start) {
    const code = line.charCodeAt(end - 1);
    if ((code > 32 && code < 127) || !isTrimSpace(code)) break;
    end--;
  }
  return end;
}

/** `line.trim() === text` for a trimmed `text`, without building the trimmed line. */
export function trimsTo(line: string, text: string): boolean {
  const start = trimStart(line);
  return trimEnd(line, start) - start === text.length && line.startsWith(text, start);
}

/**
 * The file's indentation, read once per file state: the ladder asks for its unit and the REPLACE
 * check for its unit and style, and each read scanned every line.
 */
export function fileIndent(file: TextFile): FileIndent {
  return {
    unit: () => {
      const entry = derivedOf(file);
      entry.unit ??= { value: detectIndentUnit(file.lines) };
      return entry.unit.value;
    },
    style: () => {
      const entry = derivedOf(file);
      entry.style ??= { value: indentStyle(file.lines) };
      return entry.style.value;
    },
  };
}

/** The non-blank lines, found once per file state. */
export function nonBlankLines(file: TextFile): NonBlankLines {
  const entry = derivedOf(file);
  if (entry.nonBlank !== undefined) return entry.nonBlank;
  const lines = file.lines;
  const index: number[] = [];
  const position = new Int32Array(lines.length).fill(-1);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (trimStart(line) < line.length) position[i] = index.push(i) - 1;
  }
  entry.nonBlank = { index, position };
  return entry.nonBlank;
}

/** The file without its blank lines, each line trimmed: what the closest-lines search and the fuzzy rung's one-line SEARCH read. */
export function lineView(file: TextFile): LineView {
  const entry = derivedOf(file);
  if (entry.view !== undefined) return entry.view;
  const { index } = nonBlankLines(file);
  entry.view = { keys: index.map((i) => (file.lines[i] ?? '').trim()), index };
  return entry.view;
}

/** The table if it is built for the file's current lines. */
export function builtTable(file: TextFile): ReadonlyMap<string, number | number[]> | undefined {
  return cache.get(file)?.table;
}

function buildTable(lines: readonly string[]): Map<string, number | number[]> {
  const table = new Map<string, number | number[]>();
  for (let i = 0; i < lines.length; i++) {
    const t = (lines[i] ?? '').trim();
    const at = table.get(t);
    if (at === undefined) table.set(t, i);
    else if (typeof at === 'number') table.set(t, [at, i]);
    else at.push(i);
  }
  return table;
}

/** The lines where each text occurs, by one pass over the file. */
function scan(lines: readonly string[], texts: readonly string[]): Map<string, number[]> {
  const found = new Map<string, number[]>();
  let longest = 0;
  for (const text of texts) longest = Math.max(longest, text.length);
  const lengths = new Uint8Array(longest + 1);
  for (const text of texts) {
    found.set(text, []);
    lengths[text.length] = 1;
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const start = trimStart(line);
    const end = trimEnd(line, start);
    // Most lines differ in length from every text: only the others are cut out and looked up.
    if (end - start > longest || lengths[end - start] === 0) continue;
    found.get(start === 0 && end === line.length ? line : line.slice(start, end))?.push(i);
  }
  return found;
}

/**
 * For each of `texts` (trimmed), the file lines whose `trim()` is it, ascending: by a scan for
 * the texts not asked before on these lines (the rungs of one SEARCH ask for the same ones), or
 * from the table once the file has been scanned SCANS_BEFORE_TABLE times.
 */
export function trimmedPositions(file: TextFile, texts: readonly string[]): Array<readonly number[]> {
  const entry = derivedOf(file);
  if (entry.table === undefined && entry.scans >= SCANS_BEFORE_TABLE) {
    entry.table = buildTable(file.lines);
    entry.asked.clear();
  }
  const table = entry.table;
  if (table !== undefined) {
    return texts.map((text) => {
      const at = table.get(text);
      return at === undefined ? [] : typeof at === 'number' ? [at] : at;
    });
  }
  const asked = entry.asked;
  const missing = texts.filter((text) => !asked.has(text));
  if (missing.length > 0) {
    entry.scans++;
    for (const [text, at] of scan(file.lines, missing)) asked.set(text, at);
  }
  return texts.map((text) => asked.get(text) ?? []);
}
