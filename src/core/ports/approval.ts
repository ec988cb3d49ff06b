/** Approval: the second yes a protected file takes, and the review of a verified step. */
import type { ChangedFile, CountedChange } from './changes.js';
import type { PlanChange } from '../plan-change.js';
import type { RestorePlan } from './checkpoints.js';

export type Approval = 'yes' | 'no';

/** A changed file a `protected_paths` rule covers, with the rule (as configured) that matched. */
export interface ProtectedChange {
  path: string;
  rule: string;
}

/** Writing protected files outside an act step review (aide apply; the model's write tools next). */
export interface ProtectedWriteRequest {
  /** What writes them, for the question: "aide apply". */
  command: string;
  /** Every file the write changes. */
  files: ChangedFile[];
  /** The protected ones among them, each with its rule. */
  protectedFiles: ProtectedChange[];
}

/**
 * approve: write them; decline: the person said no; refuse: no one could be asked (no terminal,
 * no --allow-protected): `reason` says so, `hint` gives the command that would allow it.
 */
export type ProtectedDecision =
  { kind: 'approve' } | { kind: 'decline' } | { kind: 'refuse'; reason: string; hint: string };

/** Gives, or withholds, the second and explicit yes a protected file takes. */
export interface ProtectedApprover {
  approveProtected(request: ProtectedWriteRequest): Promise<ProtectedDecision>;
}

/** A verified step, as it is shown for approval. */
export interface StepReview {
  step: number;
  title: string;
  /** One line: "verified: 3 commands, 41 tests passed". */
  verdict: string;
  /** A model step's passing attempt, when it was not the first: the attempts before it failed verification. */
  attempt?: { number: number; of: number };
  files: ChangedFile[];
  /** The changed files protected_paths covers: writing them takes a second, explicit yes. */
  protectedFiles: ProtectedChange[];
}

/**
 * What to do with a verified step. `refuse`: the approver may not decide it (--yes and a
 * protected file without --allow-protected); the reason says what would.
 */
export type StepDecision =
  | { kind: 'approve' }
  /** `reason`: why, in the user's words ("you chose Skip step"); shown after "skipped: ". */
  | { kind: 'skip'; reason?: string }
  | { kind: 'abort' }
  | { kind: 'refuse'; reason: string };

/** Asks the person at the keyboard, or answers for them (--yes). Flows never know which. */
export interface Approver {
  /** A yes/no question about `subject`, which the approver words (the CLI: cli/render/approval.ts). */
  confirm(subject: YesNoSubject): Promise<Approval>;
  /** Whether to write a verified step into the workspace. */
  reviewStep(review: StepReview): Promise<StepDecision>;
}

/** What an approval asks about, as data: the CLI words the question (cli/render/approval.ts). */
export type ApprovalSubject =
  // A verified step of aide act (the review the approver gets, without the diffs).
  | {
      kind: 'step';
      step: number;
      title: string;
      /** The verify verdict: "verified: 3 commands, 41 tests passed". */
      verdict: string;
      files: CountedChange[];
      protectedFiles: ProtectedChange[];
    }
  // Restoring a checkpoint (aide restore): what it writes and removes.
  | { kind: 'restore'; plan: RestorePlan }
  // Carrying on a resumed session whose plan changed since it stopped (the changes, step by step).
  | { kind: 'plan_changed'; changes: PlanChange[] }
  // A yes/no question its flow words itself.
  | { kind: 'question'; question: string; details: string[] };

/** What a yes/no approval asks about (a step has its own review, Approver.reviewStep). */
export type YesNoSubject = Exclude<ApprovalSubject, { kind: 'step' }>;
