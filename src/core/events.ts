/**
 * The one event stream (DESIGN.md): every flow yields these; the terminal renderers, --json
 * and the audit log consume the same events. New flows add members here.
 */
import type { BlockOutcome } from './edit/plan-edits.js';
import type { ParseProblem } from './edit/types.js';
import type {
  CheckpointResult,
  IsolationReport,
  PendingRestore,
  ProtectedChange,
  RestoreOutcome,
  RestorePlan,
  StepDecision,
} from './ports.js';
import type { ActReport, StepReport } from './flows/act.js';
import type { PlanChange } from './flows/act-resume.js';
import type { CommandRunRecord, VerifyReport } from './verify/report.js';

export interface ChangedFile {
  path: string;
  action: 'created' | 'modified' | 'deleted';
  added: number;
  removed: number;
  /** Unified diff of the change. */
  diff: string;
}

/** A changed file without its diff: what an event names. */
export type FileChange = Omit<ChangedFile, 'diff'>;

/** What an approval asks about, as data: the CLI words the question (cli/render/approval.ts). */
export type ApprovalSubject =
  // A verified step of aide act (the review the approver gets, without the diffs).
  | {
      kind: 'step';
      step: number;
      title: string;
      /** The verify verdict: "verified: 3 commands, 41 tests passed". */
      verdict: string;
      files: FileChange[];
      protectedFiles: ProtectedChange[];
    }
  // Restoring a checkpoint (aide restore): what it writes and removes.
  | { kind: 'restore'; plan: RestorePlan }
  // A yes/no question its flow still words (a resumed session's changed plan).
  | { kind: 'question'; question: string; details: string[] };

/** What a yes/no approval asks about (a step has its own review, Approver.reviewStep). */
export type YesNoSubject = Exclude<ApprovalSubject, { kind: 'step' }>;

export type AideEvent =
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
  | { type: 'step_edited'; step: number; files: FileChange[] }
  | { type: 'step_finished'; report: StepReport }
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
