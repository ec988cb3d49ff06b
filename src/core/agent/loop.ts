/**
 * The agent loop: the model's reply, its calls run in order, their results back as one message,
 * until the finishing call is accepted or a guardrail stops the run. An async generator of
 * events (STYLE 4) that ends with an outcome; a malformed call is a message to the model, never
 * a throw.
 *
 * Guardrails, and how each reply counts:
 * - Turns: at most `maxIterations` requests, a grammar re-ask included (it is a request like any).
 * - Mistakes in a row: a reply counts one mistake if any call in it was malformed or unknown (the
 *   parser's problems, the contract's rejections), a result said `mistake`, a call repeated one
 *   that failed, the reply used no tool, or the reply was cut off (`length`). A reply whose calls
 *   ran and did what was asked clears the count. Reaching `maxConsecutiveMistakes` stops the run.
 * - No tool: the first such reply gets a nudge (and counts); a second in a row stops the run.
 * - Denials (`denied`): the model is told and nothing is retried, but a denial is the workspace's
 *   rule, not the model's slip, so it neither counts nor clears; asking again for the same denied
 *   call counts as a repeated failing call.
 * - Finishing: a rejected finish goes back with the judge's reason and counts against
 *   `maxFinishRejections` instead; reaching it stops the run.
 * - The context: see conversation.ts; when even without old results the prompt does not fit,
 *   the run stops (`context_full`).
 *
 * Grammar: when the server takes one, a reply whose call the parser or the contract rejected is
 * asked again once, for just that call, under `input.grammar`; the conversation stays append-only
 * (the rejection is the user message before the re-ask).
 */
import type { ModelRequest } from '../ports/model.js';
import { Conversation } from './conversation.js';
import type { AgentEvent, AgentLoopInput, AgentOutcome, AgentStop } from './loop-types.js';
import { isAborted, modelTurn } from './model-turn.js';
import { runCalls, type FailedCalls, type ReplyVerdict } from './run-calls.js';

/** Dropped result names listed in the note to the model; the rest are counted. */
const LISTED_DROPS = 5;

/**
 * When results must be dropped, drop a tenth of the room more than needed: each drop changes an
 * early message and so costs the server's prompt cache from there on, and trimming a little at
 * every turn would cost it at every turn.
 */
const TRIM_SLACK = 0.1;

/** The loop's counters between replies. */
interface Counters {
  iteration: number;
  mistakes: number;
  finishRejections: number;
  /** The previous reply used no tool: another one ends the run. */
  noCall: boolean;
  /** The next request is the grammar re-ask. */
  grammarNext: boolean;
}

/** Runs the loop over `input`; see the module comment for the guardrails. */
export async function* runAgent<T>(input: AgentLoopInput<T>): AsyncGenerator<AgentEvent, AgentOutcome<T>> {
  const conversation = new Conversation(input.system, input.task, input.history);
  const counters: Counters = {
    iteration: 0,
    mistakes: 0,
    finishRejections: 0,
    noCall: false,
    grammarNext: false,
  };
  const failed: FailedCalls = new Map();
  const stop = (why: AgentStop): AgentOutcome<T> => ({
    ok: false,
    stop: why,
    iterations: counters.iteration,
    messages: conversation.messages(),
  });
  const { limits } = input;
  for (;;) {
    if (isAborted(input.signal)) return stop({ kind: 'cancelled' });
    if (counters.iteration >= limits.maxIterations)
      return stop({ kind: 'iterations', limit: limits.maxIterations });
    counters.iteration++;
    const grammar = counters.grammarNext ? input.grammar : undefined;
    counters.grammarNext = false;
    const verdict = yield* turn(conversation, input, counters.iteration, grammar, failed);
    if (verdict.kind === 'finished')
      return {
        ok: true,
        value: verdict.value,
        iterations: counters.iteration,
        messages: conversation.messages(),
      };
    if (verdict.kind === 'cancelled') return stop({ kind: 'cancelled' });
    if (verdict.kind === 'stop') return stop(verdict.stop);
    const ended = yield* count(verdict, counters, input);
    if (ended !== null) return stop(ended);
    if (verdict.malformed && input.grammar !== undefined && grammar === undefined) {
      counters.grammarNext = true;
      verdict.parts.push({
        kind: 'text',
        text: 'Reply with just that call, corrected; send the others after it.',
      });
    }
    verdict.parts.push({ kind: 'text', text: footer(counters, input) });
    conversation.addUser(verdict.parts);
  }
}

/** What one turn came to: a reply's verdict, or why the run stops before one. */
type TurnEnd<T> = ReplyVerdict<T> | { kind: 'stop'; stop: AgentStop };

/** One request (under `grammar` when given) and the calls of its reply. */
async function* turn<T>(
  conversation: Conversation,
  input: AgentLoopInput<T>,
  iteration: number,
  grammar: string | undefined,
  failed: FailedCalls,
): AsyncGenerator<AgentEvent, TurnEnd<T>> {
  const budget = yield* fitContext(conversation, input, iteration);
  if (budget !== null) return { kind: 'stop', stop: budget };
  const request: ModelRequest = {
    messages: conversation.messages(),
    promptTokensEstimate: conversation.estimate(),
    maxReplyTokens: input.replyReserveTokens,
    ...(input.signal === undefined ? {} : { signal: input.signal }),
    ...(grammar === undefined ? {} : { grammar }),
  };
  const context = { client: input.client, iteration, now: input.now, signal: input.signal };
  const outcome = yield* modelTurn(request, context);
  if (isAborted(input.signal)) return { kind: 'cancelled' };
  if (outcome.ok) {
    conversation.addReply(outcome.reply.text);
    return yield* runCalls(outcome.reply.text, iteration, input, failed);
  }
  // A reply cut at the token limit is kept verbatim (the prefix stays append-only), but not run.
  if (outcome.failure.kind === 'incomplete') {
    conversation.addReply(outcome.failure.reply.text);
    return cutOff(outcome.failure.reply.evalTokens);
  }
  if (outcome.failure.kind === 'cancelled') return { kind: 'cancelled' };
  return { kind: 'stop', stop: { kind: 'model', failure: outcome.failure } };
}

/** A reply stopped at the token limit: none of it ran, and the model is asked for less. */
function cutOff(evalTokens: number | null): ReplyVerdict<never> {
  const size = evalTokens === null ? '' : ` (${evalTokens} tokens)`;
  return {
    kind: 'continue',
    parts: [
      {
        kind: 'text',
        text:
          `Your reply was cut off at the reply limit${size}, so none of its calls ran. ` +
          'Send one shorter call: keep prose out, and split a large file into several replace_in_file edits.',
      },
    ],
    mistake: 'the model’s reply was cut off at the token limit; none of it ran',
    noCall: false,
    malformed: false,
    finishRejected: null,
    ranOk: false,
  };
}

/** Updates the counters for one reply; the stop it calls for, or null to go on. */
function* count<T>(
  verdict: Extract<ReplyVerdict<T>, { kind: 'continue' }>,
  counters: Counters,
  input: AgentLoopInput<T>,
): Generator<AgentEvent, AgentStop | null> {
  const { limits } = input;
  const iteration = counters.iteration;
  const secondNoCall = verdict.noCall && counters.noCall;
  counters.noCall = verdict.noCall;
  if (verdict.mistake !== null) {
    counters.mistakes++;
    yield { type: 'agent_mistake', iteration, forUser: verdict.mistake, mistakes: counters.mistakes };
    if (secondNoCall || counters.mistakes >= limits.maxConsecutiveMistakes)
      return { kind: 'mistakes', limit: limits.maxConsecutiveMistakes, last: verdict.mistake };
    return null;
  }
  if (verdict.finishRejected !== null) {
    counters.finishRejections++;
    yield { type: 'agent_mistake', iteration, forUser: verdict.finishRejected, mistakes: counters.mistakes };
    if (counters.finishRejections >= limits.maxFinishRejections)
      return { kind: 'finish_rejected', limit: limits.maxFinishRejections, last: verdict.finishRejected };
    return null;
  }
  if (verdict.ranOk) counters.mistakes = 0;
  return null;
}

/** The volatile part of the newest message: what is left of the run. Never in the prefix. */
function footer(counters: Counters, input: AgentLoopInput<unknown>): string {
  const turns = input.limits.maxIterations - counters.iteration;
  const finish = `<${input.finish.tool}>`;
  const parts = [turns === 1 ? `1 turn left: finish with ${finish} now` : `${turns} turns left`];
  const mistakes = input.limits.maxConsecutiveMistakes - counters.mistakes;
  if (counters.mistakes > 0)
    parts.push(`${mistakes} more mistake${mistakes === 1 ? '' : 's'} in a row stop the run`);
  return `[aide: ${parts.join('; ')}.]`;
}

/**
 * Fits the next request into the context: old results dropped (and the model told) when needed.
 * The stop when even that is not enough, else null.
 */
function* fitContext<T>(
  conversation: Conversation,
  input: AgentLoopInput<T>,
  iteration: number,
): Generator<AgentEvent, AgentStop | null> {
  const room = input.contextTokens - input.replyReserveTokens;
  let estimate = conversation.estimate();
  if (estimate <= room) return null;
  const fitted = conversation.fit(room - Math.floor(Math.max(0, room) * TRIM_SLACK));
  if (fitted.dropped.length > 0) {
    conversation.appendToNewest(droppedNote(fitted.dropped));
    estimate = conversation.estimate();
    yield {
      type: 'context_trimmed',
      iteration,
      droppedResults: fitted.dropped.length,
      promptTokensEstimate: estimate,
    };
  }
  if (estimate > room)
    return { kind: 'context_full', promptTokensEstimate: estimate, contextTokens: input.contextTokens };
  return null;
}

function droppedNote(dropped: readonly string[]): string {
  const listed = dropped.slice(0, LISTED_DROPS).join(', ');
  const more = dropped.length > LISTED_DROPS ? ` and ${dropped.length - LISTED_DROPS} more` : '';
  const results = dropped.length === 1 ? 'result' : 'results';
  return `[aide: to fit the context, the ${results} of ${listed}${more} in earlier messages were replaced by a stub. Call again what you still need.]`;
}
