/**
 * read_file's answer for one file of the snapshot: a window of numbered lines, with what the
 * model needs to read on and what it must not be fooled by. Pure: bytes in, a ToolResult out.
 *
 * Lines are numbered the way editors and `git grep -n` count them: a line ends at `\n`, and a
 * `\r` before it (CRLF files) is part of the line break, not of the text, so line 12 here is
 * line 12 in the user's editor and in search results.
 */
import { findInvisible } from '../security/invisible.js';
import { formatBytes } from '../../shared/units.js';
import { plural } from '../../shared/text.js';
import type { ToolResult } from './loop-types.js';

/** How big a window is and how long a line may be. */
export interface WindowLimits {
  /** Lines shown when the call gives no limit (about 100). */
  readLines: number;
  /** The most lines one call may ask for; a larger limit is cut to this (400). */
  maxReadLines: number;
  /** Characters of a line shown; the rest is cut with a marker (minified code is one long line). */
  maxLineChars: number;
}

/** The window a call asks for: `offset` is the first line (1-based), `limit` the count. */
export interface WindowRequest {
  offset?: number | undefined;
  limit?: number | undefined;
}

/** Git's own test for binary content: a NUL byte in the first 8000 bytes. */
const BINARY_PROBE_BYTES = 8000;

/** Invisible characters listed one by one at most; the rest are counted. */
const MAX_FLAGS = 20;

export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

/** The text of a file and what decoding it showed. */
interface Decoded {
  lines: string[];
  crlf: boolean;
  bom: boolean;
  invalidUtf8: boolean;
}

function decode(bytes: Uint8Array): Decoded {
  let text: string;
  let invalidUtf8 = false;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    invalidUtf8 = true;
  }
  const bom = text.startsWith('\uFEFF');
  if (bom) text = text.slice(1);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let crlf = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.endsWith('\r')) {
      lines[i] = line.slice(0, -1);
      crlf = true;
    }
  }
  return { lines, crlf, bom, invalidUtf8 };
}

/** The line as shown: cut after `max` characters (never inside a surrogate pair) with a marker. */
function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  let end = max;
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${line.slice(0, end)} … [line cut: ${line.length - end} more characters]`;
}

/** "line 12, column 5: U+202E RIGHT-TO-LEFT OVERRIDE" for each invisible character of the window. */
export function invisibleFlags(lines: readonly string[], first: number): string[] {
  const flags: string[] = [];
  lines.forEach((line, index) => {
    for (const found of findInvisible(line))
      flags.push(`line ${first + index}, column ${found.column}: ${found.label}`);
  });
  return flags;
}

/** The note that warns about invisible characters, or undefined when the window has none. */
export function invisibleWarning(flags: readonly string[]): string | undefined {
  if (flags.length === 0) return undefined;
  const shown = flags.slice(0, MAX_FLAGS).map((flag) => `  ${flag}`);
  if (flags.length > MAX_FLAGS) shown.push(`  … and ${flags.length - MAX_FLAGS} more`);
  return [
    `Warning: ${plural(flags.length, 'invisible or direction-changing character')} in these lines. ` +
      'They can make code read differently from what it does, or hide text; they are left in the lines as they are:',
    ...shown,
  ].join('\n');
}

/** The numbered lines `first`..`last` (1-based, inclusive) of `lines`. */
export function numberLines(lines: readonly string[], first: number, maxLineChars: number): string[] {
  const width = Math.max(4, String(first + lines.length - 1).length);
  return lines.map(
    (line, index) => `${String(first + index).padStart(width)} | ${cutLine(line, maxLineChars)}`,
  );
}

/**
 * read_file's result for a regular file's bytes: refused when binary, else the window the call
 * asks for (about 100 lines from line 1 by default) under a header that says which lines these
 * are of how many and how to read on, then a warning when the lines hold invisible characters.
 */
export function viewFile(
  path: string,
  bytes: Uint8Array,
  request: WindowRequest,
  limits: WindowLimits,
): ToolResult {
  if (looksBinary(bytes))
    return {
      ok: false,
      mistake: true,
      forModel: `${path} is a binary file (${formatBytes(bytes.length)}); read_file shows text files only.`,
      forUser: `not read ${path}: binary file`,
    };
  const { lines, crlf, bom, invalidUtf8 } = decode(bytes);
  const total = lines.length;
  if (total === 0)
    return { ok: true, forModel: `${path} is empty (0 lines).`, forUser: `read ${path}: empty` };
  const first = request.offset ?? 1;
  if (first > total)
    return {
      ok: false,
      mistake: true,
      forModel: `${path} has ${plural(total, 'line')}: offset ${first} is past its end. Read from offset=1 (or a line up to ${total}).`,
      forUser: `not read ${path}: offset ${first} past line ${total}`,
    };
  const asked = request.limit ?? limits.readLines;
  const count = Math.min(asked, limits.maxReadLines);
  const last = Math.min(total, first + count - 1);
  const window = lines.slice(first - 1, last);
  const whole = first === 1 && last === total;
  const header = whole
    ? `${path}: ${plural(total, 'line')} (the whole file)`
    : `${path} lines ${first}-${last} of ${total}${last < total ? `; read on with offset=${last + 1}` : ' (the end of the file)'}`;
  const notes = [
    asked > limits.maxReadLines
      ? `(limit ${asked} is more than one read shows: ${limits.maxReadLines} lines at most)`
      : '',
    crlf ? '(CRLF line endings: the \\r is not shown)' : '',
    bom ? '(the file starts with a UTF-8 byte order mark, not shown)' : '',
    invalidUtf8 ? '(not valid UTF-8: bytes that do not decode are shown as U+FFFD)' : '',
  ].filter((note) => note !== '');
  const flags = invisibleFlags(window, first);
  const warning = invisibleWarning(flags);
  const forModel = [header, ...notes, ...numberLines(window, first, limits.maxLineChars)];
  if (warning !== undefined) forModel.push('', warning);
  const range = whole ? plural(total, 'line') : `lines ${first}-${last}`;
  return {
    ok: true,
    forModel: forModel.join('\n'),
    forUser: `read ${path} ${range}${flags.length > 0 ? ` (${plural(flags.length, 'invisible character')} flagged)` : ''}`,
  };
}
