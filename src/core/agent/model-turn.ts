/**
 * One request to the model as the loop tells it: the turn starts, the reply streams (throttled
 * for the renderers), retries are passed on, and the turn ends with the server's counts. The
 * client owns the request; this only watches it and stops watching when the run is cancelled.
 */
import type { ModelClient, ModelFailure, ModelOutcome, ModelReply, ModelRequest } from '../ports/model.js';
import type { AgentEvent } from './loop-types.js';

/** At most one streaming event per this many milliseconds: a renderer need not redraw per token. */
export const STREAM_INTERVAL_MS = 100;

/** How the turn ended: the whole reply, or why there is none (`incomplete` carries the reply). */
export type TurnOutcome = { ok: true; reply: ModelReply } | { ok: false; failure: ModelFailure };

/** What one turn needs besides the request. */
export interface TurnContext {
  client: ModelClient;
  iteration: number;
  now: () => number;
  signal?: AbortSignal | undefined;
}

const CANCELLED: TurnOutcome & ModelOutcome<ModelReply> = { ok: false, failure: { kind: 'cancelled' } };

/** Read through a call: the compiler would otherwise keep a signal "not aborted" across awaits. */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** The streamed rate is shown once the stream has run this long. */
const MIN_RATE_SECONDS = 0.25;

/** Sends `request` and yields the turn's events; a cancelled run ends as `cancelled` whatever the client says. */
export async function* modelTurn(
  request: ModelRequest,
  context: TurnContext,
): AsyncGenerator<AgentEvent, TurnOutcome> {
  const { client, iteration, now, signal } = context;
  yield {
    type: 'model_turn_started',
    iteration,
    promptTokensEstimate: request.promptTokensEstimate,
    grammar: request.grammar !== undefined,
  };
  const started = now();
  let firstToken: number | null = null;
  let tokens = 0;
  let pending = '';
  let lastStreamed = -Infinity;
  const streaming = (): AgentEvent => {
    const seconds = firstToken === null ? 0 : (now() - firstToken) / 1000;
    const event: AgentEvent = {
      type: 'model_streaming',
      iteration,
      text: pending,
      tokens,
      // Tokens after the first, over the time since it came; none until a quarter second has passed
      // (one token a few microseconds after the first would read as a million a second).
      tokensPerSecond: seconds >= MIN_RATE_SECONDS && tokens > 1 ? (tokens - 1) / seconds : null,
    };
    pending = '';
    lastStreamed = now();
    return event;
  };
  const stream = client.chat(request);
  for (;;) {
    if (isAborted(signal)) {
      await stream.return(CANCELLED);
      return CANCELLED;
    }
    const next = await stream.next();
    if (isAborted(signal)) {
      if (next.done !== true) await stream.return(CANCELLED);
      return CANCELLED;
    }
    if (next.done === true) {
      if (pending !== '') yield streaming();
      const outcome: TurnOutcome = next.value.ok
        ? { ok: true, reply: next.value.value }
        : { ok: false, failure: next.value.failure };
      const reply = outcome.ok
        ? outcome.reply
        : outcome.failure.kind === 'incomplete'
          ? outcome.failure.reply
          : null;
      if (reply !== null) yield turnEnded(iteration, reply, now() - started);
      return outcome;
    }
    const event = next.value;
    if (event.type === 'retrying') {
      yield {
        type: 'model_retrying',
        iteration,
        attempt: event.attempt,
        delayMs: event.delayMs,
        reason: event.reason,
      };
      continue;
    }
    firstToken ??= now();
    tokens++;
    pending += event.text;
    if (now() - lastStreamed >= STREAM_INTERVAL_MS) yield streaming();
  }
}

function turnEnded(iteration: number, reply: ModelReply, durationMs: number): AgentEvent {
  return {
    type: 'model_turn',
    iteration,
    promptTokens: reply.promptTokens,
    cachedPromptTokens: reply.cachedPromptTokens,
    evalTokens: reply.evalTokens,
    durationMs,
    tokensPerSecond: reply.tokensPerSecond,
  };
}
