/**
 * aide act (DESIGN.md, "The act step"): each step of a plan is carried out in the scratch
 * copy — its edits (from the step's author: the plan's written edits, or the Act-mode agent), its
 * Run commands, the verify commands — and only a verified step is shown for approval,
 * checkpointed on the session's branch and written into the workspace (unless a dry run). The
 * first step that fails stops the run; a skipped step leaves the scratch as it was before it.
 *
 * The parts: act-types.ts (the nouns), step-author.ts and step-agent.ts (where edits come from),
 * step-attempt.ts (an attempt and the retries), step-edits.ts and step-run.ts (an attempt's apply
 * and run); the review and record of a verified step are here.
 */
import type { AideEvent } from '../events.js';
import { aloneTemplateProblem } from '../plan/templates.js';
import type { StepDecision } from '../ports/approval.js';
import type { ScratchCapture } from '../ports/scratch.js';
import {
  stepReport,
  type ActDeps,
  type ActInput,
  type ActReport,
  type ActStep,
  type StepContext,
  type StepReport,
  type StepStatus,
} from './act-types.js';
import { attemptsAt, type Verified } from './step-attempt.js';

export type * from './act-types.js';
export { stepReport } from './act-types.js';
export { commandText } from './step-run.js';
export { attemptStep, type Attempt, type Verified } from './step-attempt.js';
export { writtenEdits } from './step-author.js';

// Short local names for the review and record below.
const report = stepReport;
type Context = StepContext;

/** Verified and approved: recorded, then written (or, in a dry run, only recorded). */
async function* record(
  step: ActStep,
  ctx: Context,
  capture: ScratchCapture,
  verified: Verified,
): AsyncGenerator<AideEvent, StepReport> {
  const { recorder } = ctx.deps;
  const { verify } = verified;
  const checkpoint = await recorder.checkpointTree(capture.tree, {
    step: String(step.number),
    verdict: verify.summary,
    message: `step ${step.number}: ${step.title}`,
    from: { checkpoint: ctx.head, tree: capture.base, filesChanged: capture.changes.length },
  });
  yield { type: 'checkpoint_created', result: { checkpoint, created: true, skipped: [] } };
  ctx.head = checkpoint.id;
  if (ctx.input.dryRun) return report(step, 'verified', null, { ...verified, checkpoint: checkpoint.id });
  const written = await recorder.writeBack(capture.changes, {
    step: step.number,
    checkpoint: checkpoint.id,
    from: capture.base,
    output: ctx.outputs.get(step.number) ?? null,
  });
  if (written.conflicts.length > 0) {
    const patchFile = await recorder.saveFile(
      `step-${step.number}.patch`,
      await recorder.diff(capture.base, capture.tree),
    );
    const paths = written.conflicts.map((c) => `${c.path} (${c.reason})`).join(', ');
    return report(step, 'conflict', `files changed under aide since the step started: ${paths}`, {
      ...verified,
      checkpoint: checkpoint.id,
      patchFile,
    });
  }
  yield { type: 'patch_applied', files: verified.files, written: true };
  return report(step, 'applied', null, { ...verified, checkpoint: checkpoint.id });
}

/** Asks whether to write a verified step; dry runs write nothing, so they never ask. */
async function* approve(
  step: ActStep,
  ctx: Context,
  verified: Verified,
): AsyncGenerator<AideEvent, StepDecision> {
  if (ctx.input.dryRun) return { kind: 'approve' };
  const { files, protectedFiles, verify, attempt } = verified;
  const review = {
    step: step.number,
    title: step.title,
    verdict: verify.summary,
    ...(attempt === undefined ? {} : { attempt }),
    files,
    protectedFiles,
  };
  // The event names the files without their diffs (the approver gets those).
  const named = files.map((f) => ({ path: f.path, action: f.action, added: f.added, removed: f.removed }));
  yield { type: 'approval_requested', subject: { kind: 'step', ...review, files: named } };
  const decision = await ctx.deps.approver.reviewStep(review);
  yield { type: 'approval_decided', approved: decision.kind === 'approve', decision: decision.kind };
  return decision;
}

/** The step's report for a decision other than approve. */
function declined(
  step: ActStep,
  decision: Exclude<StepDecision, { kind: 'approve' }>,
  verified: Verified,
): StepReport {
  switch (decision.kind) {
    case 'skip':
      return report(step, 'skipped', decision.reason ?? 'not approved', verified);
    case 'abort':
      return report(
        step,
        'aborted',
        'you stopped the session here; nothing of this step was written',
        verified,
      );
    case 'refuse':
      return report(step, 'refused', decision.reason, verified);
  }
}

/** One step, start to end; never throws for a step that fails (the report says why). */
async function* actStep(step: ActStep, ctx: StepContext): AsyncGenerator<AideEvent, StepReport> {
  const { deps, input } = ctx;
  const alone =
    input.alone === true ? aloneTemplateProblem([...step.run.flat(), step.edits], step.number) : undefined;
  if (alone !== undefined) return stepReport(step, 'failed', alone);
  // Back to the session head: whatever a failed or skipped step left in the scratch is dropped.
  await deps.scratch.moveTo(ctx.head);
  const attempt = yield* attemptsAt(step, ctx);
  if (attempt.kind !== 'verified') return attempt.report;
  // Nothing runs in the scratch again before the next step's move, which needs the sweep the
  // verification made necessary: begun now, it runs while this step is reviewed and recorded.
  // Not after the last step (the next session sweeps anyway) nor after a failed one (it stops).
  if (step !== input.steps.at(-1)) void deps.scratch.settle?.();
  const { capture, verified } = attempt;
  const decision = yield* approve(step, ctx, verified);
  if (decision.kind !== 'approve') return declined(step, decision, verified);
  return yield* record(step, ctx, capture, verified);
}

const STOPS: ReadonlySet<StepStatus> = new Set(['failed', 'conflict', 'refused', 'aborted', 'cancelled']);

/** Whether a step that ended so ends the session: later steps are not run. */
export function stopsSession(status: StepStatus): boolean {
  return STOPS.has(status);
}

/** Carries out the steps in order; stops at the first that fails, conflicts, is refused, aborted or interrupted. */
export async function* actFlow(input: ActInput, deps: ActDeps): AsyncGenerator<AideEvent, ActReport> {
  const earlier = new Map((input.resume?.done ?? []).map((d) => [d.number, d]));
  // A resumed session's templates see the outputs its finished steps recorded.
  const outputs = new Map(
    [...earlier.values()].flatMap((d) => (d.output === null ? [] : [[d.number, d.output] as const])),
  );
  const ctx: StepContext = {
    input,
    deps,
    outputs,
    head: input.resume?.head ?? input.base,
    verifyRuns: 0,
  };
  const steps: StepReport[] = [];
  let stopped = false;
  for (const step of input.steps) {
    const before = earlier.get(step.number);
    if (before !== undefined) {
      steps.push(
        stepReport(
          step,
          before.status,
          before.status === 'skipped' ? 'skipped before the session was resumed' : null,
          { checkpoint: before.checkpoint, output: before.output },
        ),
      );
      continue;
    }
    if (stopped || input.signal?.aborted === true) {
      steps.push(stepReport(step, input.signal?.aborted === true ? 'cancelled' : 'not_run', null));
      continue;
    }
    yield { type: 'step_started', step: step.number, title: step.title };
    const done: StepReport = { ...(yield* actStep(step, ctx)), output: ctx.outputs.get(step.number) ?? null };
    steps.push(done);
    yield { type: 'step_finished', report: done };
    stopped = STOPS.has(done.status);
  }
  const patch = ctx.head === input.base ? '' : await deps.recorder.diff(input.base, ctx.head);
  const result: ActReport = {
    session: input.session,
    dryRun: input.dryRun,
    steps,
    base: input.base,
    head: ctx.head,
    patch,
  };
  yield { type: 'session_finished', report: result };
  return result;
}
