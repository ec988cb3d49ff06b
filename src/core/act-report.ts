/**
 * What aide act reports: each step's status and report, the session's report, and how a resumed
 * session's plan changed. A leaf: the flows, the event stream, the renderers and state.json import
 * these nouns, and they import nothing that imports them back.
 */
import type { ChangedFile } from './ports/changes.js';
import type { ProtectedChange } from './ports/approval.js';
import type { VerifyReport } from './verify/report.js';

/**
 * How a step ended. refused: verified, but the approver could not approve it (--yes and a
 * protected file); aborted: the user stopped the session at this step. state.json's step
 * statuses are these and two more (session-state.ts).
 */
export const STEP_STATUSES = [
  'applied',
  'verified',
  'skipped',
  'failed',
  'conflict',
  'refused',
  'aborted',
  'not_run',
  'cancelled',
] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export interface StepReport {
  number: number;
  title: string;
  status: StepStatus;
  /** Why it failed, was skipped or conflicted; null when applied. */
  reason: string | null;
  files: ChangedFile[];
  /** The changed files protected_paths covers (known once the step is verified). */
  protectedFiles: ProtectedChange[];
  verify: VerifyReport | null;
  /** The checkpoint recording the step; null when none was taken. */
  checkpoint: string | null;
  /** Where the verified patch was saved when it could not be written (conflict). */
  patchFile: string | null;
  /** The output of the step's Run commands (what later steps' templates get); null when none ran. */
  output: string | null;
  /** A model step that failed because the model could not be used (gone mid-step, context full): exit 3, not 1. */
  modelUnavailable?: true;
  /**
   * A model step no attempt passed: the attempt the report shows, the best one. Its files (with
   * their diffs) and its verification are the report's; its patch, never written, is `patchFile`.
   */
  bestAttempt?: BestAttempt;
}

/** The best of a step's failed attempts (fewest failing commands, then fewest failing tests). */
export interface BestAttempt {
  /** Which attempt it was. */
  attempt: number;
  /** How many attempts were made. */
  made: number;
  /** How it failed, counted: "1 failing command, 1 failing test" (or "not verified"). */
  score: string;
  /** Its failing tests and output tail, as the model was told them (at most `output_tail_bytes`). */
  tail: string;
}

export interface ActReport {
  session: string;
  dryRun: boolean;
  steps: StepReport[];
  /** The checkpoint the session started from (undo target) and the last one. */
  base: string;
  head: string;
  /** A unified diff of every verified step (dry runs: what would be written). */
  patch: string;
}

// How a resumed session's plan changed: a leaf of its own, since the approval port names it too.
export type { PlanChange } from './plan-change.js';
