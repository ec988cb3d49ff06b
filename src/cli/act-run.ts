/**
 * `aide act`, wired: the plan, the approver (decided before any work), the isolated runner, a
 * session (its first checkpoint is the workspace as it was: the undo target), a scratch copy
 * at that checkpoint, the act flow, and a view of its events. The workspace lock is held
 * throughout: act writes the workspace.
 *
 * `--resume` carries on an interrupted session instead: the same id, branch, base and audit log;
 * an interrupted write-back finished first, a changed plan said and asked about, the finished
 * steps skipped, the scratch opened at the last finished step.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { loadWorkspaceConfig } from '../config/load-workspace.js';
import type { AideEvent } from '../core/events.js';
import { actFlow, type ActReport, type ActResume } from '../core/flows/act.js';
import { resumeFlow } from '../core/flows/act-resume.js';
import { formatPlanProblem, parsePlan, type PlanLines } from '../core/plan/parse.js';
import type { Plan } from '../core/plan/schema.js';
import { stepHash, textHash } from '../core/plan/step-hash.js';
import type { Approver, FileSystem, Scratch } from '../core/ports.js';
import { ignoresCase } from '../infra/fs/case-sensitivity.js';
import { NodeFileSystem } from '../infra/fs/node-file-system.js';
import { findWorkspaceRoot } from '../infra/git/workspace-root.js';
import { ActSessionLog, type SessionPlan } from '../infra/session/act-session.js';
import { SessionFiles } from '../infra/session/session-files.js';
import type { SessionStatus } from '../infra/session/session-state.js';
import { newSessionId } from '../infra/shadow/checkpoints.js';
import { ShadowSessionRecorder } from '../infra/shadow/session-recorder.js';
import { ShadowStore } from '../infra/shadow/shadow-store.js';
import { unreadableReason } from '../shared/file-errors.js';
import { AideError, ExitCode } from '../shared/errors.js';
import {
  findResumable,
  refusePendingWriteBacks,
  resumeCommand,
  type ResumableSession,
} from './act-session-select.js';
import { openActView, type ActView } from './act-view.js';
import { chooseApprover } from './approver.js';
import type { ActOptions } from './commands/act.js';
import { interruptExitCode, listenForInterrupt } from './interrupt.js';
import { useColor, type CliIo, type GlobalOptions } from './io.js';
import { renderActJunit } from './render/act-junit.js';
import { actEventJson, PlainActView, renderActSummary, renderResumeHint } from './render/act.js';
import { makeStyle, type Style } from './render/style.js';
import { planCommands, stepsToRun } from './act-steps.js';
import { verifyPolicy, writeReportFile } from './verify-run.js';
import { openVerifyRunner } from './verify-runner.js';

const PLANS_DIR = '.aide/plans';
const STATE_DIR = '.aide/state';

/** The plan file: the one named, or the newest in .aide/plans/. */
async function findPlan(root: string, cwd: string, named: string | undefined): Promise<string> {
  if (named !== undefined) return resolve(cwd, named);
  const dir = join(root, PLANS_DIR);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.md'));
  const dated = await Promise.all(
    names.map(async (name) => ({ path: join(dir, name), mtime: (await stat(join(dir, name))).mtimeMs })),
  );
  const newest = dated.sort((a, b) => b.mtime - a.mtime)[0];
  if (newest === undefined) {
    throw new AideError('input_missing', `no plan to carry out: ${PLANS_DIR}/ has no .md files`, {
      hint: 'Give a plan file (`aide act plan.md`), or write one under .aide/plans/ (the format is in the README).',
    });
  }
  return newest.path;
}

async function loadPlan(file: string, root: string): Promise<{ plan: Plan; lines: PlanLines; text: string }> {
  const shown = relative(root, file) || file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new AideError('input_unreadable', `cannot read the plan ${shown}: ${unreadableReason(error)}`, {
      hint: `Give the path of a plan document (a .md file), or run \`aide act\` alone to carry out the newest plan under ${PLANS_DIR}/.`,
    });
  }
  const parsed = parsePlan(text, shown);
  if (parsed.ok) return { plan: parsed.plan, lines: parsed.lines, text };
  throw new AideError(
    'config_invalid',
    `${shown} is not a valid plan (${parsed.problems.length} problem${parsed.problems.length === 1 ? '' : 's'})`,
    {
      details: parsed.problems.flatMap((p) => [
        formatPlanProblem(p),
        ...(p.hint === '' ? [] : [`  hint: ${p.hint}`]),
      ]),
      hint: 'Fix the plan, then run `aide act` again. The plan format is described in the README.',
      data: { problems: parsed.problems },
    },
  );
}

/** Where events are shown before the act view opens (a resume's). */
interface View {
  event(event: AideEvent): void;
}

function exitCodeOf(report: ActReport, interrupted: NodeJS.Signals | null): number {
  if (interrupted !== null || report.steps.some((s) => s.status === 'cancelled'))
    return interruptExitCode(interrupted ?? 'SIGINT');
  if (report.steps.some((s) => s.status === 'conflict')) return ExitCode.conflict;
  if (report.steps.some((s) => s.status === 'aborted')) return ExitCode.aborted;
  if (report.steps.some((s) => s.status === 'refused')) return ExitCode.approvalNeeded;
  if (report.steps.some((s) => s.status === 'failed')) return ExitCode.failed;
  return ExitCode.ok;
}

/** How a session ends, by its exit code: anything but done or interrupted stopped at a step. */
function sessionStatus(code: number): SessionStatus {
  if (code === 0) return 'finished';
  return code >= 128 ? 'interrupted' : 'stopped';
}

/** A session ready for the act flow: new, or resumed and carrying on. */
interface Opened {
  session: string;
  base: string;
  files: SessionFiles;
  log: ActSessionLog;
  recorder: ShadowSessionRecorder;
  resume: ActResume | undefined;
}

interface SessionContext {
  store: ShadowStore;
  plan: SessionPlan;
  /** Writes into the workspace (the step write-backs). */
  writes: FileSystem;
  dryRun: boolean;
  approver: Approver;
  view: View;
  /** The session's log once there is one: how a crash is recorded. */
  opened: { log?: ActSessionLog };
}

async function startSession(ctx: SessionContext): Promise<Opened> {
  const session = newSessionId('act', new Date(), randomBytes(2).toString('hex'));
  const files = await SessionFiles.create(ctx.store.workspace.stateDir, session);
  const base = await ctx.store.checkpoint({
    session,
    reason: 'act',
    message: `before aide act: ${ctx.plan.title}`,
  });
  const log = await ActSessionLog.start(
    files,
    { session, dryRun: ctx.dryRun, base: base.checkpoint.id },
    ctx.plan,
    () => new Date(),
  );
  ctx.opened.log = log;
  return {
    session,
    base: base.checkpoint.id,
    files,
    log,
    recorder: new ShadowSessionRecorder(ctx.store, session, files, ctx.writes),
    resume: undefined,
  };
}

/** Carries on `found`: the resume flow's events logged and shown; an exit code when it goes no further. */
async function resumeSession(found: ResumableSession, ctx: SessionContext): Promise<Opened | number> {
  const { state } = found;
  const files = await SessionFiles.open(found.dir);
  const recorder = new ShadowSessionRecorder(ctx.store, state.session, files, ctx.writes);
  const log = await ActSessionLog.resume(files, state, () => new Date());
  ctx.opened.log = log;
  const flow = resumeFlow(
    {
      session: state.session,
      dryRun: state.dryRun,
      head: state.head,
      recorded: state.steps,
      steps: ctx.plan.steps,
      planChanged: state.planHash !== ctx.plan.planHash,
    },
    { approver: ctx.approver, recorder },
  );
  let next = await flow.next();
  while (next.done !== true) {
    await log.event(next.value);
    ctx.view.event(next.value);
    next = await flow.next();
  }
  const outcome = next.value;
  switch (outcome.kind) {
    case 'carry_on':
      await log.adoptPlan(ctx.plan, outcome.resume.done);
      return { session: state.session, base: state.base, files, log, recorder, resume: outcome.resume };
    case 'conflict':
      await log.end('stopped', null);
      return ExitCode.conflict;
    case 'declined':
      await log.end(state.status === 'running' ? 'interrupted' : state.status, null);
      throw new AideError(
        'aborted',
        `session ${state.session} was not resumed: the plan changed since, and you chose not to carry on`,
        {
          hint: `The session stays as it was: \`${resumeCommand(state.dryRun)}\` asks again, \`aide act\` starts a new one.`,
        },
      );
  }
}

export async function runAct(options: ActOptions, globals: GlobalOptions, io: CliIo): Promise<number> {
  const root = await findWorkspaceRoot(globals.cwd, io.env);
  const { config, sandbox: loaded } = await loadWorkspaceConfig(root, io.env);
  const sandbox = loaded.value;
  // Read only: nothing is created when there is nothing to resume.
  const named = options.plan === undefined ? undefined : resolve(globals.cwd, options.plan);
  const resuming = options.resume
    ? await findResumable(join(root, STATE_DIR), root, named, options.dryRun)
    : null;
  const planFile =
    resuming === null ? await findPlan(root, globals.cwd, options.plan) : join(root, resuming.state.plan);
  const { plan, lines, text } = await loadPlan(planFile, root);
  const shownPlan = relative(root, planFile) || planFile;
  // A --step session records its one step: resuming it carries on that step, not the whole plan.
  const only = options.step ?? resuming?.state.only ?? undefined;
  const steps = stepsToRun(plan, only, shownPlan);
  const selection = await planCommands(root, sandbox, plan, lines, shownPlan);
  const approver = chooseApprover(
    { yes: options.yes, allowProtected: options.allowProtected, dryRun: options.dryRun, command: 'aide act' },
    io,
    () => ({ stdin: process.stdin, stdout: globals.json ? process.stderr : process.stdout }),
  );
  const runner = await openVerifyRunner({
    root,
    env: io.env,
    allowNetwork: sandbox.allow_network,
    isolate: options.isolation,
    homeBinds: sandbox.home_binds,
  });
  const store = await ShadowStore.open(root, io.env, {
    maxFileBytes: config.value.checkpoints.max_file_bytes,
    command: 'act',
  });
  const interrupt = listenForInterrupt(() =>
    io.stderr.write('\naide: interrupted; stopping the running command and removing the scratch copy…\n'),
  );
  let scratch: Scratch | undefined;
  let view: ActView | undefined;
  const opened: SessionContext['opened'] = {};
  const carryOut = async (): Promise<number> => {
    await refusePendingWriteBacks(store.workspace.stateDir, resuming?.session ?? null);
    const style = makeStyle(useColor(io) && !globals.json);
    // Before the act view opens: what a resume says and asks.
    const early: View = globals.json
      ? { event: (e) => io.stdout.write(actEventJson(e)) }
      : new PlainActView(io.stdout, style);
    const sessionPlan: SessionPlan = {
      plan: relative(root, planFile),
      planHash: textHash(text),
      title: plan.title,
      steps: steps.map((s) => ({ number: s.number, title: s.title, hash: stepHash(s) })),
      only: only ?? null,
    };
    const context: SessionContext = {
      store,
      plan: sessionPlan,
      writes: new NodeFileSystem({ afterChange: io.afterWorkspaceChange }),
      dryRun: options.dryRun,
      approver,
      view: early,
      opened,
    };
    const started = resuming === null ? await startSession(context) : await resumeSession(resuming, context);
    if (typeof started === 'number') return started;
    const { session, base, files, log, recorder, resume } = started;
    // The edits are jailed to the scratch by its real path (on macOS the temp dir is behind a symlink).
    scratch = await store
      .scratches({ tempRoot: await realpath(tmpdir()), links: sandbox.link })
      .open(session, resume?.head ?? base);
    const startedAt = new Date().toISOString();
    const shown = await openActView({
      globals,
      io,
      options,
      plan: { ...plan, steps },
      style,
      approver,
      signal: interrupt.signal,
    });
    view = shown.view;
    const flow = actFlow(
      {
        session,
        steps,
        alone: only !== undefined,
        base,
        dryRun: options.dryRun,
        commands: selection.commands,
        policy: verifyPolicy(sandbox),
        allowedCommands: sandbox.allowed_commands,
        protectedPaths: config.value.protected_paths,
        protectedCaseInsensitive: await ignoresCase(root),
        userEnv: io.env,
        logDir: (step) => join(files.logs, `step-${step}`),
        signal: interrupt.signal,
        ...(resume === undefined ? {} : { resume }),
      },
      {
        scratch,
        runner,
        fs: new NodeFileSystem(),
        approver: shown.approver,
        recorder,
        now: () => performance.now(),
      },
    );
    let next = await flow.next();
    while (next.done !== true) {
      await log.event(next.value);
      view.event(next.value);
      next = await flow.next();
    }
    const report = next.value;
    await view.close();
    const code = exitCodeOf(report, interrupt.received());
    await log.end(sessionStatus(code), report);
    if (options.patchOut !== undefined)
      await writeReportFile(
        resolve(globals.cwd, options.patchOut),
        options.patchOut,
        report.patch,
        'the patch',
      );
    if (options.junit !== undefined) {
      const xml = renderActJunit(report, { suiteName: plan.title, timestamp: startedAt, plan: shownPlan });
      await writeReportFile(resolve(globals.cwd, options.junit), options.junit, xml, 'the JUnit report');
    }
    if (!globals.json)
      io.stdout.write(renderActSummary(report, style) + resumeHint(code, options.dryRun, style));
    return code;
  };
  const outcome = await carryOut().then(
    (code) => ({ code, error: undefined }),
    async (error: unknown) => ({ code: ExitCode.internal, error: await endAfterError(opened.log, error) }),
  );
  // The task tree gives the terminal back before anything else is printed (an error, too);
  // whatever fails on the way, the lock is released.
  const disposeRunner = (): undefined => {
    runner.dispose();
    return undefined;
  };
  const cleanup = await settleAll([
    () => view?.close(),
    () => scratch?.dispose(),
    disposeRunner,
    () => store.close(),
  ]);
  interrupt.dispose();
  const error = outcome.error ?? cleanup;
  if (error !== undefined) throw error;
  return outcome.code;
}

/** Runs every clean-up step, whichever fail; returns the first failure. */
async function settleAll(steps: ReadonlyArray<() => Promise<void> | undefined>): Promise<Error | undefined> {
  let first: Error | undefined;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      first ??= error instanceof Error ? error : new Error(String(error));
    }
  }
  return first;
}

/**
 * An internal error (a bug, or aide's own state broken under it) during a session: the
 * session is recorded as crashed, not left `running`, and the error says how to carry it on.
 * An expected error (an AideError says what to do) records it as stopped.
 */
class SessionCrashError extends Error {
  constructor(cause: unknown, session: string, dryRun: boolean) {
    const original = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = cause instanceof Error ? cause.name : 'Error';
    this.stack = `${original}\n\nThe session ${session} is recorded as crashed and the workspace is unlocked. Carry it on with \`${resumeCommand(dryRun)}\` (\`aide status\` shows where it stopped).`;
  }
}

async function endAfterError(log: ActSessionLog | undefined, error: unknown): Promise<Error> {
  if (log === undefined || log.ended !== null)
    return error instanceof Error ? error : new Error(String(error));
  const crashed = !(error instanceof AideError);
  // The error is what matters: a state.json that cannot be written now says `running`, as after a kill.
  const recorded = await log.end(crashed ? 'crashed' : 'stopped', null).then(
    () => true,
    () => false,
  );
  if (crashed && recorded) return new SessionCrashError(error, log.snapshot.session, log.snapshot.dryRun);
  return error instanceof Error ? error : new Error(String(error));
}

/** After a session that stopped short: how to carry it on (a step --yes refused needs --allow-protected). */
function resumeHint(code: number, dryRun: boolean, style: Style): string {
  if (code === ExitCode.ok) return '';
  return renderResumeHint(
    `${resumeCommand(dryRun)}${code === ExitCode.approvalNeeded ? ' --yes --allow-protected' : ''}`,
    style,
  );
}
