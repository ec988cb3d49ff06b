/**
 * A tool result made fit for the model: never silent (an empty result says so), never larger
 * than the byte cap (cut on a UTF-8 boundary with a marker that says how to read on), and the
 * one-line summaries of calls the events and the context stubs use.
 */
import type { ToolCall } from './tools.js';

/** A result's text for the model after the cap. */
export interface CappedText {
  text: string;
  /** The text's size before the cap, in UTF-8 bytes. */
  bytes: number;
  truncated: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** How to get what the cap left out, per tool: the marker's advice. */
function howToReadOn(tool: string): string {
  switch (tool) {
    case 'read_file':
      return 'Read on with <read_file> and an <offset> after the last line shown, or a smaller <limit>.';
    case 'search_files':
      return 'Narrow the search with <path> or <glob>, or a more precise <pattern>.';
    case 'list_files':
      return 'List a subdirectory with <path>, or without <recursive>.';
    case 'run_command':
      return 'The middle of the output is left out; run a narrower command to see it.';
    default:
      return 'Ask for less at a time.';
  }
}

/** The longest prefix of `bytes` of at most `size` bytes that does not split a character. */
function headSize(bytes: Uint8Array, size: number): number {
  let end = Math.max(0, Math.min(size, bytes.length));
  while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return end;
}

/** Where the longest suffix of at most `size` bytes starts without splitting a character. */
function tailStart(bytes: Uint8Array, size: number): number {
  let start = Math.max(0, bytes.length - size);
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return start;
}

/**
 * The result's text for the model, at most `maxBytes` UTF-8 bytes marker included (when the cap
 * can hold the marker at all). Text is cut at a line end where one is near, so a file is never
 * shown with half a line; a command keeps its head and its tail, where errors and summaries are.
 */
export function capResult(text: string, tool: string, maxBytes: number): CappedText {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, bytes: bytes.length, truncated: false };
  const marker = `[output cut at ${maxBytes} of ${bytes.length} bytes. ${howToReadOn(tool)}]`;
  const room = Math.max(0, maxBytes - encoder.encode(marker).length - 2);
  if (tool === 'run_command') {
    const head = decoder.decode(bytes.subarray(0, headSize(bytes, Math.floor(room / 2))));
    const tail = decoder.decode(bytes.subarray(tailStart(bytes, room - encoder.encode(head).length)));
    return { text: `${head}\n${marker}\n${tail}`, bytes: bytes.length, truncated: true };
  }
  let kept = decoder.decode(bytes.subarray(0, headSize(bytes, room)));
  const lineEnd = kept.lastIndexOf('\n');
  if (lineEnd >= kept.length / 2) kept = kept.slice(0, lineEnd + 1);
  const joint = kept.endsWith('\n') ? '' : '\n';
  return { text: `${kept}${joint}${marker}`, bytes: bytes.length, truncated: true };
}

/** What the model gets instead of an empty result, so that silence is never mistaken for a hang. */
export function nonEmpty(text: string, tool: string): string {
  if (text.trim() !== '') return text;
  return tool === 'run_command'
    ? '(no output: the command printed nothing)'
    : `(no output: ${tool} returned nothing)`;
}

const SUMMARY_LENGTH = 80;

/** One line naming a call for the user and for stubs: "read_file src/a.ts", "run_command npm test". */
export function describeCall(call: ToolCall): string {
  const detail = callDetail(call).replace(/\s+/g, ' ').trim();
  const line = detail === '' ? call.tool : `${call.tool} ${detail}`;
  return line.length > SUMMARY_LENGTH ? `${line.slice(0, SUMMARY_LENGTH - 1)}…` : line;
}

function callDetail(call: ToolCall): string {
  switch (call.tool) {
    case 'read_file': {
      const { path, offset, limit } = call.input;
      const from = offset ?? 1;
      return offset === undefined && limit === undefined
        ? path
        : `${path} from line ${from}${limit === undefined ? '' : ` (${limit} lines)`}`;
    }
    case 'list_files':
      return `${call.input.path ?? '.'}${call.input.recursive === true ? ' (recursive)' : ''}`;
    case 'search_files':
      return `"${call.input.pattern}"${call.input.path === undefined ? '' : ` in ${call.input.path}`}`;
    case 'replace_in_file':
    case 'write_file':
      return call.input.path;
    case 'run_command':
      return call.input.command;
    case 'submit_plan':
    case 'attempt_completion':
      return '';
  }
}

/** What replaces a result dropped to fit the context; the model may ask for it again. */
export function droppedStub(tool: string, summary: string): string {
  const what = summary === '' ? tool : summary;
  return `[result of ${what} dropped to fit the context: call it again if you need it]`;
}
