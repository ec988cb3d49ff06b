/**
 * `aide act`, wired: the plan, the approver (decided before any work), the isolated runner, a
 * session (its first checkpoint is the workspace as it was: the undo target), a scratch copy
 * at that checkpoint, the act flow, and a view of its events. The workspace lock is held
 * throughout: act writes the workspace.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { loadWorkspaceConfig } from '../config/load-workspace.js';
import { actFlow, type ActReport } from '../core/flows/act.js';
import { formatPlanProblem, parsePlan } from '../core/plan/parse.js';
import type { Plan } from '../core/plan/schema.js';
import type { Scratch } from '../core/ports.js';
import { NodeFileSystem } from '../infra/fs/node-file-system.js';
import { findWorkspaceRoot } from '../infra/git/workspace-root.js';
import { newSessionId } from '../infra/shadow/checkpoints.js';
import { ShadowSessionRecorder } from '../infra/shadow/session-recorder.js';
import { ShadowStore } from '../infra/shadow/shadow-store.js';
import { SessionFiles } from '../infra/session/session-files.js';
import { AideError, ExitCode } from '../shared/errors.js';
import { openActView, type ActView } from './act-view.js';
import { chooseApprover } from './approver.js';
import type { ActOptions } from './commands/act.js';
import { interruptExitCode, listenForInterrupt } from './interrupt.js';
import { useColor, type CliIo, type GlobalOptions } from './io.js';
import { renderActSummary } from './render/act.js';
import { makeStyle } from './render/style.js';
import { chooseCommands, verifyPolicy } from './verify-run.js';
import { openVerifyRunner } from './verify-runner.js';

const PLANS_DIR = '.aide/plans';

/** The plan file: the one named, or the newest in .aide/plans/. */
async function findPlan(root: string, cwd: string, named: string | undefined): Promise<string> {
  if (named !== undefined) return resolve(cwd, named);
  const dir = join(root, PLANS_DIR);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.md'));
  const dated = await Promise.all(names.map(async (name) => ({ path: join(dir, name), mtime: (await stat(join(dir, name))).mtimeMs })));
  const newest = dated.sort((a, b) => b.mtime - a.mtime)[0];
  if (newest === undefined) {
    throw new AideError('input_missing', `no plan to carry out: ${PLANS_DIR}/ has no .md files`, { hint: 'Give a plan file (`aide act plan.md`), or write one under .aide/plans/ (the format is in the README).' });
  }
  return newest.path;
}

async function loadPlan(file: string, root: string): Promise<Plan> {
  const shown = relative(root, file) || file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new AideError('input_unreadable', `cannot read the plan ${shown}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { hint: 'Give the path of a plan document.' });
  }
  const parsed = parsePlan(text, shown);
  if (parsed.ok) return parsed.plan;
  throw new AideError('config_invalid', `${shown} is not a valid plan (${parsed.problems.length} problem${parsed.problems.length === 1 ? '' : 's'})`, {
    details: parsed.problems.flatMap((p) => [formatPlanProblem(p), ...(p.hint === '' ? [] : [`  hint: ${p.hint}`])]),
    hint: 'Fix the plan, then run `aide act` again. The plan format is described in the README.',
    data: { problems: parsed.problems },
  });
}

function exitCodeOf(report: ActReport, interrupted: NodeJS.Signals | null): number {
  if (interrupted !== null || report.steps.some((s) => s.status === 'cancelled')) return interruptExitCode(interrupted ?? 'SIGINT');
  if (report.steps.some((s) => s.status === 'conflict')) return ExitCode.conflict;
  if (report.steps.some((s) => s.status === 'aborted')) return ExitCode.aborted;
  if (report.steps.some((s) => s.status === 'refused')) return ExitCode.approvalNeeded;
  if (report.steps.some((s) => s.status === 'failed')) return ExitCode.failed;
  return ExitCode.ok;
}

export async function runAct(options: ActOptions, globals: GlobalOptions, io: CliIo): Promise<number> {
  const root = await findWorkspaceRoot(globals.cwd, io.env);
  const { config, sandbox: loaded } = await loadWorkspaceConfig(root, io.env);
  const sandbox = loaded.value;
  const planFile = await findPlan(root, globals.cwd, options.plan);
  const plan = await loadPlan(planFile, root);
  const approver = chooseApprover({ yes: options.yes, allowProtected: options.allowProtected, dryRun: options.dryRun, command: 'aide act' }, io, () => ({ stdin: process.stdin, stdout: globals.json ? process.stderr : process.stdout }));
  const selection = await chooseCommands(root, sandbox, undefined);
  const runner = await openVerifyRunner({ root, env: io.env, allowNetwork: sandbox.allow_network, isolate: options.isolation });
  const store = await ShadowStore.open(root, io.env, { maxFileBytes: config.value.checkpoints.max_file_bytes, command: 'act' });
  const interrupt = listenForInterrupt(() => io.stderr.write('\naide: interrupted; stopping the running command and removing the scratch copy…\n'));
  let scratch: Scratch | undefined;
  let view: ActView | undefined;
  try {
    const session = newSessionId('act', new Date(), randomBytes(2).toString('hex'));
    const files = await SessionFiles.create(store.workspace.stateDir, session);
    const base = await store.checkpoint({ session, reason: 'act', message: `before aide act: ${plan.title}` });
    // The edits are jailed to the scratch by its real path (on macOS the temp dir is behind a symlink).
    scratch = await store.scratches({ tempRoot: await realpath(tmpdir()), links: sandbox.link }).open(session, base.checkpoint.id);
    const style = makeStyle(useColor(io) && !globals.json);
    const shown = await openActView({ globals, io, options, plan, style, approver, signal: interrupt.signal });
    view = shown.view;
    const flow = actFlow(
      {
        session,
        steps: plan.steps,
        base: base.checkpoint.id,
        dryRun: options.dryRun,
        commands: selection.commands,
        policy: verifyPolicy(sandbox),
        allowedCommands: sandbox.allowed_commands,
        protectedPaths: config.value.protected_paths,
        userEnv: io.env,
        logDir: (step) => join(files.logs, `step-${step}`),
        signal: interrupt.signal,
      },
      { scratch, runner, fs: new NodeFileSystem(), approver: shown.approver, recorder: new ShadowSessionRecorder(store, session, files, new NodeFileSystem()), now: () => performance.now() },
    );
    const state = { schema: 'aide.session/1', session, plan: relative(root, planFile), title: plan.title, dryRun: options.dryRun, base: base.checkpoint.id, status: 'running', steps: [] as unknown[] };
    await files.writeState(state);
    let step: number | null = null;
    let next = await flow.next();
    while (next.done !== true) {
      const event = next.value;
      if (event.type === 'step_started') step = event.step;
      await files.audit(event, step, new Date());
      if (event.type === 'step_finished') {
        state.steps.push({ number: event.report.number, status: event.report.status, checkpoint: event.report.checkpoint });
        await files.writeState(state);
        step = null;
      }
      view.event(event);
      next = await flow.next();
    }
    const report = next.value;
    await view.close();
    const code = exitCodeOf(report, interrupt.received());
    await files.writeState({ ...state, status: code === 0 ? 'finished' : code >= 128 ? 'interrupted' : 'stopped', head: report.head });
    if (options.patchOut !== undefined) await writeFile(resolve(globals.cwd, options.patchOut), report.patch);
    if (!globals.json) io.stdout.write(renderActSummary(report, style));
    return code;
  } finally {
    // The task tree gives the terminal back before anything else is printed (an error, too).
    await view?.close();
    await scratch?.dispose();
    await store.close();
    interrupt.dispose();
  }
}
