/**
 * Turning servers' words into ModelFailure data: context overflow as each server says it, the
 * knob that raises each server's context, and the checks every reply goes through.
 */
import type { ModelFailure, ModelOutcome, ModelReply, ModelServerKind } from '../../core/ports/model.js';
import { field, num, parseJson } from './http.js';

/**
 * The server's message from an error body: `{"error": "…"}` (Ollama, LM Studio),
 * `{"error": {"message": "…"}}` (OpenAI style, llama-server, vLLM), `{"message": …}` (vLLM's
 * older shape), or the text itself.
 */
export function errorMessage(body: string): string {
  const json = parseJson(body);
  const error = field(json, 'error');
  if (typeof error === 'string') return error;
  const message = field(error, 'message') ?? field(json, 'message');
  if (typeof message === 'string') return message;
  return body.trim().slice(0, 2000);
}

/**
 * An overflow failure when the body says the prompt does not fit, else null.
 * - llama-server: HTTP 400 `{"error": {"type": "exceed_context_size_error", "n_prompt_tokens", "n_ctx",
 *   "message": "request (N tokens) exceeds the available context size (M tokens), try increasing it"}}`
 *   (tools/server/server-context.cpp).
 * - vLLM: 400 "This model's maximum context length is M tokens. However, you requested N tokens …".
 * - Ollama with `truncate: false`: 400 "… input length exceeds the context length …".
 * - LM Studio: a plain string, "… the model is loaded with context length of only M tokens …" or
 *   "Context length exceeded"/"context overflow".
 */
export function overflowFailure(server: ModelServerKind, body: string): ModelFailure | null {
  const error = field(parseJson(body), 'error');
  const message = errorMessage(body);
  if (field(error, 'type') === 'exceed_context_size_error') {
    return {
      kind: 'overflow',
      server,
      contextTokens: num(field(error, 'n_ctx')),
      promptTokens: num(field(error, 'n_prompt_tokens')),
      detail: message,
    };
  }
  const vllm = /maximum context length is (\d+) tokens/i.exec(message);
  if (vllm !== null) {
    const requested = /requested (\d+) tokens|(\d+) tokens? (?:in|from) the (?:messages|input)/i.exec(
      message,
    );
    const promptTokens = requested === null ? null : Number(requested[1] ?? requested[2]);
    return { kind: 'overflow', server, contextTokens: Number(vllm[1]), promptTokens, detail: message };
  }
  if (OVERFLOW_WORDS.some((words) => words.test(message))) {
    const size = /context (?:length|size) of (?:only )?(\d+)|context size \((\d+) tokens\)/i.exec(message);
    const contextTokens = size === null ? null : Number(size[1] ?? size[2]);
    return { kind: 'overflow', server, contextTokens, promptTokens: null, detail: message };
  }
  return null;
}

/** How Ollama, LM Studio and other servers word a prompt larger than the context. */
const OVERFLOW_WORDS = [
  /exceeds? (?:the )?(?:available )?context (?:length|size|window)/i,
  /context (?:length|window) exceeded/i,
  /context overflow|context the overflows/i,
  /context length of only \d+/i,
];

/** The setting that raises the context on each kind of server, for `context_too_small`. */
export function contextKnob(server: ModelServerKind): string {
  switch (server) {
    case 'ollama':
      return 'model.context_tokens in .aide/config.json (sent as num_ctx), or OLLAMA_CONTEXT_LENGTH for `ollama serve`';
    case 'llama-server':
      return 'llama-server -c (--ctx-size); the context is divided among -np slots';
    case 'lm-studio':
      return "the model's context length in LM Studio's load settings (`lms load --context-length`)";
    case 'vllm':
      return 'vllm serve --max-model-len';
    case 'openai-compatible':
    case 'replay':
      return "the server's context size setting";
  }
}

/**
 * A reply whose prompt the server counted at less than this share of aide's estimate was cut by
 * the server. aide's estimate is rough (characters / 4; code runs nearer 3 per token, so the
 * real count is usually higher), so only a large shortfall counts.
 */
export const TRUNCATION_RATIO = 0.5;

/** Prompts this small are not checked: a chat template's own tokens dominate the count. */
const MIN_CHECKED_PROMPT = 256;

/**
 * The checks every reply goes through: a prompt the server cut (its count far below the
 * estimate), then a `length` finish (an incomplete reply). Cached tokens are added before
 * judging: some servers have counted only the tokens they processed anew (Ollama omitted
 * prompt_eval_count on a full cache hit, ollama#2068, and counted only new tokens in one
 * release, ollama#16414), and an append-only conversation is mostly cache hits, so a count
 * without its cached part would look like a cut prompt every turn.
 */
export function settleReply(reply: ModelReply, promptTokensEstimate: number): ModelOutcome<ModelReply> {
  const reported = reply.promptTokens;
  const floor = promptTokensEstimate * TRUNCATION_RATIO;
  if (
    reported !== null &&
    promptTokensEstimate >= MIN_CHECKED_PROMPT &&
    reported < floor &&
    reported + (reply.cachedPromptTokens ?? 0) < floor
  ) {
    return { ok: false, failure: { kind: 'truncated_prompt', reported, estimated: promptTokensEstimate } };
  }
  if (reply.finishReason === 'length') return { ok: false, failure: { kind: 'incomplete', reply } };
  return { ok: true, value: reply };
}

/** Tokens per second from a count and a duration in milliseconds; null without both. */
export function rate(tokens: number | null, ms: number | null): number | null {
  if (tokens === null || ms === null || ms <= 0) return null;
  return (tokens * 1000) / ms;
}
