/**
 * Verification (DESIGN.md, "The act step" 5–6): the sandbox.json commands, in order, in a
 * scratch copy, stopping at the first failure. A failing command runs again `flakeReruns` times
 * before the failure counts; a pass after a failure is reported as flaky. Every run is recorded
 * with its own log. The commands come from the caller (sandbox.json), never from a model.
 */
import type { AideEvent } from '../events.js';
import type { CommandResult, CommandRunner } from '../ports/commands.js';
import { childEnvironment } from '../security/secret-env.js';
import type {
  CommandReport,
  CommandRunRecord,
  CommandStatus,
  Verdict,
  VerifyReport,
} from '../verify/report.js';
import { summarize } from '../verify/summary.js';
import { createTestCounter } from '../verify/test-count.js';

/** One command to verify with, as sandbox.json has it. */
export interface VerifyCommand {
  name: string;
  run: readonly string[] | string;
  /** Overrides the policy's timeoutMs. */
  timeoutMs?: number;
  env?: Readonly<Record<string, string>>;
  /** Runs only when asked for by name (a plan step's Verify:, `aide verify --commands`). */
  optional?: boolean;
}

export interface VerifyPolicy {
  timeoutMs: number;
  totalTimeoutMs: number;
  flakeReruns: number;
  tailBytes: number;
  maxLogBytes: number;
  /** Variables passed through even when they look like credentials. */
  envAllow: readonly string[];
}

export interface VerifyInput {
  /** Where the commands run: a scratch copy. */
  cwd: string;
  commands: readonly VerifyCommand[];
  policy: VerifyPolicy;
  /** The user's environment, filtered before any command sees it. */
  userEnv: Readonly<Record<string, string | undefined>>;
  /** Folder for the log files (absolute). */
  logDir: string;
  /** Aborting (Ctrl-C) kills the running command; the rest do not run. */
  signal?: AbortSignal;
  /** The runner's layer every command of this run writes to, leaving `cwd` as it was (CommandRun.layer). */
  layer?: string;
}

export interface VerifyDeps {
  runner: CommandRunner;
  /** Milliseconds, monotonic (shared/monotonic.ts). */
  now: () => number;
}

/** Log files are named after the command; keep the name portable. */
function logName(index: number, name: string, attempt: number): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${String(index + 1).padStart(2, '0')}-${safe}${attempt > 1 ? `.run${attempt}` : ''}.log`;
}

function passed(result: CommandResult): boolean {
  return result.exitCode === 0 && !result.timedOut && !result.cancelled;
}

function record(
  attempt: number,
  timeoutMs: number,
  logPath: string,
  result: CommandResult,
  tests: CommandRunRecord['tests'],
): CommandRunRecord {
  const { exitCode, signal, timedOut, cancelled, truncated, durationMs, startError } = result;
  return {
    attempt,
    exitCode,
    signal,
    timedOut,
    cancelled,
    truncated,
    durationMs,
    timeoutMs,
    logPath,
    tests,
    startError,
  };
}

function statusOf(runs: readonly CommandRunRecord[]): CommandStatus {
  const last = runs.at(-1);
  if (last === undefined) return 'not_run';
  if (last.cancelled) return 'cancelled';
  if (last.exitCode === 0 && !last.timedOut) return runs.length > 1 ? 'flaky' : 'passed';
  return last.timedOut ? 'timed_out' : 'failed';
}

function notRun(command: VerifyCommand): CommandReport {
  return {
    name: command.name,
    run: command.run,
    status: 'not_run',
    exitCode: null,
    signal: null,
    durationMs: 0,
    tests: null,
    flaky: false,
    logPath: null,
    tail: '',
    runs: [],
  };
}

function report(command: VerifyCommand, runs: CommandRunRecord[], tail: string): CommandReport {
  const status = statusOf(runs);
  const last = runs.at(-1);
  return {
    name: command.name,
    run: command.run,
    status,
    exitCode: last?.exitCode ?? null,
    signal: last?.signal ?? null,
    durationMs: runs.reduce((n, r) => n + r.durationMs, 0),
    tests: last?.tests ?? null,
    flaky: status === 'flaky',
    logPath: last?.logPath ?? null,
    tail,
    runs,
  };
}

/** Runs one command, with flake-guard reruns, within the time left. */
async function* runCommand(
  input: VerifyInput,
  deps: VerifyDeps,
  index: number,
  command: VerifyCommand,
  deadline: number,
): AsyncGenerator<AideEvent, CommandReport> {
  const { policy } = input;
  const env = commandEnvironment(input.userEnv, policy.envAllow, deps.runner, command.env);
  const runs: CommandRunRecord[] = [];
  let tail = '';
  for (let attempt = 1; attempt <= 1 + policy.flakeReruns; attempt++) {
    const left = Math.floor(deadline - deps.now());
    if (left <= 0 || input.signal?.aborted === true) break;
    const timeoutMs = Math.min(command.timeoutMs ?? policy.timeoutMs, left);
    const logPath = `${input.logDir}/${logName(index, command.name, attempt)}`;
    yield { type: 'command_started', name: command.name, attempt, logPath, timeoutMs };
    const counter = createTestCounter();
    const result = await deps.runner.run({
      name: command.name,
      run: command.run,
      cwd: input.cwd,
      env,
      timeoutMs,
      logFile: logPath,
      maxLogBytes: policy.maxLogBytes,
      tailBytes: policy.tailBytes,
      onLine: (line) => {
        counter.push(line);
      },
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      ...(input.layer === undefined ? {} : { layer: input.layer }),
    });
    const run = record(attempt, timeoutMs, logPath, result, counter.result());
    runs.push(run);
    tail = result.tail;
    const again = !passed(result) && !result.cancelled && attempt <= policy.flakeReruns;
    yield { type: 'command_finished', name: command.name, run, tail, rerun: again };
    if (!again) break;
  }
  return runs.length === 0 ? notRun(command) : report(command, runs, tail);
}

/**
 * What a command run in the sandbox gets: the user's environment without credentials, the
 * command's own variables, and AIDE_SANDBOX_NETWORK_DISABLED=1 when its network is off.
 */
export function commandEnvironment(
  userEnv: VerifyInput['userEnv'],
  envAllow: readonly string[],
  runner: CommandRunner,
  own: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const network: Record<string, string> =
    runner.isolation.network === 'off' ? { AIDE_SANDBOX_NETWORK_DISABLED: '1' } : {};
  return childEnvironment(userEnv, { allow: envAllow, set: { ...own, ...network } }).env;
}

/** Runs the commands; yields verify_started, command_started/finished per run, verify_finished. */
export async function* verifyFlow(
  input: VerifyInput,
  deps: VerifyDeps,
): AsyncGenerator<AideEvent, VerifyReport> {
  const started = deps.now();
  const deadline = started + input.policy.totalTimeoutMs;
  const { withheld } = childEnvironment(input.userEnv, { allow: input.policy.envAllow });
  const isolation = deps.runner.isolation;
  yield {
    type: 'verify_started',
    commands: input.commands.map((c) => ({ name: c.name, run: c.run })),
    isolation,
    withheldEnv: withheld,
  };
  const reports: CommandReport[] = [];
  let stopped = false;
  for (const [index, command] of input.commands.entries()) {
    if (stopped || input.signal?.aborted === true) {
      reports.push(notRun(command));
      continue;
    }
    const done = yield* runCommand(input, deps, index, command, deadline);
    reports.push(done);
    stopped = done.status !== 'passed' && done.status !== 'flaky';
  }
  const verdict: Verdict =
    reports.some((r) => r.status === 'cancelled') || input.signal?.aborted === true
      ? 'cancelled'
      : stopped || reports.some((r) => r.status === 'not_run')
        ? 'failed'
        : 'passed';
  const ranOut =
    verdict === 'failed' && !reports.some((r) => r.status === 'failed' || r.status === 'timed_out');
  const summary = summarize({
    verdict,
    commands: reports,
    totalTimeoutMs: ranOut ? input.policy.totalTimeoutMs : null,
  });
  const result: VerifyReport = {
    verdict,
    summary,
    commands: reports,
    isolation,
    durationMs: Math.round(deps.now() - started),
    withheldEnv: withheld,
  };
  yield { type: 'verify_finished', report: result };
  return result;
}
