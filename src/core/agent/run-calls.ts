/**
 * The calls of one reply, run in order. Only the model's own reply is parsed (parse-calls.ts);
 * results are wrapped as untrusted data (untrusted.ts) and never parsed for calls.
 *
 * The first call that does not go through ends the reply: a problem the parser found, a call the
 * contract rejects, a failed or denied result, a repeat of a call that failed, a rejected finish.
 * The calls after it are not run and the model is told which: they were written assuming the
 * earlier ones worked (an edit, then the tests, then the finish), and running them anyway would
 * judge a finish over a failed edit. An accepted finish ends the run; nothing after it runs.
 */
import type { ProtocolProblem, RawCall } from './calls.js';
import { checkCall, describeProblem } from './check-call.js';
import type { MessagePart } from './conversation.js';
import { isAborted } from './model-turn.js';
import type { AgentEvent, AgentLoopInput } from './loop-types.js';
import { parseCalls } from './parse-calls.js';
import { capResult, describeCall, nonEmpty } from './results.js';
import type { ToolCall, ToolName } from './tools.js';
import { wrapToolResult } from './untrusted.js';

/** What one reply came to. */
export type ReplyVerdict<T> =
  | { kind: 'finished'; value: T }
  | { kind: 'cancelled' }
  | {
      kind: 'continue';
      /** The next user message: a result or a rejection per call that was tried, then notes. */
      parts: MessagePart[];
      /** What the user is told about the reply's mistake; null when it made none. */
      mistake: string | null;
      /** The reply used no tool at all (the nudge). */
      noCall: boolean;
      /** The parser or the contract rejected a call: a grammar re-ask may fix it. */
      malformed: boolean;
      /** The judge's word for the user on a rejected finish; null when there was none. */
      finishRejected: string | null;
      /** At least one call ran and did what was asked. */
      ranOk: boolean;
    };

/**
 * Calls that failed, by tool and input, with the turn they failed on. A write that succeeds
 * clears it: after an edit the same command or read may well go otherwise.
 */
export type FailedCalls = Map<string, number>;

/** Tools whose success may change what another call finds. */
const CHANGING: ReadonlySet<ToolName> = new Set(['replace_in_file', 'write_file', 'run_command']);

type Item =
  { kind: 'call'; raw: RawCall; line: number } | { kind: 'problem'; problem: ProtocolProblem; line: number };

/** The reply's calls and problems in the order they were written. */
function itemsOf(reply: string): { items: Item[]; noCall: boolean } {
  const parsed = parseCalls(reply);
  const items: Item[] = parsed.calls.map((raw) => ({ kind: 'call', raw, line: raw.line }));
  let noCall = false;
  for (const problem of parsed.problems) {
    if (problem.kind === 'no_call') noCall = true;
    else items.push({ kind: 'problem', problem, line: problem.line });
  }
  items.sort((a, b) => a.line - b.line);
  return { items, noCall };
}

function callKey(call: ToolCall): string {
  return `${call.tool}\u0000${JSON.stringify(call.input)}`;
}

/** Runs the calls of `reply` for turn `iteration`; see the module comment for where it stops. */
export async function* runCalls<T>(
  reply: string,
  iteration: number,
  input: AgentLoopInput<T>,
  failed: FailedCalls,
): AsyncGenerator<AgentEvent, ReplyVerdict<T>> {
  const { items, noCall } = itemsOf(reply);
  const verdict = {
    kind: 'continue' as const,
    parts: [] as MessagePart[],
    mistake: null as string | null,
    noCall,
    malformed: false,
    finishRejected: null as string | null,
    ranOk: false,
  };
  if (noCall) {
    const nudge = describeProblem({ kind: 'no_call' }, input.mode);
    verdict.parts.push({ kind: 'text', text: nudge.forModel });
    verdict.mistake = nudge.forUser;
    return verdict;
  }
  const wrap = (tool: string, ok: boolean, forModel: string) =>
    wrapToolResult({ tool, ok, forModel }, input.fence());
  let index = 0;
  for (; index < items.length; index++) {
    const item = items[index] as Item;
    if (item.kind === 'problem') {
      const rejection = describeProblem(item.problem, input.mode);
      verdict.parts.push({ kind: 'text', text: rejection.forModel });
      verdict.mistake = rejection.forUser;
      verdict.malformed = true;
      break;
    }
    const checked = checkCall(item.raw, input.mode);
    if (!checked.ok) {
      verdict.parts.push({ kind: 'text', text: wrap(item.raw.tool, false, checked.forModel) });
      verdict.mistake = checked.forUser;
      verdict.malformed = true;
      break;
    }
    const call = checked.call;
    const summary = describeCall(call);
    yield { type: 'tool_call', iteration, tool: call.tool, summary, repairs: checked.repairs };
    if (call.tool === input.finish.tool) {
      const judged = await input.finish.judge(call);
      if (judged.ok) {
        yield toolResult(iteration, call.tool, true, `${call.tool} accepted`, '', false, false);
        return { kind: 'finished', value: judged.value };
      }
      const text = wrap(call.tool, false, judged.forModel);
      verdict.parts.push({ kind: 'text', text });
      yield toolResult(iteration, call.tool, false, judged.forUser, judged.forModel, false, true);
      verdict.finishRejected = judged.forUser;
      break;
    }
    const key = callKey(call);
    const failedOn = failed.get(key);
    if (failedOn !== undefined) {
      const text =
        `You made this exact call on turn ${failedOn} and it failed; it was not run again. ` +
        'Change the call, or change what made it fail first.';
      verdict.parts.push({ kind: 'text', text: wrap(call.tool, false, text) });
      verdict.mistake = `the model repeated a call that failed on turn ${failedOn}: ${summary}`;
      break;
    }
    const result = await input.tools.run(call, input.signal);
    if (isAborted(input.signal)) return { kind: 'cancelled' };
    const capped = capResult(
      nonEmpty(result.forModel, call.tool),
      call.tool,
      input.limits.maxToolResultBytes,
    );
    verdict.parts.push({
      kind: 'result',
      tool: call.tool,
      summary,
      text: wrap(call.tool, result.ok, capped.text),
    });
    yield toolResult(
      iteration,
      call.tool,
      result.ok,
      result.forUser,
      capped.text,
      capped.truncated,
      result.mistake === true && result.denied !== true,
      capped.bytes,
    );
    if (result.ok) {
      verdict.ranOk = true;
      if (CHANGING.has(call.tool)) failed.clear();
      continue;
    }
    failed.set(key, iteration);
    // A denial is the workspace's rule, not the model's slip: it is told, and only asking again counts.
    if (result.mistake === true && result.denied !== true) verdict.mistake = result.forUser;
    break;
  }
  const notRun = items.slice(index + 1);
  if (notRun.length > 0) verdict.parts.push({ kind: 'text', text: notRunNote(notRun) });
  return verdict;
}

function toolResult(
  iteration: number,
  tool: string,
  ok: boolean,
  summary: string,
  forModel: string,
  truncated: boolean,
  counted: boolean,
  bytes = new TextEncoder().encode(forModel).length,
): AgentEvent {
  return { type: 'tool_result', iteration, tool, ok, summary, bytes, truncated, counted };
}

function notRunNote(items: readonly Item[]): string {
  const names = items.map((item) =>
    item.kind === 'call' ? `<${item.raw.tool}> (line ${item.line})` : `the call on line ${item.line}`,
  );
  return `Not run, because a call before them did not go through: ${names.join(', ')}. Send them again if you still need them.`;
}
