/**
 * aide act without a model (DESIGN.md, "The act step"): each step of a plan whose edits are
 * written down is carried out in the scratch copy — its Run commands, its edits, the verify
 * commands — and only a verified step is shown for approval, checkpointed on the session's
 * branch and written into the workspace (unless a dry run). The first step that fails stops
 * the run; a skipped step leaves the scratch as it was before it.
 */
import type { AideEvent, ChangedFile } from '../events.js';
import type {
  Approver,
  CommandRunner,
  FileSystem,
  ProtectedChange,
  Scratch,
  ScratchCapture,
  SessionRecorder,
  StepDecision,
} from '../ports.js';
import { describeFailures } from '../edit/report-text.js';
import { diffStat } from '../edit/unified-diff.js';
import { aloneTemplateProblem, resolveTemplates } from '../plan/templates.js';
import { findProtected } from '../security/protected-paths.js';
import { plural } from '../../shared/text.js';
import type { VerifyReport } from '../verify/report.js';
import { stepCommands } from '../verify/select-commands.js';
import { applyFlow } from './apply.js';
import { commandEnvironment, verifyFlow, type VerifyCommand, type VerifyPolicy } from './verify.js';

/** The part of a plan step act carries out. */
export interface ActStep {
  number: number;
  title: string;
  run: ReadonlyArray<string | readonly string[]>;
  /** The edit blocks, verbatim (the formats `aide apply` accepts); '' when none. */
  edits: string;
  /** The step's Verify: names: optional commands it asks for, in addition to the others. */
  verify?: readonly string[];
}

/**
 * refused: verified, but the approver could not approve it (--yes and a protected file);
 * aborted: the user stopped the session at this step.
 */
export type StepStatus =
  | 'applied'
  | 'verified'
  | 'skipped'
  | 'failed'
  | 'conflict'
  | 'refused'
  | 'aborted'
  | 'not_run'
  | 'cancelled';

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

export interface ActInput {
  session: string;
  steps: readonly ActStep[];
  /** The session's first checkpoint: the workspace as it was. */
  base: string;
  dryRun: boolean;
  /** Every verify command, optional ones included: a step runs those not optional and those its Verify: names. */
  commands: readonly VerifyCommand[];
  /** `--step N`: the one step runs without the steps before it, so it has no earlier output for its templates. */
  alone?: boolean;
  policy: VerifyPolicy;
  /** sandbox.json allowed_commands: the only command lines a Run: may execute, exactly as written. */
  allowedCommands: readonly string[];
  /** config.json protected_paths: globs, or `glob#/pointer` for one value of a JSON file. */
  protectedPaths: readonly string[];
  /** Match protected paths without regard to case: the workspace's file system ignores it. */
  protectedCaseInsensitive?: boolean;
  userEnv: Readonly<Record<string, string | undefined>>;
  /** Folder for a step's logs: `<session>/logs/step-<n>`. */
  logDir: (step: number) => string;
  signal?: AbortSignal;
  /** Carrying on an interrupted session (`--resume`); absent for a new one. */
  resume?: ActResume;
}

/** A step a resumed session finished before: reported as it ended, not run again. */
export interface DoneStep {
  number: number;
  status: 'applied' | 'verified' | 'skipped';
  checkpoint: string | null;
  output: string | null;
}

export interface ActResume {
  /** The checkpoint of the last finished step: where the next step starts. */
  head: string;
  done: readonly DoneStep[];
}

export interface ActDeps {
  scratch: Scratch;
  runner: CommandRunner;
  /** Writes files inside the scratch (the edits). */
  fs: FileSystem;
  approver: Approver;
  recorder: SessionRecorder;
  now: () => number;
}

/** A Run command as written in the plan, the way allowed_commands lists it. */
export function commandText(run: string | readonly string[]): string {
  return typeof run === 'string' ? run : JSON.stringify(run);
}

function report(
  step: ActStep,
  status: StepStatus,
  reason: string | null,
  extra: Partial<StepReport> = {},
): StepReport {
  return {
    number: step.number,
    title: step.title,
    status,
    reason,
    files: [],
    protectedFiles: [],
    verify: null,
    checkpoint: null,
    patchFile: null,
    output: null,
    ...extra,
  };
}

interface Context {
  input: ActInput;
  deps: ActDeps;
  /** The output of each step's Run commands, for `{{ steps.N.output }}` and `{{ last.output }}`. */
  outputs: Map<number, string>;
  /** The session's latest checkpoint: where the next step starts. */
  head: string;
}

// `cancelled`: Ctrl-C stopped it (the step is cancelled, not failed); the reason is for people only.
type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string; cancelled?: true };

/** Templates in one Run command, element by element for an argv. */
function resolveRun(run: string | readonly string[], ctx: Context, step: number): Outcome<string | string[]> {
  const parts = typeof run === 'string' ? [run] : [...run];
  const resolved: string[] = [];
  for (const part of parts) {
    const result = resolveTemplates(part, ctx.outputs, step);
    if (!result.ok) return { ok: false, reason: result.message };
    resolved.push(result.text);
  }
  return { ok: true, value: typeof run === 'string' ? (resolved[0] ?? '') : resolved };
}

/** The step's Run commands, in the scratch, each allowed by sandbox.json; their output joined. */
async function runCommands(step: ActStep, ctx: Context): Promise<Outcome<string>> {
  const { input, deps } = ctx;
  const outputs: string[] = [];
  for (const [index, run] of step.run.entries()) {
    const text = commandText(run);
    if (!input.allowedCommands.includes(text)) {
      return {
        ok: false,
        reason: `Run: ${text} is not allowed; add it, exactly as written, to "allowed_commands" in .aide/sandbox.json`,
      };
    }
    const resolved = resolveRun(run, ctx, step.number);
    if (!resolved.ok) return resolved;
    const result = await deps.runner.run({
      name: `run-${index + 1}`,
      run: resolved.value,
      cwd: deps.scratch.path,
      env: commandEnvironment(input.userEnv, input.policy.envAllow, deps.runner),
      timeoutMs: input.policy.timeoutMs,
      logFile: `${input.logDir(step.number)}/run-${index + 1}.log`,
      maxLogBytes: input.policy.maxLogBytes,
      // The output flows into later steps' templates: keep more than a verify tail.
      tailBytes: RUN_OUTPUT_BYTES,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    });
    if (result.cancelled) return { ok: false, reason: 'interrupted', cancelled: true };
    if (result.exitCode !== 0 || result.timedOut) {
      const why =
        result.startError ??
        (result.timedOut ? 'timed out' : `exited ${result.exitCode ?? result.signal ?? '?'}`);
      return {
        ok: false,
        reason: `Run: ${text} ${why}${result.tail.trim() === '' ? '' : `:\n${result.tail.trimEnd()}`}`,
      };
    }
    outputs.push(result.tail.trim());
  }
  return { ok: true, value: outputs.join('\n') };
}

/** At most this much of a Run command's output is kept as the step's output. */
const RUN_OUTPUT_BYTES = 64 * 1024;

/**
 * The step's edits, templates resolved, applied in the scratch (all or nothing). The value says
 * whether every block was already in the files (a step re-run after an earlier session wrote it).
 */
async function applyEdits(
  step: ActStep,
  ctx: Context,
): Promise<Outcome<{ alreadyApplied: boolean; written: string[] }>> {
  if (step.edits.trim() === '') return { ok: true, value: { alreadyApplied: false, written: [] } };
  const resolved = resolveTemplates(step.edits, ctx.outputs, step.number);
  if (!resolved.ok) return { ok: false, reason: resolved.message };
  // The apply flow's own events describe writes into the scratch; the step's events say what matters.
  const flow = applyFlow(
    { response: resolved.text, root: ctx.deps.scratch.path, dryRun: false },
    { fs: ctx.deps.fs },
  );
  let next = await flow.next();
  while (next.done !== true) next = await flow.next();
  const applied = next.value;
  if (!applied.ok) {
    // For the person reading the step (forModel is what a model would be told).
    if (applied.blockCount === 0 && applied.problems.length === 0)
      return {
        ok: false,
        reason: 'the edits did not apply: the Edits section holds no SEARCH/REPLACE block or diff',
      };
    const failed = applied.blocks.filter((b) => !b.ok).length + applied.problems.length;
    const head = `the edits did not apply (${failed} of ${plural(applied.blockCount + applied.problems.length, 'edit')} failed; none is written):`;
    return {
      ok: false,
      reason: [head, ...describeFailures(applied.blocks, applied.problems, "the step's edits")].join('\n'),
    };
  }
  return {
    ok: true,
    value: {
      alreadyApplied: applied.blocks.every((b) => b.ok && b.action === 'already-applied'),
      written: applied.files.map((f) => f.path),
    },
  };
}

/**
 * Why the capture lost files the step's edits wrote, or null when it lost none: git ignores them
 * (a new `.env`, or `src/.gitignore` saying `*` beside a new file), so they would never reach
 * the workspace. A failure, not a skip: the plan asked for those files, and a step reported as
 * done (or as "changes no file") would drop a written edit without a word; a failure says so
 * and stops the session before later steps build on files that are not there.
 */
async function droppedEdits(
  written: readonly string[],
  capture: ScratchCapture,
  ctx: Context,
): Promise<string | null> {
  const captured = new Set(capture.changes.map((c) => c.path));
  const ignored = await ctx.deps.scratch.ignoredPaths(written.filter((path) => !captured.has(path)));
  if (ignored.length === 0) return null;
  const lines = ignored.map((i) => `  ${i.path} (ignored by ${i.rule})`);
  return [
    `the step wrote ${plural(ignored.length, 'file')} that git ignores, so ${ignored.length === 1 ? 'it' : 'they'} would never reach the workspace:`,
    ...lines,
    'Write them yourself, or change the ignore rules in an earlier step (the capture leaves ignored files out).',
  ].join('\n');
}

/** One ChangedFile per file of a `git diff` (the scratch's capture against its base). */
export function changedFiles(diff: string): ChangedFile[] {
  const parts = diff.split(/^(?=diff --git )/m).filter((part) => part.startsWith('diff --git '));
  return parts.map((part) => {
    const path =
      /^\+\+\+ b\/(.+)$/m.exec(part)?.[1] ??
      /^--- a\/(.+)$/m.exec(part)?.[1] ??
      /^diff --git a\/(.+?) b\//.exec(part)?.[1] ??
      '';
    const action = /^new file mode/m.test(part)
      ? 'created'
      : /^deleted file mode/m.test(part)
        ? 'deleted'
        : 'modified';
    return { path, action, ...diffStat(part), diff: part };
  });
}

/** What a verified step is known by from here on: its files, the protected ones among them, its verification. */
interface Verified {
  files: ChangedFile[];
  protectedFiles: ProtectedChange[];
  verify: VerifyReport;
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
  const { files, protectedFiles, verify } = verified;
  const review = { step: step.number, title: step.title, verdict: verify.summary, files, protectedFiles };
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
async function* actStep(step: ActStep, ctx: Context): AsyncGenerator<AideEvent, StepReport> {
  const { deps, input } = ctx;
  const alone =
    input.alone === true ? aloneTemplateProblem([...step.run.flat(), step.edits], step.number) : undefined;
  if (alone !== undefined) return report(step, 'failed', alone);
  // Back to the session head: whatever a failed or skipped step left in the scratch is dropped.
  await deps.scratch.moveTo(ctx.head);
  // Edits first, then Run commands (a generator regenerates from what the edits changed), then verify.
  const edited = await applyEdits(step, ctx);
  if (!edited.ok) return report(step, 'failed', edited.reason);
  const ran = await runCommands(step, ctx);
  if (!ran.ok) return report(step, ran.cancelled === true ? 'cancelled' : 'failed', ran.reason);
  ctx.outputs.set(step.number, ran.value);
  const capture = await deps.scratch.capture();
  const dropped = await droppedEdits(edited.value.written, capture, ctx);
  if (dropped !== null) return report(step, 'failed', dropped);
  if (capture.changes.length === 0) {
    return report(
      step,
      'skipped',
      edited.value.alreadyApplied
        ? 'already applied: its edits are already in the files'
        : 'the step changes no file',
    );
  }
  const files = changedFiles(await deps.scratch.diff(capture));
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
    },
    { runner: deps.runner, now: deps.now },
  );
  if (verify.verdict !== 'passed')
    return report(step, verify.verdict === 'cancelled' ? 'cancelled' : 'failed', verify.summary, {
      files,
      verify,
    });
  const verified: Verified = { files, protectedFiles: await protectedChanges(capture, ctx), verify };
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
  const ctx: Context = { input, deps, outputs, head: input.resume?.head ?? input.base };
  const steps: StepReport[] = [];
  let stopped = false;
  for (const step of input.steps) {
    const before = earlier.get(step.number);
    if (before !== undefined) {
      steps.push(
        report(
          step,
          before.status,
          before.status === 'skipped' ? 'skipped before the session was resumed' : null,
          { checkpoint: before.checkpoint, output: before.output },
        ),
      );
      continue;
    }
    if (stopped || input.signal?.aborted === true) {
      steps.push(report(step, input.signal?.aborted === true ? 'cancelled' : 'not_run', null));
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
