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
