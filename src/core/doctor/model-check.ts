/**
 * Doctor's model check: what the configured server said when doctor contacted it (its kind, the
 * model, the context it really gives, a one-token round trip), or the typed failure, worded with
 * the knob that fixes it. Pure: the wiring contacts the server, this judges what came back.
 */
import type { ModelFailure, ModelInfo } from '../ports/model.js';

/** How the one-token round trip went: its timings, or why it failed. */
export type RoundTrip =
  | {
      ok: true;
      /** Wall clock from sending the request to the last byte. */
      latencyMs: number;
      /** Tokens generated; null when the server does not count them. */
      evalTokens: number | null;
      tokensPerSecond: number | null;
    }
  | { ok: false; failure: ModelFailure };

/** What doctor learnt from the model server (or the replay script). */
export type ModelContact =
  /** `replay:FILE`: the script is read, not consumed; `replies` counts its lines. */
  | { state: 'replay'; file: string; replies: number }
  /** `prepare` failed: no server, unknown model, still loading, too small a context… */
  | { state: 'failed'; model: string; failure: ModelFailure }
  | { state: 'ready'; info: ModelInfo; roundTrip: RoundTrip };

/** The `model` part of the facts doctor judges. */
export interface ModelFacts {
  endpoint: string;
  loopback: boolean;
  allowRemote: boolean;
  contact: ModelContact;
}

/** A model check before it gets its id: the shape of every doctor check. */
export interface ModelVerdict {
  status: 'ok' | 'warn' | 'fail';
  summary: string;
  details: string[];
  fix: string | null;
}

const RECHECK = 'then run `aide doctor` again';

/** The words and status for each failure; `endpoint` and `model` are the configured ones. */
export function failureVerdict(failure: ModelFailure, endpoint: string, model: string): ModelVerdict {
  const verdict = (
    status: ModelVerdict['status'],
    summary: string,
    fix: string | null,
    details: string[] = [],
  ): ModelVerdict => ({ status, summary, details, fix });
  switch (failure.kind) {
    // A warning, not a failure: apply, verify and act on a plan with written edits need no model;
    // the commands that do (model-driven steps) stop with exit 3 and this same fix.
    case 'no_server':
      return verdict(
        'warn',
        `no model server at ${failure.endpoint} (needed only by model-driven steps)`,
        "Start one, e.g. `ollama serve` (or llama-server, or LM Studio's server), or point model.endpoint (AIDE_MODEL_ENDPOINT) at the one you run.",
        [failure.detail],
      );
    case 'unknown_model': {
      const named =
        failure.available.length === 0
          ? 'the server did not list its models'
          : `the server has: ${failure.available.join(', ')}`;
      return verdict(
        'fail',
        `${endpoint} has no model "${failure.model}"`,
        `Set model.name (or AIDE_MODEL) to one the server has, or fetch it (e.g. \`ollama pull ${failure.model}\`).`,
        [named],
      );
    }
    case 'loading':
      return verdict(
        'warn',
        `${failure.endpoint} is still loading the model`,
        `Wait for it to load, ${RECHECK}.`,
        [failure.detail],
      );
    case 'timeout':
      return verdict(
        'warn',
        `${endpoint} did not answer within ${failure.ms} ms (doctor waits only briefly)`,
        `A model can take longer than that to load: wait, ${RECHECK}, or look at the server's log.`,
      );
    case 'context_too_small':
      return verdict(
        'fail',
        `${failure.server} at ${endpoint} gives ${model} a context of ${failure.available} tokens, below the ${failure.needed} aide needs`,
        `Raise the context on the server (${failure.knob}).`,
      );
    case 'remote_refused':
      return verdict(
        'fail',
        `${failure.endpoint} is not on this machine and allow_remote is not set`,
        'Use a local server such as http://127.0.0.1:11434/v1, or set "allow_remote": true in .aide/config.json.',
      );
    case 'replay_invalid':
      return verdict(
        'fail',
        `replay model ${failure.file}: ${failure.line === 0 ? '' : `line ${failure.line}: `}${failure.detail}`,
        'Fix the replay script (JSONL, one {"reply": "..."} per line), or set model.name to a real model.',
      );
    case 'server_error':
    case 'overflow':
      return verdict(
        'fail',
        `${endpoint} refused doctor's one-token request${failure.kind === 'server_error' && failure.status !== null ? ` (HTTP ${failure.status})` : ''}`,
        'Look at the server\'s log; if aide picked the wrong API, set model.provider to "ollama" or "openai-compatible".',
        [failure.detail],
      );
    case 'truncated_prompt':
    case 'incomplete':
    case 'cancelled':
    case 'replay_exhausted':
      // Not expected from a one-token probe; named plainly rather than hidden.
      return verdict(
        'warn',
        `${endpoint}: the round trip ended with ${failure.kind.replace('_', ' ')}`,
        null,
      );
  }
}

function roundTripText(trip: Extract<RoundTrip, { ok: true }>): string {
  const tokens =
    trip.evalTokens === null ? 'a reply' : `${trip.evalTokens} token${trip.evalTokens === 1 ? '' : 's'}`;
  const rate = trip.tokensPerSecond === null ? '' : `, ${trip.tokensPerSecond.toFixed(1)} tokens/s`;
  return `round trip: ${tokens} in ${Math.round(trip.latencyMs)} ms${rate}`;
}

/** Whether a rejected tool call is asked again under a grammar (core/agent/grammar.ts). */
function grammarText(info: ModelInfo): string {
  return info.acceptsGrammar === true
    ? 'grammar mode: yes (a rejected tool call is asked again under a grammar of the tools)'
    : 'grammar mode: no (this server takes no grammar, or model.grammar is "off")';
}

/** Judges what doctor learnt from the configured model server. */
export function modelVerdict(facts: ModelFacts): ModelVerdict {
  const { contact, endpoint } = facts;
  if (contact.state === 'replay')
    return {
      status: 'ok',
      summary: `replay model ${contact.file} (${contact.replies} repl${contact.replies === 1 ? 'y' : 'ies'})`,
      details: [],
      fix: null,
    };
  if (contact.state === 'failed') return failureVerdict(contact.failure, endpoint, contact.model);
  const { info, roundTrip } = contact;
  const context =
    info.contextTokens === null
      ? 'context unknown (the server does not say)'
      : `context ${info.contextTokens} tokens${info.contextSource === null ? '' : ` (${info.contextSource})`}`;
  const summary = `${info.server} at ${endpoint}: model ${info.model}, ${context}`;
  const remote = facts.loopback
    ? []
    : ['a remote server: prompts and the code in them leave this machine (allow_remote is set)'];
  if (!roundTrip.ok) {
    const failed = failureVerdict(roundTrip.failure, endpoint, info.model);
    return {
      ...failed,
      summary,
      details: [...remote, `round trip failed: ${failed.summary}`, ...failed.details],
    };
  }
  return {
    status: facts.loopback ? 'ok' : 'warn',
    summary,
    details: [...remote, roundTripText(roundTrip), grammarText(info)],
    fix: null,
  };
}
