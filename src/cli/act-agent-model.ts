/**
 * The model side of `aide act`'s author: the client, prepared once per session before the
 * session starts (no server, unknown model or a context too small: exit 3, nothing
 * checkpointed), and the agent built on it. Loaded by act-agent.ts only when a step needs the
 * model, so a plan of written edits never pays for the model's modules starting.
 */
import { grammarFor } from '../core/agent/grammar.js';
import { agentLimits } from '../core/agent/limits.js';
import { systemPrompt } from '../core/agent/prompt.js';
import { estimateTokens } from '../core/agent/tokens.js';
import type { ActStep, StepAuthor } from '../core/flows/act-types.js';
import { agentAuthor } from '../core/flows/step-agent.js';
import type { AideConfig } from '../config/config-schema.js';
import { actModelClient, randomFence, scratchReads, syntaxChecker } from './wiring/act-model.js';
import { agentStopError, modelFailureError } from './render/model-failure.js';
import { monotonicMs } from '../shared/monotonic.js';

/** Tokens kept free for each reply: a whole small file in a write_file. */
const REPLY_RESERVE_TOKENS = 4096;
/** Beyond the system prompt and the reply: the step, the plan's summary, a first read. */
const TASK_TOKENS = 2048;

export interface ActAgentRequest {
  steps: readonly ActStep[];
  config: AideConfig;
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The plan's summary, for the model's first message. */
  summary: string;
  allowedCommands: readonly string[];
}

/** The agent that authors the steps needing the model, once the model is ready (throws exit 3 when it is not). */
export async function modelAuthor(request: ActAgentRequest): Promise<StepAuthor> {
  const { config } = request;
  const target = { endpoint: config.model.endpoint, model: config.model.name };
  const client = actModelClient(config.model, request.root, request.env);
  if (!client.ok) throw modelFailureError(client.failure, target);
  const system = systemPrompt('act', { allowedCommands: request.allowedCommands });
  const prepared = await client.value.prepare({
    neededContextTokens: estimateTokens(system) + TASK_TOKENS + REPLY_RESERVE_TOKENS,
  });
  if (!prepared.ok) throw modelFailureError(prepared.failure, target);
  return agentAuthor({
    client: client.value,
    summary: request.summary,
    limits: agentLimits(config.limits),
    contextTokens: prepared.value.contextTokens ?? config.model.context_tokens,
    replyReserveTokens: REPLY_RESERVE_TOKENS,
    reads: scratchReads(request.root),
    syntax: syntaxChecker(request.env),
    ...(config.model.grammar === 'auto' && prepared.value.acceptsGrammar === true
      ? { grammar: grammarFor('act') }
      : {}),
    fence: randomFence,
    now: monotonicMs,
    describeStop: (stop) => agentStopError(stop, target, 'completion').message,
  });
}
