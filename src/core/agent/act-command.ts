/**
 * run_command in a step's scratch: only a command line sandbox.json's `allowed_commands` lists,
 * exactly as written (the model cannot allow one: the user edits sandbox.json), run through the
 * CommandRunner under the same isolation and filtered environment as verify commands. Its
 * output is data for the model, returned as the runner's tail, never read for calls.
 */
import type { CommandRunner } from '../ports/commands.js';
import { commandEnvironment } from '../flows/verify.js';
import type { ToolResult } from './loop-types.js';

/** How the model's commands run: the allowed lines, the runner, and verify's policy for them. */
export interface CommandTools {
  /** sandbox.json allowed_commands: the only command lines run_command runs, exactly as written. */
  allowed: readonly string[];
  runner: CommandRunner;
  /** The user's environment, filtered as for verify (secrets withheld unless `envAllow` names them). */
  userEnv: Readonly<Record<string, string | undefined>>;
  envAllow: readonly string[];
  /** Milliseconds before the command's process group is killed. */
  timeoutMs: number;
  /** Bytes of the log file kept. */
  maxLogBytes: number;
  /** Bytes at most of the output the model gets (whole lines from the end). */
  tailBytes: number;
  /** Absolute log file of the n-th command the model runs (1-based). */
  logFile: (n: number) => string;
}

const utf8 = new TextEncoder();

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** Runs one allowed command in `cwd`; `n` numbers its log. */
export async function runCommand(
  tools: CommandTools,
  cwd: string,
  command: string,
  n: number,
  signal?: AbortSignal,
): Promise<ToolResult> {
  if (!tools.allowed.includes(command)) {
    const listed =
      tools.allowed.length === 0
        ? 'No command is allowed in this project.'
        : `The allowed commands are: ${tools.allowed.map((c) => `\`${c}\``).join(', ')}.`;
    return {
      ok: false,
      denied: true,
      forModel: `run_command refused: \`${command}\` is not an allowed command, and nothing ran. ${listed} Only the user can allow another (allowed_commands in .aide/sandbox.json); do the step without it.`,
      forUser: `refused run_command \`${command}\`: not in allowed_commands (add it, exactly as written, to "allowed_commands" in .aide/sandbox.json to allow it)`,
    };
  }
  const result = await tools.runner.run({
    name: `tool-${n}`,
    run: command,
    cwd,
    env: commandEnvironment(tools.userEnv, tools.envAllow, tools.runner),
    timeoutMs: tools.timeoutMs,
    logFile: tools.logFile(n),
    maxLogBytes: tools.maxLogBytes,
    tailBytes: tools.tailBytes,
    ...(signal === undefined ? {} : { signal }),
  });
  const tail = result.tail.trimEnd();
  const output = tail === '' ? '(no output)' : tail;
  const cut = result.outputBytes > utf8.encode(result.tail).length ? ' (the last lines of its output)' : '';
  if (result.cancelled)
    return { ok: false, forModel: `\`${command}\` was cancelled.`, forUser: `\`${command}\` cancelled` };
  if (result.startError !== null)
    return {
      ok: false,
      forModel: `\`${command}\` could not be started: ${result.startError}.`,
      forUser: `\`${command}\` could not start: ${result.startError}`,
    };
  if (result.timedOut)
    return {
      ok: false,
      forModel: `\`${command}\` timed out after ${seconds(tools.timeoutMs)} and was killed${cut}:\n${output}`,
      forUser: `\`${command}\` timed out`,
    };
  const how =
    result.exitCode === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited ${result.exitCode}`;
  return {
    // A command that ran and failed did what was asked: its failure is a fact for the model, not its mistake.
    ok: result.exitCode === 0,
    forModel: `\`${command}\` ${how} after ${seconds(result.durationMs)}${cut}:\n${output}`,
    forUser: `\`${command}\` ${how}`,
  };
}
