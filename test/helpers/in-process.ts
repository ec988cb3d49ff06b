/**
 * aide's CLI run inside the test process: the same parser, commands, renderers and exit codes as
 * the built CLI (`runCli`, which bin.ts calls), with the same isolated environment, minus the
 * ~0.3 s of starting node per run. For suites of many short runs (the edit corpus); what only a
 * real process shows (signals, a terminal, stdin) keeps to runAide.
 */
import { runCli } from '../../src/cli/main.js';
import type { CliIo, InputStream } from '../../src/cli/io.js';
import type { CliResult } from './cli.js';
import { testEnv, testHome } from './sandbox.js';

/** An empty, closed stdin (runAide closes the child's stdin too). */
const noInput: InputStream = {
  isTTY: false,
  async *[Symbol.asyncIterator]() {},
};

export async function runAideInProcess(
  args: readonly string[],
  run: { cwd: string; env?: Record<string, string>; home?: string },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk), isTTY: false },
    stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false },
    stdin: noInput,
    env: testEnv(run.home ?? testHome(), run.env),
    cwd: run.cwd,
  };
  const code = await runCli(args, io);
  return { code, signal: null, stdout, stderr };
}
