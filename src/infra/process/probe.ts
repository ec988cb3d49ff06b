/**
 * Capability probes: run a small command once and report what happened. Never rejects; a
 * command that is not installed is reported as missing. Killed outright after a few seconds.
 *
 * execa runs them (imported on the first probe: about 0.1 s that `aide --help` and most
 * commands never pay). Its own timeout kills only the direct child, and a grandchild holding
 * the output pipe would keep the promise open (LESSONS), so a probe leads its own process group
 * and the timeout kills the whole group, as aide's exit does.
 */
import type { execa } from 'execa';
import { signalGroup, trackGroup, untrackGroup } from './process-group.js';

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

let loadExeca: Promise<typeof execa> | undefined;

export async function probe(
  argv: readonly [string, ...string[]],
  options: ProbeOptions,
): Promise<ProbeResult> {
  loadExeca ??= import('execa').then((module) => module.execa);
  const run = await loadExeca;
  const started = performance.now();
  const [program, ...args] = argv;
  const subprocess = run(program, args, {
    env: probeEnv(options.env),
    extendEnv: false,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdin: 'ignore',
    detached: true,
    reject: false,
    maxBuffer: 1 << 20,
    stripFinalNewline: false,
  });
  const pgid = subprocess.pid;
  if (pgid !== undefined) trackGroup(pgid);
  const timer = setTimeout(() => {
    if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
  }, options.timeoutMs ?? 5000);
  try {
    const result = await subprocess;
    return {
      ok: !result.failed,
      missing: 'code' in result && result.code === 'ENOENT',
      code: result.exitCode ?? null,
      stdout: result.stdout,
      stderr: result.stderr,
      ms: performance.now() - started,
    };
  } finally {
    clearTimeout(timer);
    if (pgid !== undefined) untrackGroup(pgid);
  }
}
