/**
 * The attempts at a step: one attempt (apply → run → capture → verify, in the scratch), and the
 * retries of an author that can answer differently when asked again (the Act-mode agent).
 *
 * Retries carry on from the scratch as the model left it, not from the step's start: the agent's
 * conversation carries on too (its next request extends the last one, so the server's prompt
 * cache keeps hitting), and a model told "your change failed this test" reasons about the files
 * it just wrote; moving them back under it would make its own history false, and the measured
 * scenarios (test/e2e/act-model*.test.ts) fix the one wrong line rather than redo the step. A
 * step of written edits has one attempt: asked again it would give the same edits.
 *
 * A session resumed after Ctrl-C or a kill carries a step's count on: the attempts state.json
 * recorded as ended keep their numbers and the interrupted one starts again as itself, with the
 * attempts left of `maxAttempts`. Its author starts a fresh conversation from the step's start
 * (the scratch was swept back; the old conversation is not kept), told how the earlier attempts
 * failed (step-agent.ts).
 *
 * An attempt the agent ended without finishing (its slips: mistakes in a row, no finish within
 * the turns) is retried like a failed verification; one whose model is gone is not.
 *
 * The step ends at the first attempt that passes, after `maxAttempts`, or early when an attempt
 * failed the same way as the one before (the same tree: the same edit; or the same failure
 * output, numbers aside): a model repeating itself will not do better on a third try. With no
 * attempt passed, the best one (fewest failing commands, then fewest failing tests) is the
 * step's report, with its output tail; nothing of it is written.
 */
import type { AideEvent } from '../events.js';
import type { ChangedFile } from '../ports/changes.js';
import type { ProtectedChange } from '../ports/approval.js';
import type { ScratchCapture } from '../ports/scratch.js';
import { findProtected } from '../security/protected-paths.js';
import type { VerifyReport } from '../verify/report.js';
import { stepCommands } from '../verify/select-commands.js';
import {
  stepReport,
  type ActStep,
  type AttemptFailure,
  type Authored,
  type EarlierAttempt,
  type StepContext,
  type StepReport,
} from './act-types.js';
import {
  attemptScore,
  betterThan,
  describeScore,
  failureFingerprint,
  failureForModel,
  type AttemptScore,
} from './attempt-failure.js';
import { applyEdits, droppedEdits } from './step-edits.js';
import { runCommands } from './step-run.js';
import { verifyFlow } from './verify.js';

type Context = StepContext;

/** What a verified step is known by from here on: its files, the protected ones among them, its verification. */
export interface Verified {
  files: ChangedFile[];
  protectedFiles: ProtectedChange[];
  verify: VerifyReport;
  /** Which attempt passed, for a step that took more than one. */
  attempt?: { number: number; of: number };
}

/** The changed files protected_paths covers; a `#/pointer` rule reads the file's content on both sides. */
function protectedChanges(capture: ScratchCapture, ctx: Context): Promise<ProtectedChange[]> {
  const { recorder } = ctx.deps;
  const read = (blob: string | null) => () =>
    blob === null ? Promise.resolve(null) : recorder.readBlob(blob);
  return findProtected(
    ctx.input.protectedPaths,
    capture.changes.map((change) => ({
      path: change.path,
      before: read(change.oldBlob),
      after: read(change.newBlob),
    })),
    { caseInsensitive: ctx.input.protectedCaseInsensitive === true },
  );
}

/**
 * One attempt at a step, once its author gave the edits: apply → run → capture → verify, in
 * the scratch at the session's head. A failed attempt says why (what an author asked again is
 * told); a retry loop wraps this, moving the scratch back to the head first.
 */
export type Attempt =
  /** `tree`: what the scratch held when it was captured (null: the attempt failed before). */
  | { kind: 'failed'; failure: AttemptFailure; report: StepReport; tree?: string; retry?: boolean }
  /** Nothing changed: the step is skipped. */
  | { kind: 'unchanged'; report: StepReport }
  | { kind: 'verified'; capture: ScratchCapture; verified: Verified };

function failed(
  step: ActStep,
  stage: AttemptFailure['stage'],
  reason: string,
  extra: {
    status?: 'failed' | 'cancelled';
    files?: ChangedFile[];
    verify?: VerifyReport;
    modelUnavailable?: true;
  } = {},
): Failed {
  const { status = 'failed', ...found } = extra;
  return {
    kind: 'failed',
    failure: { stage, reason, verify: found.verify ?? null },
    report: stepReport(step, status, reason, found),
  };
}

export async function* attemptStep(
  step: ActStep,
  authored: Extract<Authored, { ok: true }>,
  ctx: StepContext,
): AsyncGenerator<AideEvent, Attempt> {
  const { deps, input } = ctx;
  // Edits first, then Run commands (a generator regenerates from what the edits changed), then verify.
  const edited = await applyEdits(authored.edits, ctx);
  if (!edited.ok) return failed(step, 'edits', edited.reason);
  const ran = await runCommands(step, ctx);
  if (!ran.ok)
    return failed(step, 'run', ran.reason, { status: ran.cancelled === true ? 'cancelled' : 'failed' });
  ctx.outputs.set(step.number, ran.value);
  const capture = await deps.scratch.capture();
  // What an agent wrote itself is in the scratch already: checked against the capture the same way.
  const written = [...new Set([...(authored.written ?? []), ...edited.value.written])];
  const dropped = await droppedEdits(written, capture, ctx);
  if (dropped !== null) return failed(step, 'capture', dropped);
  if (capture.changes.length === 0) {
    return {
      kind: 'unchanged',
      report: stepReport(
        step,
        'skipped',
        edited.value.alreadyApplied
          ? 'already applied: its edits are already in the files'
          : 'the step changes no file',
      ),
    };
  }
  const files = await deps.scratch.changedFiles(capture);
  yield {
    type: 'step_edited',
    step: step.number,
    files: files.map((f) => ({ path: f.path, action: f.action, added: f.added, removed: f.removed })),
  };
  const verify: VerifyReport = yield* verifyFlow(
    {
      cwd: deps.scratch.path,
      commands: stepCommands(input.commands, step.verify ?? []),
      policy: input.policy,
      userEnv: input.userEnv,
      logDir: input.logDir(step.number),
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      // The captured tree is all a verification needs: what the commands write is thrown away
      // where the runner can, so the scratch holds the capture after them (nothing to sweep).
      layer: `step ${step.number}, verify run ${++ctx.verifyRuns}`,
    },
    { runner: deps.runner, now: deps.now },
  );
  if (verify.verdict !== 'passed')
    return {
      ...failed(step, 'verify', verify.summary, {
        status: verify.verdict === 'cancelled' ? 'cancelled' : 'failed',
        files,
        verify,
      }),
      tree: capture.tree,
    };
  return {
    kind: 'verified',
    capture,
    verified: { files, protectedFiles: await protectedChanges(capture, ctx), verify },
  };
}

type Failed = Extract<Attempt, { kind: 'failed' }>;

/** The best failed attempt so far. */
interface Best {
  attempt: number;
  failed: Failed;
  score: AttemptScore;
}

/** The attempts at a step from the scratch at the session's head; see the module comment. */
export async function* attemptsAt(step: ActStep, ctx: Context): AsyncGenerator<AideEvent, Attempt> {
  const { deps, input } = ctx;
  const retries = deps.author.retries?.(step) === true;
  const max = retries ? Math.max(1, input.maxAttempts ?? 1) : 1;
  // A resumed step keeps its earlier attempts' numbers: the interrupted one starts again as itself.
  const earlier = retries ? earlierAttempts(ctx, step.number) : [];
  const first = earlier.length + 1;
  if (first > max) return allEarlierFailed(step, earlier);
  let previous = null as Failed | null;
  let best: Best | null = null;
  for (let attempt = first; attempt <= max; attempt++) {
    if (retries) yield { type: 'attempt_started', step: step.number, attempt, maxAttempts: max };
    const told = attempt === first ? earlier : [];
    const result: Attempt = yield* oneAttempt(step, ctx, attempt, previous?.failure ?? null, told);
    // An attempt Ctrl-C stopped did not finish: a resume starts it again under its number.
    if (retries && !(result.kind === 'failed' && result.report.status === 'cancelled'))
      yield {
        type: 'attempt_finished',
        step: step.number,
        attempt,
        passed: result.kind !== 'failed',
        reason: result.kind === 'failed' ? result.failure.reason : null,
        feedback: result.kind === 'failed' ? failureForModel(result.failure, input.policy.tailBytes) : null,
      };
    if (result.kind === 'verified' && attempt > 1)
      return { ...result, verified: { ...result.verified, attempt: { number: attempt, of: max } } };
    if (result.kind !== 'failed' || !retries || result.report.status === 'cancelled') return result;
    // The author gave up for good (its model is gone): asking it again would not help.
    if (result.failure.stage === 'author' && result.retry !== true) return result;
    const score = attemptScore(result.failure);
    if (best === null || betterThan(score, best.score)) best = { attempt, failed: result, score };
    if (previous !== null && sameFailure(previous, result))
      return await bestAttempt(
        ctx,
        best,
        attempt,
        `attempt ${attempt} failed the same way as attempt ${attempt - 1}`,
      );
    previous = result;
  }
  if (best === null) throw new Error('attemptsAt: no attempt was made');
  return await bestAttempt(ctx, best, max, null);
}

/** The attempts a resumed session's state.json says the step ended before it stopped. */
function earlierAttempts(ctx: Context, step: number): readonly EarlierAttempt[] {
  return ctx.input.resume?.earlier?.find((e) => e.step === step)?.attempts ?? [];
}

/** Every attempt was made (and failed) before the session stopped: nothing is left to try. */
function allEarlierFailed(step: ActStep, earlier: readonly EarlierAttempt[]): Attempt {
  const last = earlier.at(-1);
  const reason = `no attempt passed (${earlier.length} attempts, before the session was resumed); the last failed: ${last?.reason ?? '?'}`;
  return failed(step, 'author', reason);
}

/** One attempt: the author asked (again, with why the last one failed), then its edits tried. */
async function* oneAttempt(
  step: ActStep,
  ctx: Context,
  attempt: number,
  previous: AttemptFailure | null,
  earlier: readonly EarlierAttempt[],
): AsyncGenerator<AideEvent, Attempt> {
  const { deps, input } = ctx;
  const authored = yield* deps.author.author({
    step,
    outputs: ctx.outputs,
    cwd: deps.scratch.path,
    previous,
    attempt,
    ...(earlier.length === 0 ? {} : { earlier }),
    context: ctx,
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  if (!authored.ok) {
    const status = authored.cancelled === true ? { status: 'cancelled' as const } : {};
    const gone = authored.modelUnavailable === true ? { modelUnavailable: true as const } : {};
    const gaveUp = failed(step, 'author', authored.reason, { ...status, ...gone });
    // A slip of the model (not a model that is gone) is worth another attempt.
    return authored.retry === true ? { ...gaveUp, retry: true } : gaveUp;
  }
  return yield* attemptStep(step, authored, ctx);
}

/** The same edit (the scratch's tree) or the same failure output as the attempt before. */
function sameFailure(a: Failed, b: Failed): boolean {
  if (a.tree !== undefined && a.tree === b.tree) return true;
  return failureFingerprint(a.failure) === failureFingerprint(b.failure);
}

/**
 * No attempt passed: the best one is the step's report, said so, with its files, its output tail
 * and its patch saved in the session's folder for a person to look at (never written).
 */
async function bestAttempt(ctx: Context, best: Best, made: number, early: string | null): Promise<Attempt> {
  if (made === 1) return best.failed;
  const how = early === null ? `${made} attempts` : `${made} attempts; stopped early: ${early}`;
  const score = describeScore(best.score);
  const told = failureForModel(best.failed.failure, ctx.input.policy.tailBytes).split('\n').slice(1);
  const reason = [
    `failed verification — review carefully: no attempt passed (${how}); the best, attempt ${best.attempt} (${score}), is not written:`,
    best.failed.failure.reason,
    ...told,
  ].join('\n');
  const { recorder } = ctx.deps;
  const { tree } = best.failed;
  const patch = tree === undefined ? '' : await recorder.diff(ctx.head, tree);
  const patchFile =
    patch === ''
      ? null
      : await recorder.saveFile(`step-${best.failed.report.number}-attempt-${best.attempt}.patch`, patch);
  const bestAttempt = { attempt: best.attempt, made, score, tail: told.join('\n').trim() };
  return { ...best.failed, report: { ...best.failed.report, reason, patchFile, bestAttempt } };
}
