/** Workspaces with a .aide/sandbox.json, and what a verify run left behind. */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CliResult } from './cli.js';
import { runAideInProcess } from './in-process.js';
import { gitRepo, testTemp, type Cleanup } from './sandbox.js';

export interface SandboxCommand {
  name: string;
  run: string[] | string;
  timeout_ms?: number;
  env?: Record<string, string>;
  optional?: boolean;
}

/** A git repository whose sandbox.json lists `commands` (plus any other settings). */
export function verifyRepo(
  t: Cleanup,
  commands: SandboxCommand[],
  settings: Record<string, unknown> = {},
  files: Record<string, string> = {},
): string {
  return gitRepo(t, { '.aide/sandbox.json': JSON.stringify({ commands, ...settings }, null, 2), ...files });
}

/** The JSON report of `aide verify --json` (parsed from stdout). */
export interface VerifyJson {
  schema: string;
  ok: boolean;
  verdict: string;
  summary: string;
  session: string;
  source: { kind: string; ref: string | null; commit: string | null; tree: string };
  commandSource: string;
  isolation: {
    mechanism: string;
    network: string;
    workspaceReadOnly: boolean;
    writable: string;
    sockets: string;
    processTree: string;
    detail: string | null;
  };
  withheldEnv: string[];
  commands: Array<{
    name: string;
    status: string;
    exitCode: number | null;
    signal: string | null;
    durationMs: number;
    flaky: boolean;
    logPath: string | null;
    tail: string;
    tests: { runner: string; passed: number; failed: number; skipped: number; total: number } | null;
    runs: Array<{
      attempt: number;
      exitCode: number | null;
      timedOut: boolean;
      truncated: boolean;
      logPath: string;
    }>;
  }>;
}

/**
 * `aide verify --json` in this process (the built CLI's runCli): the commands still run as real
 * processes in the sandbox. What only a real aide process shows (signals, Ctrl-C, a terminal) is
 * tested with runAide in verify-interrupt and verify-tty.
 */
export async function verifyJson(
  root: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ result: CliResult; report: VerifyJson }> {
  const result = await runAideInProcess(['verify', '--json', ...args], { cwd: root, env });
  let report: VerifyJson;
  try {
    report = JSON.parse(result.stdout) as VerifyJson;
  } catch {
    throw new Error(
      `aide verify --json printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return { result, report };
}

/** Processes whose command line contains `marker` (e.g. a unique `sleep 41.37`), from the whole process table. */
export function processesMatching(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-af', marker], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.includes('pgrep'));
  } catch (error) {
    // pgrep exits 1 when nothing matches. Anything else (not installed, a bad pattern) must fail
    // the test: "nothing left running" cannot be checked without it (.ci/run installs procps).
    if ((error as { status?: number | null }).status === 1) return [];
    throw new Error(`pgrep could not list processes (install procps): ${String(error)}`);
  }
}

/** Session folders under the scratch home of any workspace (`<tmp>/aide-scratch/<hash>/<session>`, aide's TMPDIR). */
export function scratchSessions(session: string): string[] {
  const home = join(testTemp(), 'aide-scratch');
  let hashes: string[] = [];
  try {
    hashes = readdirSync(home);
  } catch {
    return [];
  }
  return hashes.flatMap((hash) => {
    try {
      return readdirSync(join(home, hash))
        .filter((name) => name.startsWith(session))
        .map((name) => join(home, hash, name));
    } catch {
      return [];
    }
  });
}

/** A unique number for `sleep`, so a test can find its own processes in the process table. */
export function uniqueSeconds(): string {
  return `${60 + Math.floor(Math.random() * 900)}.${Math.floor(Math.random() * 1000)}`;
}

/** A fingerprint without aide's runtime state (logs and the shadow change on every run). */
export function withoutState(print: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(print).filter(([path]) => !path.startsWith('.aide/state/')));
}
