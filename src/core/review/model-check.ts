/**
 * The `model` check of `aide review`: the change, numbered and cut to the context the server
 * really gives (model-diff.ts), sent once with the review prompt, and the reply read into
 * findings (model-review.ts). `review.model_blocks_on` decides whether a finding fails the check;
 * with `none` the findings are advice and the check passes. A reply that cannot be read is
 * reported as Skipped with that reason, never as Failed: a model that rambles, like a server
 * that is down, must not stop a commit. Every failure of the model itself is returned as data
 * for the caller to word (and to tell Ctrl-C apart).
 */
import { CHARS_PER_TOKEN, estimateMessages, estimateTokens } from '../agent/tokens.js';
import type { ModelClient, ModelFailure, ModelReply } from '../ports/model.js';
import type { FilePatch } from '../ports/review.js';
import { plural } from '../../shared/text.js';
import type { CheckResult, Finding } from './checks.js';
import { renderModelDiff, type ModelDiff } from './model-diff.js';
import {
  blocks,
  checkAgainstChange,
  parseReviewReply,
  REVIEW_SYSTEM_PROMPT,
  reviewMessages,
  type ModelBlocksOn,
  type ParsedReview,
} from './model-review.js';

/** Tokens kept for the reply: a few dozen findings, or a reasoning model's short draft and them. */
export const REVIEW_REPLY_TOKENS = 2048;
/** Below this much room for the change, a review says nothing useful: the context is too small. */
const MIN_CHANGE_TOKENS = 256;
/** The framing around the change (fence lines, the "cut" sentence), by a generous estimate. */
const FRAME_TOKENS = 96;
/** The context a review takes besides the change: the prompt, its framing and the reply. */
export const REVIEW_FRAME_TOKENS = estimateTokens(REVIEW_SYSTEM_PROMPT) + FRAME_TOKENS + REVIEW_REPLY_TOKENS;
/** Dropped lines shown under the check; --json has them all too (details). */
const MAX_DROPPED_SHOWN = 5;

export interface ModelCheckInput {
  patches: readonly FilePatch[];
  /** model.context_tokens: what is planned for when the server does not say its context. */
  contextTokens: number;
  /** limits.context_budget_tokens, when set: never send more than this. */
  contextBudgetTokens?: number;
  blocksOn: ModelBlocksOn;
  /** The model's name, for the report. */
  model: string;
  /** A fresh random fence for the change (core draws no randomness). */
  fence: string;
  signal?: AbortSignal;
}

/** The check's result, or the model failure that kept it from running (the caller words it). */
export type ModelCheckOutcome = { ok: true; result: CheckResult } | { ok: false; failure: ModelFailure };

const skipped = (reason: string, details?: string[]): CheckResult => ({
  name: 'model',
  status: 'skipped',
  reason,
  findings: [],
  ...(details === undefined ? {} : { details }),
});

async function ask(
  client: ModelClient,
  input: ModelCheckInput,
  diff: ModelDiff,
): Promise<{ ok: true; reply: ModelReply; incomplete: boolean } | { ok: false; failure: ModelFailure }> {
  const messages = reviewMessages(diff, input.fence);
  const chat = client.chat({
    messages,
    promptTokensEstimate: estimateMessages(messages),
    maxReplyTokens: REVIEW_REPLY_TOKENS,
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  let next = await chat.next();
  while (next.done !== true) next = await chat.next();
  const outcome = next.value;
  if (outcome.ok) return { ok: true, reply: outcome.value, incomplete: false };
  // A reply stopped at the token limit still holds the findings written before it.
  if (outcome.failure.kind === 'incomplete')
    return { ok: true, reply: outcome.failure.reply, incomplete: true };
  return outcome;
}

/** Notes under the check: what the model did not see, and what of its reply was not used. */
function notes(review: ParsedReview, diff: ModelDiff, incomplete: boolean): string[] {
  const lines: string[] = [];
  if (diff.cut)
    lines.push(
      `the change was cut to fit the model's context: it saw ${diff.filesShown} of ${plural(diff.filesTotal, 'file')}`,
    );
  if (incomplete) lines.push('the reply stopped at the token limit: findings after that point are missing');
  if (review.dropped.length > 0) {
    lines.push(`${plural(review.dropped.length, 'line')} of the reply dropped:`);
    for (const d of review.dropped.slice(0, MAX_DROPPED_SHOWN)) lines.push(`  ${d.text} (${d.why})`);
    if (review.dropped.length > MAX_DROPPED_SHOWN)
      lines.push(`  … and ${review.dropped.length - MAX_DROPPED_SHOWN} more`);
  }
  return lines;
}

/** The severities that fail the check under `blocksOn` (not `none`), in words: "error", "warning or error". */
function atOrAbove(blocksOn: Exclude<ModelBlocksOn, 'none'>): string {
  return blocksOn === 'error'
    ? 'error'
    : blocksOn === 'warning'
      ? 'warning or error'
      : 'info, warning or error';
}

/** The reply, read and checked against the change, as the check's result. */
export function modelCheckResult(
  reply: string,
  diff: ModelDiff,
  options: { blocksOn: ModelBlocksOn; model: string; incomplete: boolean },
): CheckResult {
  const review = checkAgainstChange(parseReviewReply(reply), diff);
  const details = notes(review, diff, options.incomplete);
  if (!review.readable)
    return skipped("the model's review could not be read", [
      reply.trim() === ''
        ? 'the reply was empty'
        : 'the reply had no line in the form SEVERITY PATH:LINE: MESSAGE, nor "no findings"',
      ...details,
    ]);
  const findings = review.findings.map((f): Finding => {
    const blocking = blocks(f.severity, options.blocksOn);
    return {
      check: 'model',
      file: f.file,
      line: f.line,
      message: f.message,
      severity: f.severity,
      fix: blocking
        ? `review.model_blocks_on is "${options.blocksOn}": fix it, or commit past the hook on purpose (AIDE_SKIP=model).`
        : options.blocksOn === 'none'
          ? 'Advice: check it yourself; model findings never fail this check (review.model_blocks_on is "none").'
          : `Advice: check it yourself; only ${atOrAbove(options.blocksOn)} findings fail this check (review.model_blocks_on is "${options.blocksOn}").`,
    };
  });
  const failed = review.findings.some((f) => blocks(f.severity, options.blocksOn));
  const advice = options.blocksOn === 'none' ? ', advice only (review.model_blocks_on: none)' : '';
  return {
    name: 'model',
    status: failed ? 'failed' : 'passed',
    reason: `${plural(findings.length, 'finding')} from ${options.model}${advice}`,
    findings,
    ...(details.length === 0 ? {} : { details }),
  };
}

/** Runs the model check with a client (prepared here, once). */
export async function runModelCheck(client: ModelClient, input: ModelCheckInput): Promise<ModelCheckOutcome> {
  if (input.patches.length === 0) return { ok: true, result: skipped('nothing in the change to review') };
  const frame = REVIEW_FRAME_TOKENS;
  const prepared = await client.prepare({
    neededContextTokens: frame + MIN_CHANGE_TOKENS,
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  if (!prepared.ok) return prepared;
  const context = Math.min(
    prepared.value.contextTokens ?? input.contextTokens,
    input.contextBudgetTokens ?? Infinity,
  );
  const diff = renderModelDiff(input.patches, Math.max(0, context - frame) * CHARS_PER_TOKEN);
  if (diff.filesShown === 0)
    return {
      ok: true,
      result: skipped(`the change does not fit the model's context (${context} tokens)`),
    };
  const asked = await ask(client, input, diff);
  if (!asked.ok) return asked;
  return {
    ok: true,
    result: modelCheckResult(asked.reply.text, diff, { ...input, incomplete: asked.incomplete }),
  };
}
