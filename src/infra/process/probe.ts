/**
 * Capability probes: run a small command once and report what happened. Never rejects; a
 * command that is not installed is reported as missing. Killed outright after a few seconds.
 */
import { execFile } from 'node:child_process';

export interface ProbeResult {
  /** Exit code 0. */
  ok: boolean;
  /** The program is not installed (not on PATH). */
  missing: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface ProbeOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  timeoutMs?: number;
}

/** Only what a probe needs from the environment. */
function probeEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return { PATH: env['PATH'] ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' };
}

export function probe(argv: readonly [string, ...string[]], options: ProbeOptions): Promise<ProbeResult> {
  const started = performance.now();
  const [program, ...args] = argv;
  return new Promise((resolve) => {
    const child = execFile(
      program,
      args,
      {
        env: probeEnv(options.env),
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 5000,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({
          ok: error === null,
          missing: error?.code === 'ENOENT',
          code,
          stdout,
          stderr,
          ms: performance.now() - started,
        });
      },
    );
    child.stdin?.end();
  });
}
