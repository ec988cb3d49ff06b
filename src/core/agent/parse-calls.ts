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
import { didYouMean, lineColumnAt } from '../../shared/text.js';
import { stripReasoning } from '../edit/reasoning.js';
import { canonicalParameter, findTool, normalizeToolName, TOOLS, type ToolDefinition } from './tools.js';
import { quotedResults } from './untrusted.js';

/** A parameter as written: its name, its text (see ParameterKind) and the line of its tag. */
export interface RawParameter {
  name: string;
  value: string;
  line: number;
}

/** A call as written, before it is checked against the contract. */
export interface RawCall {
  /** The tool name as the model wrote it. */
  tool: string;
  /** 1-based line of the opening tag. */
  line: number;
  parameters: RawParameter[];
  /**
   * The call's text when it holds no parameter tags (a bare `<run_command>npm test</run_command>`,
   * `<write_file path="a.ts">…</write_file>`): the value of the one required parameter not given.
   */
  bare?: string;
}

/** Why (part of) a reply is not a call. */
export type ProtocolProblem =
  | {
      /** The reply ended inside a call; `parameter` is the one left open, if any. */
      kind: 'unclosed_call';
      tool: string;
      line: number;
      parameter?: { name: string; line: number };
      endLine: number;
    }
  | {
      /** Another call opened (on `next.line`) before this one closed; the other one is read on. */
      kind: 'interrupted_call';
      tool: string;
      line: number;
      next: { tool: string; line: number };
    }
  | {
      /** The call closed but one of its parameters never did. */
      kind: 'unclosed_parameter';
      tool: string;
      line: number;
      parameter: { name: string; line: number };
    }
  | {
      /** A `<think>` that never closes: the reply is all reasoning. */
      kind: 'unclosed_reasoning';
      line: number;
    }
  | {
      /** No call in the reply at all (the "use a tool" nudge). */
      kind: 'no_call';
    };

/** The calls of a reply in order, and what could not be read. */
export interface ParsedReply {
  calls: RawCall[];
  problems: ProtocolProblem[];
}

const OPEN_TAG = /<([A-Za-z][\w-]*)\s*>/y;
const CLOSE_TAG = /<\/([A-Za-z][\w-]*)\s*>/y;
/** Where a tag may start; the tag itself is read by the patterns above and TOOL_TAG. */
const ANY_OPEN = /<([A-Za-z][\w-]*)(?=[\s/>])/g;
const TAG_START = /<([A-Za-z][\w-]*)(?=[\s/>])/y;
/** A tool's opening tag may carry its parameters as attributes: `<read_file path="a.ts"/>`. */
const TOOL_TAG = /<([A-Za-z][\w-]*)((?:\s+[A-Za-z][\w-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /([A-Za-z][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const TOOL_NAMES = TOOLS.map((tool) => tool.name);

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
    const read = text.charAt(start - 1) === '`' ? undefined : readCall(text, start, opening);
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

function readCall(text: string, start: number, opening: Opening): ReadCall {
  const line = lineColumnAt(text, start).line;
  const open = readToolTag(text, start, line);
  if (open === undefined) return undefined;
  const first = skipSpace(text, open.end);
  const firstTag = tagAt(OPEN_TAG, text, first);
  if (opening.tool === undefined) {
    // An unknown name is a call only when it is written like one: a parameter tag first, a close.
    if (open.attributes.length > 0 || open.selfClosing) return undefined;
    if (!looksLikeTool(opening.written) || firstTag === undefined) return undefined;
    if (findClose(text, first, opening) === undefined) return undefined;
  } else if (open.selfClosing) {
    return { call: { tool: opening.written, line, parameters: open.attributes }, end: open.end };
  } else if (firstTag === undefined && isCallClose(text, first, opening) === undefined) {
    return readBare(text, open.end, line, opening, open.attributes);
  }
  const parameters: RawParameter[] = [...open.attributes];
  let at = open.end;
  for (;;) {
    at = skipSpace(text, at);
    if (at >= text.length) {
      return { problem: unclosed(text, opening, line), end: text.length };
    }
    const close = isCallClose(text, at, opening);
    if (close !== undefined) return { call: { tool: opening.written, line, parameters }, end: close };
    const opens = tagAt(TAG_START, text, at);
    if (opens !== undefined && findTool(opens.name) !== undefined) {
      // Another call opens: this one was never closed. Read the new one from its own tag.
      const next = { tool: opens.name, line: lineColumnAt(text, at).line };
      return { problem: { kind: 'interrupted_call', tool: opening.written, line, next }, end: at };
    }
    const tag = tagAt(OPEN_TAG, text, at);
    if (tag === undefined) {
      // Stray prose inside the call (or a stray closing tag): read on from the next tag.
      const next = text.indexOf('<', at + 1);
      at = next < 0 ? text.length : next;
      continue;
    }
    const read = readParameter(text, at, tag, opening, line);
    if ('problem' in read) return read;
    parameters.push(read.parameter);
    at = read.end;
  }
}

function unclosed(text: string, opening: Opening, line: number, parameter?: { name: string; line: number }) {
  const endLine = lineColumnAt(text, text.length).line;
  const problem: ProtocolProblem = { kind: 'unclosed_call', tool: opening.written, line, endLine };
  if (parameter !== undefined) problem.parameter = parameter;
  return problem;
}

/** A call without parameter tags: its whole text, up to its closing tag (none: a mention in prose). */
function readBare(
  text: string,
  bodyStart: number,
  line: number,
  opening: Opening,
  parameters: RawParameter[],
): ReadCall {
  const close = findClose(text, bodyStart, opening);
  if (close === undefined) return undefined;
  // "I will use <read_file> here: <read_file>…</read_file>": the first tag was a mention.
  const body = text.slice(bodyStart, close.start);
  for (const match of body.matchAll(ANY_OPEN)) if (findTool(match[1] ?? '') !== undefined) return undefined;
  return { call: { tool: opening.written, line, parameters, bare: body }, end: close.end };
}

function readParameter(
  text: string,
  at: number,
  tag: { name: string; end: number },
  opening: Opening,
  callLine: number,
): { parameter: RawParameter; end: number } | { problem: ProtocolProblem; end: number } {
  const line = lineColumnAt(text, at).line;
  const closing = new RegExp(`</${tag.name}\\s*>`, 'gi');
  let chosen: { start: number; end: number } | undefined;
  let fallback: { start: number; end: number } | undefined;
  for (const match of text.slice(tag.end).matchAll(closing)) {
    const start = tag.end + match.index;
    const end = start + match[0].length;
    fallback ??= { start, end };
    if (continuesCall(text, skipSpace(text, end), opening)) {
      chosen = { start, end };
      break;
    }
  }
  const span = chosen ?? fallback;
  const parameter = { name: tag.name, line };
  if (span === undefined) {
    const close = findClose(text, tag.end, opening);
    if (close === undefined)
      return { problem: unclosed(text, opening, callLine, parameter), end: text.length };
    return {
      problem: { kind: 'unclosed_parameter', tool: opening.written, line: callLine, parameter },
      end: close.end,
    };
  }
  const raw = text.slice(tag.end, span.start);
  const kind =
    opening.tool === undefined ? 'scalar' : opening.tool.kinds[canonicalParameter(opening.tool, tag.name)];
  return {
    parameter: { name: tag.name, value: kind === 'text' ? layoutTrimmed(raw) : raw.trim(), line },
    end: span.end,
  };
}

/**
 * Text kept byte for byte but for the layout of the tags: the line break right after the
 * opening tag, and the indentation before a closing tag on a line of its own. The line break
 * that ends the last line stays: it is the file's final newline in `<content>\n…\n</content>`.
 */
export function layoutTrimmed(raw: string): string {
  let value = raw.replace(/^\r?\n/, '');
  const lastBreak = value.lastIndexOf('\n');
  if (lastBreak >= 0 && /^[ \t]+$/.test(value.slice(lastBreak + 1))) value = value.slice(0, lastBreak + 1);
  return value;
}

/** What may follow a parameter's closing tag: the call's close, a parameter, a call, the end. */
function continuesCall(text: string, at: number, opening: Opening): boolean {
  if (at >= text.length || isCallClose(text, at, opening) !== undefined) return true;
  const tag = tagAt(OPEN_TAG, text, at);
  if (tag === undefined) return false;
  if (findTool(tag.name) !== undefined) return true;
  const tool = opening.tool;
  if (tool === undefined) return true;
  return Object.hasOwn(tool.parameters.shape, canonicalParameter(tool, tag.name));
}

/** The end of the call's closing tag at `at` (any spelling of the same tool), if one is there. */
function isCallClose(text: string, at: number, opening: Opening): number | undefined {
  const tag = tagAt(CLOSE_TAG, text, at);
  if (tag === undefined) return undefined;
  const same =
    opening.tool === undefined
      ? normalizeToolName(tag.name) === normalizeToolName(opening.written)
      : findTool(tag.name) === opening.tool;
  return same ? tag.end : undefined;
}

/** The first closing tag of the call from `from`. */
function findClose(text: string, from: number, opening: Opening): { start: number; end: number } | undefined {
  for (let at = text.indexOf('</', from); at >= 0; at = text.indexOf('</', at + 2)) {
    const end = isCallClose(text, at, opening);
    if (end !== undefined) return { start: at, end };
  }
  return undefined;
}
