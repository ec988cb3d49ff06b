/**
 * The nouns of the agent loop (loop.ts), in a leaf the tools, the flows and the events import:
 * what runs a tool, what the loop is given, what it tells as it goes and how it ends.
 */
import type { ModelClient, ModelFailure, ModelMessage } from '../ports/model.js';
import type { AgentMode, ToolCall, ToolName } from './tools.js';

/** What a tool did, for its two audiences. */
export interface ToolResult {
  /** Whether the tool did what was asked. A refusal or an error is `false`. */
  ok: boolean;
  /** The text the model gets (wrapped as untrusted data by the loop, capped in bytes). */
  forModel: string;
  /** One line for the user: "read src/a.ts lines 1-100", "refused .env: secret file". */
  forUser: string;
  /**
   * A failed result that counts as a mistake of the model (a failed edit, a path that does not
   * exist) rather than a fact it asked for (a search with no match is `ok`).
   */
  mistake?: boolean;
  /** A security refusal (a path outside the workspace, a secret, a command not allowed): never retried. */
  denied?: boolean;
}

/** Runs the tools of a mode, except the finishing one (submit_plan, attempt_completion). */
export interface ToolExecutor {
  run(call: ToolCall, signal?: AbortSignal): Promise<ToolResult>;
}

/** The finishing call judged: accepted ends the loop with `value`; rejected goes back to the model. */
export type FinishOutcome<T> = { ok: true; value: T } | { ok: false; forModel: string; forUser: string };

/** The guardrails (config `limits`). */
export interface AgentLimits {
  /** Model turns at most (25): every request counts, a grammar re-ask included. */
  maxIterations: number;
  /**
   * Mistakes in a row at most (3): a malformed call, an unknown tool, a failed edit, the same
   * failing call again, a reply without a tool, a reply cut off at the token limit. The run stops
   * when the count reaches it; a reply whose calls ran and did what was asked clears it (loop.ts).
   */
  maxConsecutiveMistakes: number;
  /** Largest tool result for the model, in bytes; longer is cut with a marker saying how to read on. */
  maxToolResultBytes: number;
  /**
   * Finishing calls the judge may reject in a run (an invalid plan, 3): the run stops at that
   * many rejections. Counted apart from mistakes, which a rejected finish neither adds to nor clears.
   */
  maxFinishRejections: number;
}

/** Everything one run of the loop needs. Core draws no randomness and reads no clock itself. */
export interface AgentLoopInput<T> {
  mode: AgentMode;
  client: ModelClient;
  /** The system prompt (prompt.ts): the stable prefix of every request. */
  system: string;
  /** The first user message: the task, the repository map, the focus. */
  task: string;
  tools: ToolExecutor;
  /** The finishing tool of the mode and its judge. */
  finish: { tool: ToolName; judge: (call: ToolCall) => FinishOutcome<T> | Promise<FinishOutcome<T>> };
  limits: AgentLimits;
  /** The context one request may fill, in tokens (what `prepare` found, or the configured size). */
  contextTokens: number;
  /** Tokens kept free for the reply; also sent as the request's `maxReplyTokens`. */
  replyReserveTokens: number;
  /** A fresh fence for each wrapped tool result (untrusted.ts): 8-64 letters or digits. */
  fence: () => string;
  /** Milliseconds on some clock, for durations and tokens/s. */
  now: () => number;
  /**
   * A GBNF grammar that forces a well-formed call, when the server takes one (llama-server,
   * vLLM) and `model.grammar` is `auto`: a reply the parser rejects is asked again under it,
   * for just the broken call. Absent: no grammar retry.
   */
  grammar?: string;
  /**
   * An earlier run's messages (its outcome's `messages`) to carry on: `task` is then the next
   * user message after them, and every request extends the earlier ones. Absent: a new run.
   */
  history?: readonly ModelMessage[];
  signal?: AbortSignal;
}

/** What the loop tells while it runs, in order. Each becomes an AideEvent (events.ts). */
export type AgentEvent =
  | { type: 'model_turn_started'; iteration: number; promptTokensEstimate: number; grammar: boolean }
  /** Streamed text of the current reply (`text` is the new part) with the tokens so far and their rate. */
  | {
      type: 'model_streaming';
      iteration: number;
      text: string;
      tokens: number;
      tokensPerSecond: number | null;
    }
  | { type: 'model_retrying'; iteration: number; attempt: number; delayMs: number; reason: string }
  | {
      type: 'model_turn';
      iteration: number;
      promptTokens: number | null;
      cachedPromptTokens: number | null;
      evalTokens: number | null;
      durationMs: number;
      tokensPerSecond: number | null;
    }
  /** A call of the reply, checked; `summary` is one line for the user ("read_file src/a.ts"). */
  | { type: 'tool_call'; iteration: number; tool: string; summary: string; repairs: string[] }
  | {
      type: 'tool_result';
      iteration: number;
      tool: string;
      ok: boolean;
      summary: string;
      bytes: number;
      truncated: boolean;
      /** A failure that counts against the model: an `agent_mistake` with the same words follows (show one of them). */
      counted: boolean;
    }
  /** A reply or call the model must fix (no call, malformed, unknown tool, rejected finish); `mistakes` in a row so far. */
  | { type: 'agent_mistake'; iteration: number; forUser: string; mistakes: number }
  /** The oldest tool results were dropped from the conversation to fit the context; the model was told. */
  | { type: 'context_trimmed'; iteration: number; droppedResults: number; promptTokensEstimate: number };

/** Why the loop stopped without a finish. */
export type AgentStop =
  | { kind: 'iterations'; limit: number }
  | { kind: 'mistakes'; limit: number; last: string }
  | { kind: 'finish_rejected'; limit: number; last: string }
  | { kind: 'model'; failure: ModelFailure }
  /** Even with every tool result dropped, the conversation does not fit the context. */
  | { kind: 'context_full'; promptTokensEstimate: number; contextTokens: number }
  | { kind: 'cancelled' };

export type AgentOutcome<T> =
  | { ok: true; value: T; iterations: number; messages: readonly ModelMessage[] }
  | { ok: false; stop: AgentStop; iterations: number; messages: readonly ModelMessage[] };
