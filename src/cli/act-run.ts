/**
 * `aide act`, wired: the plan, the approver (decided before any work), the model when a step
 * needs it (act-agent.ts: prepared before the session starts), the adapters (the
 * isolated runner, the shadow store holding the workspace lock: act writes the workspace), the
 * session (core/flows/act-session.ts starts or resumes it), a scratch copy at its head, the act
 * flow, and a view of its events; then the reports asked for and the summary.
 */
import { join, relative, resolve } from 'node:path';
import type { AideEvent } from '../core/events.js';
import { findPlan, loadPlan, sessionPlan } from '../core/flows/act-plan.js';
import { ActSession } from '../core/flows/act-session.js';
import { drive } from '../core/flows/drive.js';
import { findResumable, resumeCommand } from '../core/flows/session-select.js';
import type { Scratch } from '../core/ports/scratch.js';
import { ExitCode } from '../shared/errors.js';
import { actAuthor } from './act-agent.js';
import { loadWorkspaceConfig } from '../config/load-workspace.js';
import { openActAdapters, readSessions, settleAll, workspacePlans } from './wiring/act.js';
import { locateWorkspace } from './wiring/workspace.js';
import { planCommands, stepsToRun } from './act-selection.js';
import { openActView, type ActView } from './act-view.js';
import { chooseApprover } from './approver.js';
import type { ActOptions } from './commands/act-options.js';
import { interruptExitCode, listenForInterrupt } from './interrupt.js';
import { useColor, type CliIo, type GlobalOptions } from './io.js';
import { renderActJunit } from './render/act-junit.js';
import { actEventJson, PlainActView, renderActSummary, renderResumeHint } from './render/act.js';
import { makeStyle, type Style } from './render/style.js';
import { verifyPolicy, writeReportFile } from './verify-run.js';
import { monotonicMs } from '../shared/monotonic.js';

/** Where events are shown before the act view opens (a resume's). */
interface View {
  event(event: AideEvent): void;
}

export async function runAct(options: ActOptions, globals: GlobalOptions, io: CliIo): Promise<number> {
  const flags = {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
  };
  // The repository's layout comes with the root: the shadow and the isolation ask git no more.
  const located = await locateWorkspace(globals.cwd, io.env);
  const root = located.root;
  const loadedConfig = await loadWorkspaceConfig(root, io.env, flags);
  const config = loadedConfig.config.value;
  const sandbox = loadedConfig.sandbox.value;
  const plans = workspacePlans(root);
  // Read only: nothing is created when there is nothing to resume.
  const named = options.plan === undefined ? undefined : resolve(globals.cwd, options.plan);
  const resuming = options.resume
    ? findResumable(
        await readSessions(root),
        named === undefined ? undefined : relative(root, named),
        options.dryRun,
      )
    : null;
  const planFile = resuming === null ? await findPlan(named, plans) : join(root, resuming.state.plan);
  const loaded = await loadPlan(planFile, root, plans);
  const { plan, lines, shown: shownPlan } = loaded;
  // A --step session records its one step: resuming it carries on that step, not the whole plan.
  const only = options.step ?? resuming?.state.only ?? undefined;
  const steps = stepsToRun(plan, only, shownPlan);
  const selection = await planCommands(root, sandbox, plan, lines, shownPlan);
  // The model is made ready before the session starts: without it, nothing is checkpointed.
  const author = await actAuthor({
    steps,
    config,
    root,
    env: io.env,
    summary: plan.summary,
    allowedCommands: sandbox.allowed_commands,
  });
  const approver = chooseApprover(
    { yes: options.yes, allowProtected: options.allowProtected, dryRun: options.dryRun, command: 'aide act' },
    io,
    () => ({ stdin: process.stdin, stdout: globals.json ? process.stderr : process.stdout }),
  );
  const adapters = await openActAdapters({
    root,
    io,
    allowNetwork: sandbox.allow_network,
    isolate: options.isolation,
    homeBinds: sandbox.home_binds,
    maxFileBytes: config.checkpoints.max_file_bytes,
    links: sandbox.link,
    layers: !sandbox.keep_verify_writes,
    ...(located.layout === undefined ? {} : { layout: located.layout }),
  });
  const interrupt = listenForInterrupt(() =>
    io.stderr.write('\naide: interrupted; stopping the running command and removing the scratch copy…\n'),
  );
  let scratch: Scratch | undefined;
  let view: ActView | undefined;
  const session = new ActSession({ sessions: adapters.sessions, approver });
  const carryOut = async (): Promise<number> => {
    const style = makeStyle(useColor(io) && !globals.json);
    // Before the act view opens: what a resume says and asks.
    const early: View = globals.json
      ? { event: (e) => io.stdout.write(actEventJson(e)) }
      : new PlainActView(io.stdout, style);
    const opening = await drive(
      session.open({ plan: sessionPlan(loaded, root, steps, only), dryRun: options.dryRun, resuming }),
      (e) => {
        early.event(e);
      },
    );
    if (opening.kind === 'ended') return opening.exitCode;
    const { resume } = opening;
    scratch = await adapters.openScratch(opening.session.session, resume?.head ?? opening.session.base);
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
    const flow = session.carryOut(
      {
        steps,
        alone: only !== undefined,
        dryRun: options.dryRun,
        commands: selection.commands,
        policy: verifyPolicy(sandbox),
        allowedCommands: sandbox.allowed_commands,
        protectedPaths: config.protected_paths,
        protectedCaseInsensitive: adapters.caseInsensitive,
        userEnv: io.env,
        signal: interrupt.signal,
        maxAttempts: sandbox.max_attempts,
      },
      {
        // The plan's written edits, or the agent for a step with neither edits nor Run commands.
        author,
        scratch,
        runner: adapters.runner,
        fs: adapters.scratchFs,
        approver: shown.approver,
        now: monotonicMs,
      },
      resume,
    );
    const actView = view;
    const report = await drive(flow, (e) => {
      actView.event(e);
    });
    await view.close();
    const signal = interrupt.received();
    const code = await session.end(report, signal === null ? null : interruptExitCode(signal));
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
    async (error: unknown) => ({ code: ExitCode.internal, error: await endAfterError(session, error) }),
  );
  // The task tree gives the terminal back before anything else is printed (an error, too);
  // whatever fails on the way, the lock is released.
  const cleanup = await settleAll([
    () => view?.close(),
    () => scratch?.dispose({ remove: interrupt.received() !== null }),
    () => adapters.close(),
  ]);
  interrupt.dispose();
  const error = outcome.error ?? cleanup;
  if (error !== undefined) throw error;
  return outcome.code;
}

/**
 * An internal error (a bug, or aide's own state broken under it) during a session: the
 * session is recorded as crashed, not left `running`, and the error says how to carry it on.
 */
class SessionCrashError extends Error {
  constructor(cause: unknown, session: string, dryRun: boolean) {
    const original = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = cause instanceof Error ? cause.name : 'Error';
    this.stack = `${original}\n\nThe session ${session} is recorded as crashed and the workspace is unlocked. Carry it on with \`${resumeCommand(dryRun)}\` (\`aide status\` shows where it stopped).`;
  }
}

async function endAfterError(session: ActSession, error: unknown): Promise<Error> {
  const crashed = await session.fail(error);
  const which = session.current;
  if (crashed && which !== undefined) return new SessionCrashError(error, which.session, which.dryRun);
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
