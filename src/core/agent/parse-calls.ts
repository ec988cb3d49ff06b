/**
 * Reads the tool calls in a model's reply: XML-style tags in plain text,
 * `<read_file><path>src/a.ts</path></read_file>`. Local models are sloppy, so the reader is
 * tolerant where the intent is plain and precise where it is not:
 *
 * - prose before, between and after calls is ignored, and so are ``` fences around a call (many
 *   models wrap calls in ```xml); a tag in inline code (`` `<read_file>` ``) is a mention;
 * - tool names in any case, dashed or camelCase (`READ_FILE`, `readFile`), and a few other
 *   agents' names (tools.ts, TOOL_ALIASES); parameter aliases are repaired when the call is
 *   checked (check-call.ts);
 * - a parameter ends at the first closing tag of its name that is followed by another parameter
 *   of the tool, the call's closing tag, another call, or the end of the reply: a diff or a file
 *   that holds `</diff>`, `<T>` generics or `a < b` elsewhere is read whole;
 * - parameters may be attributes of the tool's tag (`<read_file path="a.ts"/>`), and the one
 *   required parameter left may be the call's bare text: `<run_command>npm test</run_command>`;
 * - `<think>` reasoning before the answer is blanked first (edit/reasoning.ts): its draft calls
 *   are not calls;
 * - results quoted back from the conversation (untrusted.ts) are skipped: their calls never run.
 *
 * A call that never closes is a problem naming the tool, the open parameter and their lines. Only
 * the model's own message is given here; tool results are never parsed.
 */
import { didYouMean } from '../../shared/text.js';
import { stripReasoning } from '../edit/reasoning.js';
import type { ParsedReply, ProtocolProblem, RawCall, RawParameter } from './calls.js';
import {
  canonicalParameter,
  findTool,
  normalizeToolName,
  parameterText,
  TOOLS,
  type ToolDefinition,
} from './tools.js';
import { quotedResults } from './untrusted.js';

const OPEN_TAG = /<([A-Za-z][\w-]*)\s*>/y;
const CLOSE_TAG = /<\/([A-Za-z][\w-]*)\s*>/y;
const ANY_CLOSE = /<\/([A-Za-z][\w-]*)\s*>/g;
/** Where a tag may start; the tag itself is read by the patterns above and TOOL_TAG. */
const ANY_OPEN = /<([A-Za-z][\w-]*)(?=[\s/>])/g;
const TAG_START = /<([A-Za-z][\w-]*)(?=[\s/>])/y;
/** A tool's opening tag may carry its parameters as attributes: `<read_file path="a.ts"/>`. */
const TOOL_TAG = /<([A-Za-z][\w-]*)((?:\s+[A-Za-z][\w-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /([A-Za-z][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const TOOL_NAMES = TOOLS.map((tool) => tool.name);

interface Span {
  start: number;
  end: number;
}

/**
 * The reply and what is looked up in it again and again, computed once: a reply in which a
 * small model repeats a broken line a thousand times must still parse in linear-ish time.
 */
interface Source {
  text: string;
  /** Offset of each line's first character. */
  lineStarts: number[];
  /** Closing tags by what they close (a tool's name, or an unknown name normalized), in order. */
  closings: Map<string, Span[]>;
  /** Offsets of the opening tags of tools of the contract, in order. */
  toolOpenings: number[];
  /** Per parameter name and tool, filled when first asked: see parameterClosings. */
  parameterClosings: Map<string, ParameterClosings>;
}

/** A parameter's closing tags in order, and for each the first from it on that continues the call. */
interface ParameterClosings {
  spans: Span[];
  /** Index into spans of the first closing at or after i that continues the call; -1 for none. */
  nextContinuing: number[];
}

function sourceOf(text: string): Source {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const closings = new Map<string, Span[]>();
  for (const match of text.matchAll(ANY_CLOSE)) {
    const key = closeKey(match[1] ?? '');
    const list = closings.get(key) ?? [];
    list.push({ start: match.index, end: match.index + match[0].length });
    closings.set(key, list);
  }
  const toolOpenings: number[] = [];
  for (const match of text.matchAll(ANY_OPEN))
    if (findTool(match[1] ?? '') !== undefined) toolOpenings.push(match.index);
  return { text, lineStarts, closings, toolOpenings, parameterClosings: new Map() };
}

/** What a closing tag closes: `</READ_FILE>` and `</readFile>` both close `read_file`. */
function closeKey(name: string): string {
  return findTool(name)?.name ?? normalizeToolName(name);
}

/** Index of the first number in a sorted list that is at least `value` (the length if none). */
function firstAtLeast<T>(list: readonly T[], value: number, key: (item: T) => number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (key(list[middle] as T) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** 1-based line of an offset. */
function lineOf(source: Source, offset: number): number {
  return firstAtLeast(source.lineStarts, offset + 1, (start) => start);
}

/** The tag at `at`, if one starts there. */
function tagAt(pattern: RegExp, text: string, at: number): { name: string; end: number } | undefined {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  return match === null ? undefined : { name: match[1] ?? '', end: at + match[0].length };
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && /\s/.test(text.charAt(i))) i++;
  return i;
}

/** The call a tag opens: a tool of the contract, or an unknown one written like a tool. */
interface Opening {
  written: string;
  tool: ToolDefinition | undefined;
}

/**
 * A tag names an unknown tool only if it looks like one (snake_case, or a near miss of a tool's
 * name): `<div>` in a fenced HTML example is prose, `<read_files>` is a call to report.
 */
function looksLikeTool(name: string): boolean {
  const normalized = normalizeToolName(name);
  return normalized.includes('_') || didYouMean(normalized, TOOL_NAMES) !== undefined;
}

/** Reads one reply; see the module comment for what it tolerates. */
export function parseCalls(reply: string): ParsedReply {
  const { text, unclosedAt } = withoutReasoning(reply);
  if (unclosedAt !== undefined)
    return { calls: [], problems: [{ kind: 'unclosed_reasoning', line: unclosedAt }] };
  const source = sourceOf(text);
  const skipped = quotedResults(text);
  const calls: RawCall[] = [];
  const problems: ProtocolProblem[] = [];
  // Its own regex: matchAll elsewhere clones ANY_OPEN with its lastIndex, so that one stays at 0.
  const scan = new RegExp(ANY_OPEN.source, 'g');
  let at = 0;
  while (at < text.length) {
    scan.lastIndex = at;
    const match = scan.exec(text);
    if (match === null) break;
    const start = match.index;
    const quote = skipped.find(([from, to]) => start >= from && start < to);
    if (quote !== undefined) {
      at = quote[1];
      continue;
    }
    const written = match[1] ?? '';
    const opening: Opening = { written, tool: findTool(written) };
    const read = text.charAt(start - 1) === '`' ? undefined : readCall(source, start, opening);
    if (read === undefined) {
      at = start + match[0].length;
      continue;
    }
    if ('problem' in read) problems.push(read.problem);
    else calls.push(read.call);
    at = read.end;
  }
  if (calls.length === 0 && problems.length === 0) problems.push({ kind: 'no_call' });
  return { calls, problems };
}

/**
 * The reply with reasoning blanked, but only reasoning that opens before the first call: a
 * `<think>` line further on may be a file's content inside a `<content>` parameter.
 */
function withoutReasoning(reply: string): { text: string; unclosedAt?: number } {
  let firstCall = reply.length;
  for (const match of reply.matchAll(ANY_OPEN)) {
    if (findTool(match[1] ?? '') !== undefined) {
      firstCall = match.index;
      break;
    }
  }
  const opensLater = /<think(?:ing)?>/i.test(reply.slice(firstCall));
  const opensBefore = /<think(?:ing)?>/i.test(reply.slice(0, firstCall));
  if (opensLater && !opensBefore) return { text: reply };
  return stripReasoning(reply);
}

type ReadCall = { call: RawCall; end: number } | { problem: ProtocolProblem; end: number } | undefined;

/** A tool's opening tag: where it ends, its attributes as parameters, and whether it closes itself. */
function readToolTag(text: string, start: number, line: number) {
  TOOL_TAG.lastIndex = start;
  const match = TOOL_TAG.exec(text);
  if (match === null) return undefined;
  const attributes = [...(match[2] ?? '').matchAll(ATTRIBUTE)].map((a) => ({
    name: a[1] ?? '',
    value: (a[2] ?? a[3] ?? '').trim(),
    line,
  }));
  return { end: start + match[0].length, attributes, selfClosing: match[3] === '/' };
}

function readCall(source: Source, start: number, opening: Opening): ReadCall {
  const text = source.text;
  const line = lineOf(source, start);
  const open = readToolTag(text, start, line);
  if (open === undefined) return undefined;
  const first = skipSpace(text, open.end);
  const firstTag = tagAt(OPEN_TAG, text, first);
  if (opening.tool === undefined) {
    // An unknown name is a call only when it is written like one: a parameter tag first, a close.
    if (open.attributes.length > 0 || open.selfClosing) return undefined;
    if (!looksLikeTool(opening.written) || firstTag === undefined) return undefined;
    if (findClose(source, first, opening) === undefined) return undefined;
  } else if (open.selfClosing) {
    return { call: { tool: opening.written, line, parameters: open.attributes }, end: open.end };
  } else if (firstTag === undefined && isCallClose(text, first, opening) === undefined) {
    return readBare(source, open.end, line, opening, open.attributes);
  }
  const parameters: RawParameter[] = [...open.attributes];
  let at = open.end;
  for (;;) {
    at = skipSpace(text, at);
    if (at >= text.length) return { problem: unclosed(source, opening, line), end: text.length };
    const close = isCallClose(text, at, opening);
    if (close !== undefined) return { call: { tool: opening.written, line, parameters }, end: close };
    const opens = tagAt(TAG_START, text, at);
    if (opens !== undefined && findTool(opens.name) !== undefined) {
      // Another call opens: this one was never closed. Read the new one from its own tag.
      const next = { tool: opens.name, line: lineOf(source, at) };
      return { problem: { kind: 'interrupted_call', tool: opening.written, line, next }, end: at };
    }
    const tag = tagAt(OPEN_TAG, text, at);
    if (tag === undefined) {
      // Stray prose inside the call (or a stray closing tag): read on from the next tag.
      const next = text.indexOf('<', at + 1);
      at = next < 0 ? text.length : next;
      continue;
    }
    const read = readParameter(source, at, tag, opening, line);
    if ('problem' in read) return read;
    parameters.push(read.parameter);
    at = read.end;
  }
}

function unclosed(
  source: Source,
  opening: Opening,
  line: number,
  parameter?: { name: string; line: number },
) {
  const endLine = source.lineStarts.length;
  const problem: ProtocolProblem = { kind: 'unclosed_call', tool: opening.written, line, endLine };
  if (parameter !== undefined) problem.parameter = parameter;
  return problem;
}

/** A call without parameter tags: its whole text, up to its closing tag (none: a mention in prose). */
function readBare(
  source: Source,
  bodyStart: number,
  line: number,
  opening: Opening,
  parameters: RawParameter[],
): ReadCall {
  const close = findClose(source, bodyStart, opening);
  if (close === undefined) return undefined;
  // "I will use <read_file> here: <read_file>…</read_file>": the first tag was a mention.
  const nextCall = source.toolOpenings[firstAtLeast(source.toolOpenings, bodyStart, (at) => at)];
  if (nextCall !== undefined && nextCall < close.start) return undefined;
  const body = source.text.slice(bodyStart, close.start);
  return { call: { tool: opening.written, line, parameters, bare: body }, end: close.end };
}

function readParameter(
  source: Source,
  at: number,
  tag: { name: string; end: number },
  opening: Opening,
  callLine: number,
): { parameter: RawParameter; end: number } | { problem: ProtocolProblem; end: number } {
  const text = source.text;
  const line = lineOf(source, at);
  const { spans, nextContinuing } = parameterClosings(source, tag.name, opening);
  const first = firstAtLeast(spans, tag.end, (span) => span.start);
  const span = spans[nextContinuing[first] ?? -1] ?? spans[first];
  const parameter = { name: tag.name, line };
  if (span === undefined) {
    const close = findClose(source, tag.end, opening);
    if (close === undefined)
      return { problem: unclosed(source, opening, callLine, parameter), end: text.length };
    return {
      problem: { kind: 'unclosed_parameter', tool: opening.written, line: callLine, parameter },
      end: close.end,
    };
  }
  const raw = text.slice(tag.end, span.start);
  const kind =
    opening.tool === undefined ? 'scalar' : opening.tool.kinds[canonicalParameter(opening.tool, tag.name)];
  return {
    parameter: { name: tag.name, value: parameterText(kind ?? 'scalar', raw), line },
    end: span.end,
  };
}

/**
 * Where a parameter may end, computed once per name and tool for the whole reply: a reply that
 * repeats a parameter thousands of times would otherwise rescan the rest for each one.
 */
function parameterClosings(source: Source, name: string, opening: Opening): ParameterClosings {
  const key = `${name.toLowerCase()}\u0000${openingKey(opening)}`;
  const known = source.parameterClosings.get(key);
  if (known !== undefined) return known;
  const text = source.text;
  const spans = [...text.matchAll(new RegExp(`</${name}\\s*>`, 'gi'))].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
  const nextContinuing = new Array<number>(spans.length + 1).fill(-1);
  for (let i = spans.length - 1; i >= 0; i--) {
    const end = (spans[i] as Span).end;
    nextContinuing[i] = continuesCall(text, skipSpace(text, end), opening)
      ? i
      : (nextContinuing[i + 1] ?? -1);
  }
  const closings = { spans, nextContinuing };
  source.parameterClosings.set(key, closings);
  return closings;
}

/** What may follow a parameter's closing tag: the call's close, a parameter, a call, the end. */
function continuesCall(text: string, at: number, opening: Opening): boolean {
  if (at >= text.length || isCallClose(text, at, opening) !== undefined) return true;
  const start = tagAt(TAG_START, text, at);
  if (start !== undefined && findTool(start.name) !== undefined) return true;
  const tag = tagAt(OPEN_TAG, text, at);
  if (tag === undefined) return false;
  const tool = opening.tool;
  return tool === undefined || Object.hasOwn(tool.parameters.shape, canonicalParameter(tool, tag.name));
}

/** The end of the call's closing tag at `at` (any spelling of the same tool), if one is there. */
function isCallClose(text: string, at: number, opening: Opening): number | undefined {
  const tag = tagAt(CLOSE_TAG, text, at);
  if (tag === undefined) return undefined;
  return closeKey(tag.name) === openingKey(opening) ? tag.end : undefined;
}

function openingKey(opening: Opening): string {
  return opening.tool?.name ?? normalizeToolName(opening.written);
}

/** The first closing tag of the call from `from`. */
function findClose(source: Source, from: number, opening: Opening): Span | undefined {
  const list = source.closings.get(openingKey(opening)) ?? [];
  return list[firstAtLeast(list, from, (span) => span.start)];
}
