/**
 * An act session around the act flow: started (its first checkpoint is the workspace as it
 * was: the undo target) or resumed (an interrupted write-back finished first, a changed plan
 * said and asked about, the finished steps skipped), every event recorded in the session's
 * log before anyone sees it, and its end recorded with how it ended, as an exit code says it.
 *
 * A class because the session's log must outlive a failure anywhere in between: an error in
 * aide records the session as crashed instead of leaving it `running`.
 */
import { AideError, ExitCode } from '../../shared/errors.js';
import type { AideEvent } from '../events.js';
import type { Approver } from '../ports/approval.js';
import type {
  OpenSession,
  SessionLog,
  SessionPlan,
  SessionStatus,
  SessionStore,
} from '../ports/session-store.js';
import { actFlow, type ActDeps, type ActInput, type ActReport, type ActResume } from './act.js';
import { resumeFlow } from './act-resume.js';
import { refusePendingWriteBacks, resumeCommand, type ResumableSession } from './session-select.js';

/** How a session begins. */
export interface SessionRequest {
  plan: SessionPlan;
  dryRun: boolean;
  /** The session `--resume` carries on; null: a new one. */
  resuming: ResumableSession | null;
}

export interface SessionDeps {
  sessions: SessionStore;
  /** Asks whether to carry on with a plan that changed since the session stopped. */
  approver: Approver;
}

/** A session ready for the act flow, or the exit code of one that goes no further. */
export type SessionOpening =
  { kind: 'open'; session: OpenSession; resume: ActResume | undefined } | { kind: 'ended'; exitCode: number };

/** The act flow's input less what the session provides (its id, base, logs and resume point). */
export type SessionActInput = Omit<ActInput, 'session' | 'base' | 'logDir' | 'resume'>;

/** 128 + SIGINT: a step cancelled with no signal received still ends as an interrupt does. */
const SIGINT_EXIT = 130;

/** The exit code of a finished act flow; `interrupted` is the signal's exit code, if one came. */
export function sessionExitCode(report: ActReport, interrupted: number | null): number {
  if (interrupted !== null || report.steps.some((s) => s.status === 'cancelled'))
    return interrupted ?? SIGINT_EXIT;
  if (report.steps.some((s) => s.status === 'conflict')) return ExitCode.conflict;
  if (report.steps.some((s) => s.status === 'aborted')) return ExitCode.aborted;
  if (report.steps.some((s) => s.status === 'refused')) return ExitCode.approvalNeeded;
  // A model that could not be used is exit 3 (DESIGN.md), like a model missing before the session.
  if (report.steps.some((s) => s.status === 'failed' && s.modelUnavailable === true))
    return ExitCode.modelUnavailable;
  if (report.steps.some((s) => s.status === 'failed')) return ExitCode.failed;
  return ExitCode.ok;
}

/** How a session ends, by its exit code: anything but done or interrupted stopped at a step. */
export function sessionStatus(code: number): SessionStatus {
  if (code === 0) return 'finished';
  return code >= 128 ? 'interrupted' : 'stopped';
}

export class ActSession {
  /** The session's log once there is one: where its end (or its crash) is recorded. */
  private log: SessionLog | undefined;
  private opened: OpenSession | undefined;

  constructor(private readonly deps: SessionDeps) {}

  /**
   * Starts or resumes the session. A session whose write-back was killed half way blocks every
   * other: the workspace may be partly written. A resume's own events are recorded and yielded.
   */
  async *open(request: SessionRequest): AsyncGenerator<AideEvent, SessionOpening> {
    const { sessions } = this.deps;
    refusePendingWriteBacks(await sessions.list(), request.resuming?.session ?? null);
    if (request.resuming === null) {
      const session = await sessions.start({
        plan: request.plan,
        dryRun: request.dryRun,
        message: `before aide act: ${request.plan.title}`,
      });
      this.log = session.log;
      this.opened = session;
      return { kind: 'open', session, resume: undefined };
    }
    const { state } = request.resuming;
    const session = await sessions.reopen(request.resuming);
    this.log = session.log;
    const flow = resumeFlow(
      {
        session: state.session,
        dryRun: state.dryRun,
        head: state.head,
        recorded: state.steps,
        steps: request.plan.steps,
        planChanged: state.planHash !== request.plan.planHash,
      },
      { approver: this.deps.approver, recorder: session.recorder },
    );
    const outcome = yield* this.recorded(flow);
    switch (outcome.kind) {
      case 'carry_on':
        await session.log.adoptPlan(request.plan, outcome.resume.done, outcome.resume.earlier ?? []);
        this.opened = session;
        return { kind: 'open', session, resume: outcome.resume };
      case 'conflict':
        await session.log.end('stopped', null);
        return { kind: 'ended', exitCode: ExitCode.conflict };
      case 'declined':
        await session.log.end(state.status === 'running' ? 'interrupted' : state.status, null);
        throw new AideError(
          'aborted',
          `session ${state.session} was not resumed: the plan changed since, and you chose not to carry on`,
          {
            hint: `The session stays as it was: \`${resumeCommand(state.dryRun)}\` asks again, \`aide act\` starts a new one.`,
          },
        );
    }
  }

  /** The act flow in the open session, every event recorded before it is yielded. */
  async *carryOut(
    input: SessionActInput,
    deps: Omit<ActDeps, 'recorder'>,
    resume: ActResume | undefined,
  ): AsyncGenerator<AideEvent, ActReport> {
    const session = this.opened;
    if (session === undefined) throw new Error('carryOut before the session is open');
    const flow = actFlow(
      {
        ...input,
        session: session.session,
        base: session.base,
        logDir: (step) => session.log.logDir(step),
        ...(resume === undefined ? {} : { resume }),
      },
      { ...deps, recorder: session.recorder },
    );
    return yield* this.recorded(flow);
  }

  /** Records the session's end; its exit code (`interrupted`: a signal's exit code, if one came). */
  async end(report: ActReport, interrupted: number | null): Promise<number> {
    const code = sessionExitCode(report, interrupted);
    await this.log?.end(sessionStatus(code), report.steps);
    return code;
  }

  /**
   * An error stopped the session before it ended: recorded as crashed (an error in aide) or
   * stopped (an AideError says what to do). True when the session is now recorded as crashed
   * (the error should say how to carry it on). The error is what matters: a state.json that
   * cannot be written now says `running`, as after a kill.
   */
  async fail(error: unknown): Promise<boolean> {
    const log = this.log;
    if (log === undefined || log.ended !== null) return false;
    const crashed = !(error instanceof AideError);
    const recorded = await log.end(crashed ? 'crashed' : 'stopped', null).then(
      () => true,
      () => false,
    );
    return crashed && recorded;
  }

  /** The session's id and kind once it has a log. */
  get current(): { session: string; dryRun: boolean } | undefined {
    return this.log === undefined
      ? undefined
      : { session: this.log.snapshot.session, dryRun: this.log.snapshot.dryRun };
  }

  /** Each event of `flow` appended to the session's log, then yielded. */
  private async *recorded<R>(flow: AsyncGenerator<AideEvent, R>): AsyncGenerator<AideEvent, R> {
    const log = this.log;
    if (log === undefined) throw new Error('no session log to record in');
    let next = await flow.next();
    while (next.done !== true) {
      await log.event(next.value);
      yield next.value;
      next = await flow.next();
    }
    return next.value;
  }
}
