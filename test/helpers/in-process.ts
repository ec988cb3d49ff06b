/**
 * aide's CLI run inside the test process: the built CLI's own `runCli` (the bundle the bin loads),
 * with the same isolated environment and stdin, minus the ~0.3 s of starting node per run. For suites of many short runs (the edit corpus, the git-dir
 * refusals, the checkpoint and config tables); what only a real process shows (signals, a
 * terminal, what is left running when it exits, the built bin itself) keeps to runAide.
 */
import { Readable } from 'node:stream';
import { loadCli } from '../../src/launch/cli-bundle.js';
import type { CliIo, InputStream } from '../../src/cli/io.js';
import type { CliResult, CliRun } from './cli.js';
import { testEnv, testHome } from './sandbox.js';

/** What a pipe hands a reader at a time: a long reply arrives in several chunks, as from runAide. */
const PIPE_CHUNK = 64 * 1024;

/** Not a terminal, holding `text` (runAide writes it to the child's stdin and closes it); empty when omitted. */
function pipedInput(text: string | undefined): InputStream {
  const bytes = Buffer.from(text ?? '');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += PIPE_CHUNK) chunks.push(bytes.subarray(at, at + PIPE_CHUNK));
  return Object.assign(Readable.from(chunks), { isTTY: false });
}

/**
 * The shipped CLI bundle (dist/bundle/aide-cli.cjs), compiled once per test process through the
 * build's code cache, as the bin compiles it: the same code the child-process runs run, loaded in
 * ~50 ms where the ~400 modules of dist/src took ~300 ms. No user cache (no HOME given): the
 * tests' own homes stay as they are.
 */
let cli: ReturnType<typeof loadCli> | undefined;

/** runAide's twin in this process: same arguments, same result (`signal` is always null). */
export async function runAideInProcess(args: readonly string[], run: CliRun): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk), isTTY: false },
    stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false },
    stdin: pipedInput(run.input),
    env: testEnv(run.home ?? testHome(), run.env),
    cwd: run.cwd,
  };
  cli ??= loadCli({});
  const code = await cli.runCli(args, io);
  return { code, signal: null, stdout, stderr };
}
