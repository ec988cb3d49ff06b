/** Runs the built aide CLI as a real child process. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testEnv, testHome } from './sandbox.js';

/** The shipped CLI, package.json's bin: dist/test/helpers/cli.js → dist/bundle/aide.js (scripts/bundle.mjs). */
export const BIN = fileURLToPath(new URL('../../bundle/aide.js', import.meta.url));

/** aide with the test-only hooks (AIDE_TEST_PAUSE_AFTER_WRITES): dist/test/helpers/aide-test-bin.js. */
export const TEST_BIN = fileURLToPath(new URL('./aide-test-bin.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  cwd: string;
  /** Text for stdin; stdin is closed (empty) when omitted. */
  input?: string;
  env?: Record<string, string>;
  home?: string;
  /** Another copy of the bin (default: BIN). */
  bin?: string;
}

export function runAide(args: readonly string[], run: CliRun): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [run.bin ?? BIN, ...args], {
      cwd: run.cwd,
      env: testEnv(run.home ?? testHome(), run.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(run.input ?? '');
  });
}
