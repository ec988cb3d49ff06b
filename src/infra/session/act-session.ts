/**
 * An act session's files kept in step with its events: every event is appended to audit.jsonl
 * with its time and step, and state.json is rewritten at every transition (a step starts, a step
 * ends, the session ends). Once state.json records a step, the write-back journal of that step
 * goes: from then on a resume knows the step is done without it.
 */
import { join } from 'node:path';
import type { AideEvent } from '../../core/events.js';
import type {
  KeptStep,
  SessionLog,
  SessionPlan,
  SessionRecord as SessionState,
  SessionStatus,
  SessionStepRecord as SessionStep,
  StepOutcome,
} from '../../core/ports/session-store.js';
import type { SessionFiles } from './session-files.js';
import { recordedStatus, SESSION_SCHEMA } from './session-state.js';
import { removeWriteBackJournal } from './write-back-journal.js';

/** The plan's own fields of state.json. */
function about(plan: SessionPlan): Pick<SessionState, 'plan' | 'planHash' | 'title' | 'only'> {
  return { plan: plan.plan, planHash: plan.planHash, title: plan.title, only: plan.only };
}

export class ActSessionLog implements SessionLog {
  /** The step the events belong to (null between steps). */
  private current: number | null = null;
  /** The attempt under way at the current step (1 unless a model step tried again). */
  private attempt = 1;
  private endedAs: SessionStatus | null = null;

  private constructor(
    readonly files: SessionFiles,
    private state: SessionState,
    private readonly now: () => Date,
  ) {}

  /** A new session: every step pending, the head at the base. */
  static async start(
    files: SessionFiles,
    session: { session: string; dryRun: boolean; base: string },
    plan: SessionPlan,
    now: () => Date,
  ): Promise<ActSessionLog> {
    const time = now().toISOString();
    const steps = plan.steps.map((s): SessionStep => ({
      number: s.number,
      title: s.title,
      status: 'pending',
      checkpoint: null,
      hash: s.hash,
      output: null,
    }));
    const state: SessionState = {
      schema: SESSION_SCHEMA,
      session: session.session,
      ...about(plan),
      dryRun: session.dryRun,
      base: session.base,
      head: session.base,
      status: 'running',
      startedAt: time,
      updatedAt: time,
      steps,
    };
    const log = new ActSessionLog(files, state, now);
    await log.save();
    return log;
  }

  /** An interrupted session carried on: running again, its plan adopted once the resume goes ahead. */
  static async resume(files: SessionFiles, previous: SessionState, now: () => Date): Promise<ActSessionLog> {
    const log = new ActSessionLog(files, { ...previous, status: 'running' }, now);
    await log.save();
    return log;
  }

  get snapshot(): Readonly<SessionState> {
    return this.state;
  }

  logDir(step: number): string {
    return join(this.files.logs, `step-${step}`);
  }

  /**
   * The plan as it is now: finished steps keep what they recorded (with the step's new hash),
   * every other step is pending again, and removed steps go (the audit log keeps their story).
   */
  async adoptPlan(
    plan: SessionPlan,
    done: readonly KeptStep[],
    earlier: Parameters<SessionLog['adoptPlan']>[2],
  ): Promise<void> {
    const finished = new Map(done.map((d) => [d.number, d]));
    const recorded = new Map(this.state.steps.map((s) => [s.number, s]));
    const carried = new Map(earlier.map((e) => [e.step, e.attempts]));
    const steps = plan.steps.map((s): SessionStep => {
      const before = finished.get(s.number);
      // A finished step keeps its attempts; one run again keeps those it carries on from.
      const attempts =
        before === undefined
          ? carried.get(s.number)?.map((a) => ({ ...a, passed: false }))
          : recorded.get(s.number)?.attempts;
      return {
        number: s.number,
        title: s.title,
        status: before?.status ?? 'pending',
        checkpoint: before?.checkpoint ?? null,
        hash: s.hash,
        output: before?.output ?? null,
        ...(attempts === undefined || attempts.length === 0 ? {} : { attempts }),
      };
    });
    this.state = { ...this.state, ...about(plan), steps };
    await this.save();
  }

  async event(event: AideEvent): Promise<void> {
    if (event.type === 'step_started') {
      this.current = event.step;
      this.attempt = 1;
    }
    // A model step's verify runs and checkpoint belong to the attempt under way.
    if (event.type === 'attempt_started') this.attempt = event.attempt;
    await this.files.audit(event, this.current, this.now(), this.attempt);
    if (event.type === 'step_started') {
      this.setStep(event.step, { title: event.title, status: 'running' });
      await this.save();
    } else if (event.type === 'attempt_finished') {
      const before = this.state.steps.find((s) => s.number === event.step)?.attempts ?? [];
      const attempt = {
        attempt: event.attempt,
        passed: event.passed,
        reason: event.reason,
        ...(event.feedback === null ? {} : { feedback: event.feedback }),
      };
      this.setStep(event.step, { attempts: [...before, attempt] });
      await this.save();
    } else if (event.type === 'step_finished') {
      const { report } = event;
      this.setStep(report.number, {
        status: recordedStatus(report.status),
        checkpoint: report.checkpoint,
        output: report.output,
      });
      if ((report.status === 'applied' || report.status === 'verified') && report.checkpoint !== null)
        this.state = { ...this.state, head: report.checkpoint };
      await this.save();
      // Recorded: the step no longer needs its journal (an applied one was wholly written, a conflicted one not at all).
      await removeWriteBackJournal(this.files.dir);
      this.current = null;
    }
  }

  /** The session's end: each step as it ended, and how the session ended. */
  async end(status: SessionStatus, steps: readonly StepOutcome[] | null): Promise<void> {
    for (const step of steps ?? [])
      this.setStep(step.number, {
        status: recordedStatus(step.status),
        checkpoint: step.checkpoint,
        output: step.output,
      });
    this.state = { ...this.state, status };
    this.endedAs = status;
    await this.save();
  }

  /** How the session ended, once `end` recorded it; null while it runs. */
  get ended(): SessionStatus | null {
    return this.endedAs;
  }

  private setStep(number: number, change: Partial<SessionStep>): void {
    const steps = this.state.steps.map((s) => (s.number === number ? { ...s, ...change } : s));
    this.state = { ...this.state, steps };
  }

  private async save(): Promise<void> {
    this.state = { ...this.state, updatedAt: this.now().toISOString() };
    await this.files.writeState(this.state);
  }
}
