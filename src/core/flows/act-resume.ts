/**
 * Carrying on an interrupted act session (`aide act --resume`): what its state.json recorded,
 * against the plan as it is now. Steps that finished are not run again. A write-back that a kill
 * interrupted is rolled forward first: its step was verified, approved and checkpointed, so the
 * workspace is made wholly after it (or, if a file changed meanwhile, the step is a conflict and
 * its verified patch is saved). When the plan changed since, the changed, added and removed
 * steps are named, and the person is asked before carrying on.
 */
import type { AideEvent } from '../events.js';
import type { Approver } from '../ports/approval.js';
import type { PendingWriteBack, SessionRecorder } from '../ports/session.js';
import type { PlanChange, StepReport, StepStatus } from '../act-report.js';
import type { ActResume, DoneStep, EarlierAttempt } from './act.js';

/** A step as state.json recorded it. */
export interface RecordedStep {
  number: number;
  title: string;
  status: StepStatus | 'pending' | 'running';
  checkpoint: string | null;
  hash: string;
  output: string | null;
  /** A model step's attempts as each ended. */
  attempts?: ReadonlyArray<{
    attempt: number;
    passed: boolean;
    reason: string | null;
    feedback?: string | null;
  }>;
}

export interface ResumeInput {
  session: string;
  dryRun: boolean;
  /** state.json's head: the checkpoint of the last finished step. */
  head: string;
  recorded: readonly RecordedStep[];
  /** The plan's steps now, each with its content hash. */
  steps: ReadonlyArray<{ number: number; title: string; hash: string }>;
  /** The plan file's text differs from what the session last ran. */
  planChanged: boolean;
}

export interface ResumeDeps {
  approver: Approver;
  recorder: SessionRecorder;
}

export type ResumeOutcome =
  | { kind: 'carry_on'; resume: ActResume }
  /** The plan changed and the person said no. */
  | { kind: 'declined' }
  /** An interrupted write-back could not be finished: files changed under aide. */
  | { kind: 'conflict'; report: StepReport };

function finished(status: RecordedStep['status']): status is DoneStep['status'] {
  return status === 'applied' || status === 'verified' || status === 'skipped';
}

/**
 * The failed attempts of each step the resume runs again, as state.json recorded them: its count
 * carries on from them. A step whose content changed since starts afresh; an attempt that passed
 * but was not written (stopped at its review) is made again, under its own number.
 */
export function earlierAttempts(
  recorded: readonly RecordedStep[],
  current: ReadonlyArray<{ number: number; hash: string }>,
): NonNullable<ActResume['earlier']> {
  const now = new Map(current.map((s) => [s.number, s.hash]));
  return recorded.flatMap((s) => {
    if (finished(s.status) || now.get(s.number) !== s.hash) return [];
    const attempts: EarlierAttempt[] = (s.attempts ?? [])
      .filter((a) => !a.passed)
      .map((a) => ({ attempt: a.attempt, reason: a.reason, feedback: a.feedback ?? null }));
    return attempts.length === 0 ? [] : [{ step: s.number, attempts }];
  });
}

/** Which steps changed, appeared or went, by number and content hash; in step order. */
export function comparePlanSteps(
  recorded: readonly RecordedStep[],
  current: ReadonlyArray<{ number: number; hash: string }>,
): PlanChange[] {
  const before = new Map(recorded.map((s) => [s.number, s]));
  const now = new Set(current.map((s) => s.number));
  const changes: PlanChange[] = [];
  for (const step of current) {
    const old = before.get(step.number);
    if (old === undefined) changes.push({ step: step.number, kind: 'added', done: false });
    else if (old.hash !== step.hash)
      changes.push({ step: step.number, kind: 'changed', done: finished(old.status) });
  }
  for (const old of recorded)
    if (!now.has(old.number)) changes.push({ step: old.number, kind: 'removed', done: finished(old.status) });
  return changes.sort((a, b) => a.step - b.step);
}

/** Rolls an interrupted write-back forward: the step's events, and the step as it ended. */
async function* finishWriteBack(
  pending: PendingWriteBack,
  input: ResumeInput,
  recorder: SessionRecorder,
): AsyncGenerator<AideEvent, StepReport> {
  const title =
    input.recorded.find((s) => s.number === pending.step)?.title ??
    input.steps.find((s) => s.number === pending.step)?.title ??
    '';
  yield { type: 'step_started', step: pending.step, title };
  const written = await recorder.finishWriteBack(pending);
  const patch = await recorder.diff(pending.from, pending.checkpoint);
  const files = await recorder.changedFiles(pending.from, pending.checkpoint);
  const base = {
    number: pending.step,
    title,
    files,
    protectedFiles: [],
    verify: null,
    checkpoint: pending.checkpoint,
    output: pending.output,
  };
  if (written.conflicts.length > 0) {
    const patchFile = await recorder.saveFile(`step-${pending.step}.patch`, patch);
    const paths = written.conflicts.map((c) => `${c.path} (${c.reason})`).join(', ');
    const reason = `the write was interrupted, and files changed under aide since: ${paths}`;
    return { ...base, status: 'conflict', reason, patchFile };
  }
  yield { type: 'patch_applied', files, written: true };
  return { ...base, status: 'applied', reason: null, patchFile: null };
}

/**
 * The start of a resumed session: says what is done and what changed, finishes an interrupted
 * write-back, asks about a changed plan (a dry run writes nothing, so it does not ask), and
 * returns where to carry on.
 */
export async function* resumeFlow(
  input: ResumeInput,
  deps: ResumeDeps,
): AsyncGenerator<AideEvent, ResumeOutcome> {
  const pending = await deps.recorder.pendingWriteBack();
  // The step being written counts as done: it was approved and checkpointed.
  const recorded = input.recorded.map((s) =>
    s.number === pending?.step ? { ...s, status: 'applied' as const } : s,
  );
  const changes = input.planChanged ? comparePlanSteps(recorded, input.steps) : null;
  const inPlan = new Set(input.steps.map((s) => s.number));
  const done: DoneStep[] = input.recorded.flatMap((s) =>
    finished(s.status) && inPlan.has(s.number)
      ? [{ number: s.number, status: s.status, checkpoint: s.checkpoint, output: s.output }]
      : [],
  );
  yield {
    type: 'session_resumed',
    session: input.session,
    done: done.map((d) => d.number),
    writeBack: pending === null ? null : { step: pending.step, files: pending.changes.length },
    planChanges: changes,
  };
  let head = input.head;
  if (pending !== null) {
    const rolled = yield* finishWriteBack(pending, input, deps.recorder);
    yield { type: 'step_finished', report: rolled };
    if (rolled.status === 'conflict') return { kind: 'conflict', report: rolled };
    head = rolled.checkpoint ?? head;
    // A kill after state.json recorded the step but before the journal went: it is listed already.
    if (inPlan.has(rolled.number) && !done.some((d) => d.number === rolled.number))
      done.push({
        number: rolled.number,
        status: 'applied',
        checkpoint: rolled.checkpoint,
        output: rolled.output,
      });
  }
  if (changes !== null && changes.length > 0 && !input.dryRun) {
    // The changes themselves were just shown (session_resumed).
    const subject = { kind: 'plan_changed' as const, changes };
    yield { type: 'approval_requested', subject };
    const approved = (await deps.approver.confirm(subject)) === 'yes';
    yield { type: 'approval_decided', approved };
    if (!approved) return { kind: 'declined' };
  }
  const earlier = earlierAttempts(recorded, input.steps);
  return {
    kind: 'carry_on',
    resume: {
      head,
      done: done.sort((a, b) => a.number - b.number),
      ...(earlier.length === 0 ? {} : { earlier }),
    },
  };
}
