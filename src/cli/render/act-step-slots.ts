/**
 * What the act task tree (act-tasks.ts) keeps per plan step: promises its tasks wait on, resolved
 * as the flow's events arrive, and the few words that say how a step ended.
 */
import type { ListrTaskWrapper, SimpleRenderer } from 'listr2';
import type { CountedChange } from '../../core/ports/changes.js';
import type { StepReport } from '../../core/act-report.js';
import type { StepDecision, StepReview } from '../../core/ports/approval.js';
import type { CommandRunRecord } from '../../core/verify/report.js';
import { Deferred } from './deferred.js';
import type { SuspendableRenderer } from './suspendable-renderer.js';

/** A step of the plan, as the tree shows it before it runs. */
export interface PlannedStep {
  number: number;
  title: string;
  /** How many Run commands it has. */
  runs: number;
}

export type Task = ListrTaskWrapper<unknown, typeof SuspendableRenderer, typeof SimpleRenderer>;

/** What the approval task learns: a question to ask, a decision made without asking (--yes), or that none came. */
export type Turn =
  | { kind: 'ask'; review: StepReview; answer: Deferred<StepDecision> }
  | { kind: 'decided'; decision: StepDecision['kind'] }
  | { kind: 'none' };

/** One plan step: what its tasks wait for, resolved as the events arrive. */
export class StepSlot {
  readonly started = new Deferred<boolean>();
  /** The verify commands' names once verification starts; null: the step ended before it. */
  readonly verifying = new Deferred<string[] | null>();
  readonly runs = new Map<string, Deferred<CommandRunRecord | null>>();
  readonly attempts = new Map<string, number>();
  readonly tails = new Map<string, string>();
  readonly turn = new Deferred<Turn>();
  readonly finished = new Deferred<StepReport | null>();
  edited: CountedChange[] = [];
  checkpoint: string | null = null;
  task: Task | null = null;

  constructor(readonly plan: PlannedStep) {}

  get title(): string {
    return `Step ${this.plan.number}: ${this.plan.title}`;
  }

  settleRuns(): void {
    for (const run of this.runs.values()) run.resolve(null);
  }

  /** Everything still awaited resolves: the step is over (report), or the session is (null). */
  finish(report: StepReport | null): void {
    this.started.resolve(false);
    this.verifying.resolve(null);
    this.settleRuns();
    this.turn.resolve({ kind: 'none' });
    this.finished.resolve(report);
  }
}

export const filesText = (files: readonly CountedChange[]) =>
  files.map((f) => `${f.path} +${f.added} -${f.removed}`).join(', ');

/** What happened to a step, in a few words: "skipped: not approved", "interrupted". */
export function statusText(report: StepReport): string {
  switch (report.status) {
    case 'cancelled':
      return 'interrupted';
    case 'not_run':
      return 'not run';
    case 'aborted':
      // The report's reason is a sentence for the plain lines; a tree line stays short.
      return 'aborted: nothing of this step was written';
    case 'applied':
    case 'verified':
    case 'skipped':
    case 'refused':
    case 'conflict':
    case 'failed':
      return report.reason === null ? report.status : `${report.status}: ${report.reason}`;
  }
}
