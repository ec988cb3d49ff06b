/**
 * What the act task tree (act-tasks.ts) keeps per plan step: promises its tasks wait on, resolved
 * as the flow's events arrive, and the few words that say how a step ended.
 */
import type { ListrTaskWrapper, SimpleRenderer } from 'listr2';
import type { AideEvent } from '../../core/events.js';
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

/** The attempt of a model step under way, as the tree holds it. */
export interface AgentAttempt {
  attempt: number;
  /** The verify commands of this attempt, once its verification started. */
  commands: string[] | null;
  runs: Map<string, CommandRunRecord>;
}

/** How an attempt of a model step ended: its verdict, or null when the step ended without one (interrupted). */
export type AttemptEnd = { passed: boolean; reason: string | null } | null;

/** One attempt of a model step, as its row in the tree waits for it. */
export class AttemptSlot {
  readonly ended = new Deferred<AttemptEnd>();
  /** The next attempt's number once it starts; null: the step ended after this one. */
  readonly next = new Deferred<number | null>();
  /** The attempt's row, once drawn: its output line shows the tool call or tokens/s. */
  task: Task | null = null;
  /** What its output line says now (kept for a row drawn after the first events). */
  said = 'the model is working…';

  constructor(
    readonly number: number,
    readonly max: number,
  ) {}
}

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
  /** The first attempt of a model step once it starts; null: the step has no attempts (written edits). */
  readonly firstAttempt = new Deferred<AttemptSlot | null>();
  /** A model step's attempts by number, each with its row. */
  readonly attemptSlots = new Map<number, AttemptSlot>();
  edited: CountedChange[] = [];
  /**
   * A model step's attempt under way: its verify runs are held here and handed to the tree only
   * when the attempt passes (a failed attempt is followed by another, not by the step's end).
   */
  agent: AgentAttempt | null = null;
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
    this.firstAttempt.resolve(null);
    for (const attempt of this.attemptSlots.values()) {
      attempt.ended.resolve(null);
      attempt.next.resolve(null);
    }
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

/**
 * A model step's progress: each attempt gets a row (act-attempt-rows.ts) whose output line says
 * the current tool call or the tokens/s as the reply streams, and whose title says its verify
 * result; a passed attempt hands its verify runs to the tree's usual rows.
 */
export function agentProgress(
  slot: StepSlot,
  event: Extract<AideEvent, { type: 'attempt_started' | 'step_agent' | 'attempt_finished' }>,
): void {
  const say = (number: number, text: string) => {
    const attempt = slot.attemptSlots.get(number);
    if (attempt === undefined) return;
    attempt.said = text;
    if (attempt.task !== null) attempt.task.output = text;
  };
  switch (event.type) {
    case 'attempt_started': {
      slot.agent = { attempt: event.attempt, commands: null, runs: new Map() };
      const attempt = new AttemptSlot(event.attempt, event.maxAttempts);
      slot.attemptSlots.get(event.attempt - 1)?.next.resolve(event.attempt);
      slot.attemptSlots.set(event.attempt, attempt);
      slot.firstAttempt.resolve(attempt);
      return;
    }
    case 'step_agent':
      if (event.event.type === 'tool_call') say(event.attempt, event.event.summary);
      else if (event.event.type === 'model_streaming' && event.event.tokensPerSecond !== null)
        say(event.attempt, `writing, ${event.event.tokensPerSecond.toFixed(1)} tokens/s`);
      return;
    case 'attempt_finished': {
      slot.attemptSlots.get(event.attempt)?.ended.resolve({ passed: event.passed, reason: event.reason });
      const commands = slot.agent?.commands ?? null;
      if (!event.passed || commands === null) return;
      for (const name of commands) {
        const run = new Deferred<CommandRunRecord | null>();
        run.resolve(slot.agent?.runs.get(name) ?? null);
        slot.runs.set(name, run);
      }
      slot.verifying.resolve(commands);
      return;
    }
  }
}
