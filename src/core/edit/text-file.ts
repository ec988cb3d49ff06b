/**
 * A text file as lines, with everything needed to write it back byte-faithfully: each
 * line's own terminator (so CRLF files stay CRLF and mixed files keep their mix), whether
 * the file ends with a newline, and a UTF-8 byte-order mark.
 */

import type { LineRange } from './line-table.js';

export type Eol = '\n' | '\r\n';

export interface TextFile {
  /** Line texts without terminators. An empty file has no lines. */
  lines: string[];
  /** Terminator of each line; '' only for a last line without a final newline. */
  eols: string[];
  /** The terminator new lines get: the file's majority style. */
  eol: Eol;
  /** The file started with U+FEFF. */
  bom: boolean;
}

const fileRanges = new WeakMap<TextFile, LineRange>();

/**
 * A file kept as a range of a reply (a file one block creates whole, created-text.ts): its lines
 * and terminators are made at each read, frozen, and kept by nothing.
 */
export function rangeTextFile(range: LineRange): TextFile {
  const file = Object.defineProperties({ eol: '\n', bom: false } as TextFile, {
    lines: { enumerable: true, get: () => range.lines() },
    eols: {
      enumerable: true,
      get: () => Object.freeze(new Array<string>(range.count).fill('\n')) as unknown as string[],
    },
  });
  fileRanges.set(file, range);
  return file;
}

/** The range a file is kept as, or undefined for a file with lines of its own. */
export function createdRange(file: TextFile): LineRange | undefined {
  return fileRanges.get(file);
}

/** How many lines a file has, without reading a range's lines. */
export function lineCount(file: TextFile): number {
  return fileRanges.get(file)?.count ?? file.lines.length;
}

/** Line `index` of a file, for a reader that goes forward (no array of a range's lines). */
export function forwardReader(file: TextFile): (index: number) => string | undefined {
  const range = fileRanges.get(file);
  if (range !== undefined) return range.reader();
  const lines = file.lines;
  return (index) => lines[index];
}

/**
 * The file with lines of its own, for the planner to match in and edit: a created file that a
 * later block edits is read once here, not at every line the matcher looks at.
 */
export function eagerTextFile(file: TextFile): TextFile {
  if (!fileRanges.has(file)) return file;
  return { lines: [...file.lines], eols: [...file.eols], eol: file.eol, bom: file.bom };
}

export type DecodeResult =
  { ok: true; file: TextFile } | { ok: false; reason: 'binary' | 'encoding'; message: string };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes bytes as UTF-8 text; refuses binary files and invalid UTF-8 rather than corrupting them. */
export function decodeTextFile(bytes: Uint8Array): DecodeResult {
  if (bytes.includes(0)) {
    return { ok: false, reason: 'binary', message: 'it is a binary file (it contains NUL bytes)' };
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, reason: 'encoding', message: 'it is not valid UTF-8 text' };
  }
  return { ok: true, file: parseText(text) };
}

export function parseText(source: string): TextFile {
  let text = source;
  const bom = text.startsWith('\uFEFF');
  if (bom) text = text.slice(1);
  const lines: string[] = [];
  const eols: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) {
      lines.push(text.slice(start));
      eols.push('');
      break;
    }
    if (nl > start && text.charCodeAt(nl - 1) === 13) {
      lines.push(text.slice(start, nl - 1));
      eols.push('\r\n');
      crlf++;
    } else {
      lines.push(text.slice(start, nl));
      eols.push('\n');
      lf++;
    }
    start = nl + 1;
  }
  return { lines, eols, eol: crlf > lf ? '\r\n' : '\n', bom };
}

export function renderText(file: TextFile): string {
  const range = createdRange(file);
  if (range !== undefined) return range.content();
  let out = file.bom ? '\uFEFF' : '';
  const { lines, eols } = file;
  for (let i = 0; i < lines.length; i++) out += (lines[i] ?? '') + (eols[i] ?? '');
  return out;
}

const encoder = new TextEncoder();
/** Lines joined into strings of about this many UTF-16 units before each is encoded. */
const CHUNK = 1 << 16;

/**
 * The file's text in strings of about CHUNK units, a run of whole lines each. One array of
 * pieces joined per chunk: `chunk += line + eol` left two rope cells a line behind.
 */
function* textChunks(file: TextFile): Generator<string, void, undefined> {
  // A created file is a range of the reply: its pieces are slices of it, with no line strings.
  const range = createdRange(file);
  if (range !== undefined) {
    yield* range.pieces(CHUNK);
    return;
  }
  const pieces: string[] = file.bom ? ['\uFEFF'] : [];
  let size = 0;
  // Read once: a created file's lines are made at each read (created-text.ts).
  const { lines, eols } = file;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const eol = eols[i] ?? '';
    pieces.push(line, eol);
    size += line.length + eol.length;
    if (size >= CHUNK) {
      yield pieces.join('');
      pieces.length = 0;
      size = 0;
    }
  }
  yield pieces.join('');
}

/**
 * The file's bytes, encoded a chunk of lines at a time into one buffer: encoding renderText's
 * string made the whole file a second time as a string (and a rope of two cells a line before
 * that), 50 MB more at the peak for a 20 MB file.
 */
export function encodeTextFile(file: TextFile): Uint8Array {
  // UTF-16 units: the exact size in bytes of ASCII text, a lower bound of any other.
  let units = file.bom ? 1 : 0;
  const range = createdRange(file);
  if (range !== undefined) units = range.content().length;
  else {
    const { lines, eols } = file;
    for (let i = 0; i < lines.length; i++) units += (lines[i] ?? '').length + (eols[i] ?? '').length;
  }
  let bytes = new Uint8Array(units);
  let written = 0;
  const put = (text: string) => {
    for (;;) {
      const { read, written: n } = encoder.encodeInto(text, bytes.subarray(written));
      written += n;
      if (read === text.length) return;
      // Past the ASCII estimate: grow (at most 3 bytes per unit), keeping what is written.
      const grown = new Uint8Array(Math.max(bytes.length * 2, written + (text.length - read) * 3));
      grown.set(bytes.subarray(0, written));
      bytes = grown;
      text = text.slice(read);
    }
  };
  for (const text of textChunks(file)) put(text);
  return written === bytes.length ? bytes : bytes.subarray(0, written);
}

/**
 * The file's bytes as a source of pieces of about CHUNK bytes, each encoded only when the write
 * asks for it (the port's WriteContent): the whole file is never in memory as bytes, which for
 * a 20 MB file created by a reply was 20 MB beside its lines at the peak, and for a commit of
 * 2,000 files (all written before the first rename) every file's bytes at once.
 */
export function textFileContent(file: TextFile): { chunks(): Iterable<Uint8Array> } {
  return {
    *chunks() {
      // One buffer for every piece of the file, each encoded over the last one written (the
      // port's contract): a piece each was 320 buffers of 64 KB for a 20 MB file.
      let buffer: Uint8Array | undefined;
      for (const text of textChunks(file)) {
        // At least 4 bytes: encodeInto writes whole characters only, and one takes up to 4.
        buffer ??= new Uint8Array(Math.max(4, Math.min(text.length, CHUNK)));
        for (let rest = text; rest !== '';) {
          const { read, written } = encoder.encodeInto(rest, buffer);
          yield buffer.subarray(0, written);
          rest = rest.slice(read);
        }
      }
    },
  };
}

/** True when the last line has no terminator. */
export function lacksFinalNewline(file: TextFile): boolean {
  const eols = file.eols;
  return eols.length > 0 && eols[eols.length - 1] === '';
}
