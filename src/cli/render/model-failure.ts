/**
 * A model failure or an agent loop's stop, as the error the user reads: what happened, on which
 * server, and the knob or command that fixes it. Exit 3 when the model cannot be used (DESIGN.md),
 * 1 when it was used and gave nothing usable, 130 for Ctrl-C.
 */
import type { AgentStop } from '../../core/agent/loop-types.js';
import type { ModelFailure } from '../../core/ports/model.js';
import { AideError, ExitCode } from '../../shared/errors.js';

/** What the messages name: the configured server and model. */
export interface ModelTarget {
  endpoint: string;
  model: string;
}

function unavailable(message: string, hint: string, details: string[] = []): AideError {
  return new AideError('model_unavailable', message, { hint, details });
}

/** The error for a failure of the model client. */
export function modelFailureError(failure: ModelFailure, target: ModelTarget): AideError {
  switch (failure.kind) {
    case 'no_server':
      return unavailable(
        `no model server at ${failure.endpoint}`,
        "Start one, e.g. `ollama serve` (or llama-server, or LM Studio's server), or point model.endpoint (AIDE_MODEL_ENDPOINT, --endpoint) at the one you run. `aide doctor` checks it.",
        [failure.detail],
      );
    case 'unknown_model':
      return unavailable(
        `${target.endpoint} has no model "${failure.model}"`,
        `Set model.name (AIDE_MODEL, --model) to one the server has, or fetch it (e.g. \`ollama pull ${failure.model}\`).`,
        [
          failure.available.length === 0
            ? 'the server did not list its models'
            : `the server has: ${failure.available.join(', ')}`,
        ],
      );
    case 'loading':
      return unavailable(
        `${failure.endpoint} was still loading the model after every retry`,
        'Wait for the server to finish loading it (its log says when), then run the command again.',
        [failure.detail],
      );
    case 'context_too_small':
      return unavailable(
        `${failure.server} gives ${target.model} a context of ${failure.available} tokens; aide needs at least ${failure.needed} for the prompt, the repository map and the reply`,
        `Raise the context on the server (${failure.knob}).`,
      );
    case 'truncated_prompt':
      return unavailable(
        `the server cut the prompt: it read ${failure.reported} tokens of about ${failure.estimated} aide sent`,
        "The server's context is smaller than it reported. Raise it (Ollama: model.context_tokens / OLLAMA_CONTEXT_LENGTH; llama-server: -c; LM Studio: the load setting), or lower model.context_tokens so aide sends less.",
      );
    case 'overflow':
      return unavailable(
        `${failure.server} refused the prompt as larger than its context${failure.contextTokens === null ? '' : ` (${failure.contextTokens} tokens)`}`,
        "Raise the server's context, or lower model.context_tokens in .aide/config.json so aide sends less.",
        [failure.detail],
      );
    case 'incomplete':
      return new AideError(
        'model_gave_up',
        "the model's reply stopped at the token limit; none of it was used",
        {
          hint: "Raise the server's reply limit (e.g. llama-server -n, Ollama num_predict), or make the task smaller.",
        },
      );
    case 'remote_refused':
      return unavailable(
        `${failure.endpoint} is not on this machine and allow_remote is not set: nothing was sent`,
        'Use a local server such as http://127.0.0.1:11434, or set "allow_remote": true in .aide/config.json (AIDE_ALLOW_REMOTE=1) if you trust that server with your code.',
      );
    case 'timeout':
      return unavailable(
        failure.which === 'idle'
          ? `the model server sent nothing for ${Math.round(failure.ms / 1000)} s`
          : `the model's reply took longer than ${Math.round(failure.ms / 1000)} s (model.timeout_ms)`,
        "A large model on a CPU is slow: raise model.timeout_ms in .aide/config.json, use a smaller model, or look at the server's log.",
      );
    case 'cancelled':
      return new AideError('aborted', 'interrupted while the model was answering', {
        exitCode: ExitCode.interrupted,
      });
    case 'server_error':
      return unavailable(
        `${target.endpoint} refused the request${failure.status === null ? '' : ` (HTTP ${failure.status})`}`,
        'Look at the server\'s log; if aide picked the wrong API, set model.provider to "ollama" or "openai-compatible".',
        [failure.detail],
      );
    case 'replay_exhausted':
      return unavailable(
        `the replay script ${failure.file} ran out after ${failure.used} ${failure.used === 1 ? 'reply' : 'replies'}`,
        'Add the replies the conversation still needs to the script (JSONL, one {"reply": "..."} per line).',
      );
    case 'replay_invalid':
      return unavailable(
        `replay script ${failure.file}${failure.line === 0 ? '' : `, line ${failure.line}`}: ${failure.detail}`,
        'Fix the replay script (JSONL, one {"reply": "..."} per line, optionally "expect").',
      );
  }
}

/** The error for an agent loop that stopped without finishing; `what` names what was asked ("a plan"). */
export function agentStopError(stop: AgentStop, target: ModelTarget, what: string): AideError {
  switch (stop.kind) {
    case 'model':
      return modelFailureError(stop.failure, target);
    case 'cancelled':
      return new AideError('aborted', 'interrupted while the model was working; nothing was written', {
        exitCode: ExitCode.interrupted,
      });
    case 'iterations':
      return new AideError('model_gave_up', `the model gave no ${what} within ${stop.limit} turns`, {
        hint: 'Name the files the task concerns (a "Files:" line), split the task, or raise limits.max_iterations in .aide/config.json.',
      });
    case 'mistakes':
      return new AideError(
        'model_gave_up',
        `the model made ${stop.limit} mistakes in a row; the last: ${stop.last}`,
        {
          hint: 'Small models slip on the tool format: try a larger or coder-tuned model, or raise limits.max_consecutive_mistakes.',
        },
      );
    case 'finish_rejected':
      return new AideError(
        'model_gave_up',
        `the model's ${what} was not accepted ${stop.limit} times; the last problem: ${stop.last}`,
        {
          hint: 'Try a larger model, or write the plan by hand (the format: `aide plan --help`, README "Plan documents").',
        },
      );
    case 'context_full':
      return unavailable(
        `the conversation no longer fits the model's context (about ${stop.promptTokensEstimate} of ${stop.contextTokens} tokens) even with old tool results dropped`,
        "Raise the server's context and model.context_tokens, or make the task smaller.",
      );
  }
}
