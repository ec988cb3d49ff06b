/**
 * Turns raw terminal output into plain lines for people and the model: escape sequences gone,
 * `\r`-overwritten progress reduced to what was finally on screen. Pure.
 */

/**
 * ECMA-48 sequences, 7-bit and 8-bit (C1) forms: CSI (colors, cursor moves), OSC (titles,
 * hyperlinks; ended by BEL or ST, or unterminated), DCS/SOS/PM/APC strings, and the short
 * `ESC intermediates final` escapes such as `ESC ( B` or `ESC 7`. A lone ESC goes too.
 */
const ESCAPE_SEQUENCE = new RegExp(
  [
    '(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]?',
    '(?:\\u001b\\]|\\u009d)[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?',
    '(?:\\u001b[PX^_]|[\\u0090\\u0098\\u009e\\u009f])[^\\u001b\\u009c]*(?:\\u001b\\\\|\\u009c)?',
    '\\u001b[ -/]*[0-~]?',
  ].join('|'),
  'g',
);
/** Other control characters left after the sequences (BEL, backspace, C1); tab stays. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export const MAX_LINE_CHARS = 4096;

/** Removes escape sequences and control characters (except tab) from text without newlines. */
export function stripTerminalControls(text: string): string {
  // Most lines are plain: skip the replaces (3.4 M lines per 100 MB in the runner's test).
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/**
 * One output line as it ended up on a terminal: a trailing `\r` (CRLF) is a line end; before
 * that, only what follows the last `\r` survives (progress bars redraw with `\r`).
 */
export function cleanLine(raw: string): string {
  let line = raw.replace(/\r+$/, '');
  const cr = line.lastIndexOf('\r');
  if (cr !== -1) line = line.slice(cr + 1);
  return stripTerminalControls(line);
}

/** Cuts a line to `maxChars` UTF-16 units without splitting a surrogate pair. */
export function capLine(line: string, maxChars = MAX_LINE_CHARS): string {
  if (line.length <= maxChars) return line;
  const cut = line.slice(0, maxChars);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The last `maxBytes` UTF-8 bytes of `text`, never starting inside a character. */
function endOf(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  // Skip continuation bytes (10xxxxxx) so the cut lands on a character's first byte.
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString('utf8');
}

/**
 * The last whole lines of `raw` (the end of the output), cleaned, at most `maxBytes` UTF-8 bytes
 * joined by `\n`. When `raw` does not start at the beginning of the output its first line is
 * partial and dropped, unless it is the only one. A last line longer than `maxBytes` keeps its end.
 */
export function tailOf(raw: Buffer, startsAtBeginning: boolean, maxBytes: number): string {
  if (maxBytes <= 0 || raw.length === 0) return '';
  const lines = raw.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (!startsAtBeginning && lines.length > 1) lines.shift();
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = cleanLine(lines[i] ?? '');
    const cost = Buffer.byteLength(line, 'utf8') + (kept.length > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      if (kept.length === 0) return endOf(line, maxBytes);
      break;
    }
    kept.push(line);
    used += cost;
  }
  return kept.reverse().join('\n');
}
