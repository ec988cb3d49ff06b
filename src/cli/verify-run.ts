/**
 * `aide verify`, wired: the source tree (working tree, index or commit) in the shadow, a scratch
 * copy of it, the isolated runner, the verify flow, and a view of its events. The workspace lock
 * is held only while the snapshot and the scratch are made: a long test run does not block other
 * aide commands, and nothing it does touches the workspace.
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadWorkspaceConfig } from '../config/load-workspace.js';
import type { SandboxConfig } from '../config/sandbox-schema.js';
import type { AideEvent } from '../core/events.js';
import { drive } from '../core/flows/drive.js';
import { verifyFlow, type VerifyCommand, type VerifyPolicy } from '../core/flows/verify.js';
import type { VerifyReport } from '../core/verify/report.js';
import { availableCommands, selectCommands, type CommandSelection } from '../core/verify/select-commands.js';
import { unreadableReason } from '../shared/file-errors.js';
import { AideError, ExitCode } from '../shared/errors.js';
import type { VerifyOptions } from './commands/verify-options.js';
import { interruptExitCode, listenForInterrupt } from './interrupt.js';
import { useColor, type CliIo, type GlobalOptions } from './io.js';
import { openVerifyRunner } from './wiring/runner.js';
import { detectRootProject, prepareVerify, type PreparedVerify } from './wiring/verify.js';
import { findWorkspaceRoot } from './wiring/workspace.js';
import { renderJunit } from './render/junit.js';
import { makeStyle } from './render/style.js';
import { PlainVerifyView, renderVerifyResult, verifyJson, type VerifyContext } from './render/verify.js';
import { monotonicMs } from '../shared/monotonic.js';

const SANDBOX_FILE = '.aide/sandbox.json';

interface View {
  event(event: AideEvent): void;
  close(): Promise<void>;
}

function configuredCommands(sandbox: SandboxConfig): VerifyCommand[] {
  return sandbox.commands.map((c) => ({
    name: c.name,
    run: c.run,
    ...(c.timeout_ms === undefined ? {} : { timeoutMs: c.timeout_ms }),
    ...(c.env === undefined ? {} : { env: c.env }),
    ...(c.optional ? { optional: true } : {}),
  }));
}

async function detectedCommands(root: string, sandbox: SandboxConfig): Promise<VerifyCommand[]> {
  if (sandbox.commands.length > 0) return [];
  return (await detectRootProject(root)).commands.map((c) => ({
    name: c.name,
    run: c.run,
    ...(c.optional === true ? { optional: true } : {}),
  }));
}

/** The commands to verify with: sandbox.json's (optional ones only when named), or the detected ones when it lists none. */
export async function chooseCommands(
  root: string,
  sandbox: SandboxConfig,
  only: readonly string[] | undefined,
): Promise<CommandSelection> {
  return selectCommands(
    configuredCommands(sandbox),
    await detectedCommands(root, sandbox),
    only,
    SANDBOX_FILE,
  );
}

/** Every command there is, optional ones included: a plan step picks its own (`aide act`). */
export async function everyCommand(root: string, sandbox: SandboxConfig): Promise<CommandSelection> {
  return availableCommands(configuredCommands(sandbox), await detectedCommands(root, sandbox), SANDBOX_FILE);
}

/** sandbox.json's limits, as the verify flow takes them. */
export function verifyPolicy(sandbox: SandboxConfig): VerifyPolicy {
  return {
    timeoutMs: sandbox.timeout_ms,
    totalTimeoutMs: sandbox.total_timeout_ms,
    flakeReruns: sandbox.flake_reruns,
    tailBytes: sandbox.output_tail_bytes,
    maxLogBytes: sandbox.output_log_bytes,
    envAllow: sandbox.env_allow,
  };
}

async function makeView(globals: GlobalOptions, io: CliIo, context: VerifyContext): Promise<View> {
  const style = makeStyle(useColor(io));
  if (!globals.json && io.stdout.isTTY === true && io.env['TERM'] !== 'dumb') {
    const { TaskListVerifyView } = await import('./render/verify-tasks.js');
    return new TaskListVerifyView(style);
  }
  // With --json, stdout carries only the report; progress goes to stderr.
  return new PlainVerifyView(
    globals.json ? io.stderr : io.stdout,
    globals.json ? makeStyle(false) : style,
    context,
  );
}

async function showUntilDone(
  flow: AsyncGenerator<AideEvent, VerifyReport>,
  view: View,
): Promise<VerifyReport> {
  try {
    return await drive(flow, (event) => {
      view.event(event);
    });
  } finally {
    await view.close();
  }
}

export async function runVerify(options: VerifyOptions, globals: GlobalOptions, io: CliIo): Promise<number> {
  const root = await findWorkspaceRoot(globals.cwd, io.env);
  const { config, sandbox: loaded } = await loadWorkspaceConfig(root, io.env);
  const sandbox = loaded.value;
  const selection = await chooseCommands(root, sandbox, options.commands);
  const runner = await openVerifyRunner({
    root,
    env: io.env,
    allowNetwork: sandbox.allow_network,
    isolate: options.isolation,
    homeBinds: sandbox.home_binds,
  });
  const interrupt = listenForInterrupt(() =>
    io.stderr.write('\naide: interrupted; stopping the commands and removing the scratch copy…\n'),
  );
  let prepared: PreparedVerify | undefined;
  try {
    prepared = await prepareVerify(
      root,
      io.env,
      options,
      sandbox,
      config.value.checkpoints.max_file_bytes,
      selection,
    );
    const { scratch, stateDir, context } = prepared;
    const view = await makeView(globals, io, context);
    const flow = verifyFlow(
      {
        cwd: scratch.path,
        commands: selection.commands,
        policy: verifyPolicy(sandbox),
        userEnv: io.env,
        logDir: join(stateDir, 'sessions', context.session, 'logs'),
        signal: interrupt.signal,
      },
      { runner, now: monotonicMs },
    );
    const report = await showUntilDone(flow, view);
    await finish(report, context, options, globals, io);
    const signal = interrupt.received();
    if (report.verdict === 'cancelled' || signal !== null) return interruptExitCode(signal ?? 'SIGINT');
    return report.verdict === 'passed' ? ExitCode.ok : ExitCode.failed;
  } finally {
    // Interrupted: the kept scratch goes too (what the commands left running may still write).
    await prepared?.scratch.dispose({ remove: interrupt.received() !== null });
    runner.dispose();
    interrupt.dispose();
  }
}

/**
 * A report file the user asked for (`--junit`); a path that cannot be written is a usage error.
 * Written to a temporary name beside it, then renamed: a CI step reading it never sees half a
 * file, and an interrupted run leaves the previous report whole.
 */
export async function writeReportFile(
  file: string,
  shown: string,
  content: string,
  what: string,
): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, content);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new AideError('usage', `cannot write ${what} to ${shown}: ${unreadableReason(error)}`, {
      hint: 'Give the path of a file in a folder that exists and is writable.',
    });
  }
}

async function finish(
  report: VerifyReport,
  context: VerifyContext,
  options: VerifyOptions,
  globals: GlobalOptions,
  io: CliIo,
): Promise<void> {
  if (options.junit !== undefined) {
    await writeReportFile(
      resolve(globals.cwd, options.junit),
      options.junit,
      renderJunit(report, { suiteName: 'aide verify', timestamp: new Date().toISOString() }),
      'the JUnit report',
    );
  }
  io.stdout.write(
    globals.json ? verifyJson(report, context) : renderVerifyResult(report, context, makeStyle(useColor(io))),
  );
}
