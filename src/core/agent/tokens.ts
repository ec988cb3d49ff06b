/**
 * aide's own token estimate. The model client compares the server's prompt count with it after
 * every reply (infra/model/classify.ts, TRUNCATION_RATIO) and assumes characters / 4, so the
 * loop budgets with the same rule: an estimate that ran lower than the client assumes would make
 * an honest server look like one that cut the prompt. Code runs nearer 3 characters per token,
 * so the real count is usually higher; the reply reserve and the truncation ratio absorb that.
 */
import type { ModelMessage } from '../ports/model.js';

/** Characters per token, as the client's truncation check assumes. */
export const CHARS_PER_TOKEN = 4;

/**
 * A chat template wraps each message in a few tokens of its own (`<|im_start|>user\n` …
 * `<|im_end|>\n` is 5 with Qwen's template, Llama 3's header 4 or 5).
 */
export const MESSAGE_OVERHEAD_TOKENS = 5;

/** The tokens of one text by aide's estimate: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The tokens of a conversation as one prompt: each message's text and its template overhead. */
export function estimateMessages(messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;
  return total;
}
