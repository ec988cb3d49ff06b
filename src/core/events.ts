/**
 * The one event stream (DESIGN.md): every flow yields these; the terminal renderers, --json
 * and the audit log consume the same events. New flows add members here.
 */
import type { AgentEvent } from './agent/loop-types.js';
import type { ActReport, PlanChange, StepReport } from './act-report.js';
import type { BlockOutcome } from './edit/plan-types.js';
import type { ParseProblem } from './edit/types.js';
import type { ApprovalSubject, StepDecision } from './ports/approval.js';
import type { ChangedFile, CountedChange } from './ports/changes.js';
import type { CheckpointResult, PendingRestore, RestoreOutcome, RestorePlan } from './ports/checkpoints.js';
import type { IsolationReport } from './ports/commands.js';
import type { ModelServerKind } from './ports/model.js';
import type { CommandRunRecord, VerifyReport } from './verify/report.js';

export type AideEvent =
  // The agent loop: model turns, tool calls and their results (Plan mode; Act mode's steps).
  | AgentEvent
  // aide plan: the snapshot read, the model prepared, the repository map built; the loop follows.
  | {
      type: 'plan_started';
      snapshot: string;
      files: number;
      focus: string[];
      /** Files the task names that the snapshot does not have. */
      missingFocus: string[];
      server: ModelServerKind;
      model: string;
      contextTokens: number;
      contextSource: string | null;
      mapTokens: number;
    }
  | { type: 'edits_parsed'; blocks: number; files: string[]; problems: ParseProblem[] }
  | { type: 'block_planned'; outcome: BlockOutcome }
  | { type: 'checkpoint_created'; result: CheckpointResult }
  | { type: 'patch_applied'; files: ChangedFile[]; written: boolean }
  // A restore found a journal: an earlier restore was killed before it finished.
  | { type: 'restore_pending'; pending: PendingRestore; tempFilesRemoved: number }
  | { type: 'restore_planned'; plan: RestorePlan; dryRun: boolean }
  | { type: 'approval_requested'; subject: ApprovalSubject }
  // decision: what a step review chose (aide act); absent for a yes/no question.
  | { type: 'approval_decided'; approved: boolean; decision?: StepDecision['kind'] }
  | ({ type: 'files_restored' } & RestoreOutcome)
  | { type: 'restore_finished'; outcome: RestoreResult }
  // Verification: the commands about to run, each run of each command, the report.
  | {
      type: 'verify_started';
      commands: Array<{ name: string; run: readonly string[] | string }>;
      isolation: IsolationReport;
      withheldEnv: string[];
    }
  | { type: 'command_started'; name: string; attempt: number; logPath: string; timeoutMs: number }
  // rerun: the run failed and the flake guard runs the command again.
  | { type: 'command_finished'; name: string; run: CommandRunRecord; tail: string; rerun: boolean }
  | { type: 'verify_finished'; report: VerifyReport }
  // aide act: each step of a plan, then the session's outcome.
  | { type: 'step_started'; step: number; title: string }
  // The step's edits and Run commands are done in the scratch: what they changed (diffs come with the review).
  | { type: 'step_edited'; step: number; files: CountedChange[] }
  | { type: 'step_finished'; report: StepReport }
  // A step whose author is an agent: each attempt, the loop's events in it, and its verdict.
  | { type: 'attempt_started'; step: number; attempt: number; maxAttempts: number }
  | { type: 'step_agent'; step: number; attempt: number; event: AgentEvent }
  // passed: the attempt verified (or changed nothing); reason: why it failed, null when it passed;
  // feedback: what the model is told of the failure (failing tests, output tail), null when it passed.
  // An attempt Ctrl-C stopped does not finish: a resume starts it again under its number.
  | {
      type: 'attempt_finished';
      step: number;
      attempt: number;
      passed: boolean;
      reason: string | null;
      feedback: string | null;
    }
  | { type: 'session_finished'; report: ActReport }
  // aide act --resume: the steps done before, a write-back being finished, how the plan changed (null: it did not).
  | {
      type: 'session_resumed';
      session: string;
      done: number[];
      writeBack: { step: number; files: number } | null;
      planChanges: PlanChange[] | null;
    };

/** How a restore ended. */
export type RestoreResult = 'restored' | 'already-there' | 'dry-run' | 'declined';

/** The model's events: the agent loop's and Plan mode's start. */
export type ModelEvent = AgentEvent | Extract<AideEvent, { type: 'plan_started' }>;

// A record, not a list: a new model event that is not named here is a type error.
const MODEL_EVENT_TYPES: Readonly<Record<ModelEvent['type'], true>> = {
  plan_started: true,
  model_turn_started: true,
  model_streaming: true,
  model_retrying: true,
  model_turn: true,
  tool_call: true,
  tool_result: true,
  agent_mistake: true,
  context_trimmed: true,
};

/** Whether an event is the model's: renderers of commands without a model skip these at once. */
export function isModelEvent(event: AideEvent): event is ModelEvent {
  return Object.hasOwn(MODEL_EVENT_TYPES, event.type);
}
