/**
 * Capability probes: run a small command once and report what happened. Never rejects; a
 * command that is not installed is reported as missing. Killed outright after a few seconds.
 *
 * node's own spawn, not execa: loading execa cost 55–115 ms here, paid by every `aide verify`
 * and `aide review` for the isolation probe alone. A timeout that killed only the direct child
 * would leave a grandchild holding the output pipe and the promise open (LESSONS), so a probe
 * leads its own process group and the timeout kills the whole group, as aide's exit does.
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { signalGroup, trackGroup, untrackGroup } from './process-group.js';
import { monotonicMs } from '../../shared/monotonic.js';

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
  /** The command writes on fd 3 (a sandbox's info fd, sandbox-argv.ts NAMESPACE_INFO_FD): a pipe read and dropped. */
  infoFd?: boolean;
}

/** Only what a probe needs from the environment. */
function probeEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return { PATH: env['PATH'] ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' };
}

/** More output than this fails the probe and kills it: a probe prints a line or two. */
const MAX_BUFFER = 1 << 20;

export function probe(argv: readonly [string, ...string[]], options: ProbeOptions): Promise<ProbeResult> {
  const started = monotonicMs();
  const [program, ...args] = argv;
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      env: probeEnv(options.env),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdio: options.infoFd === true ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    (child.stdio[3] as Readable | null | undefined)?.resume();
    const pgid = child.pid;
    if (pgid !== undefined) trackGroup(pgid);
    let overflow = false;
    const kill = () => {
      if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
    };
    const collect = (stream: Readable) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BUFFER) {
          overflow = true;
          kill();
        } else chunks.push(chunk);
      });
      return () => Buffer.concat(chunks).toString('utf8');
    };
    // Piped, so never null (the stdio's type is widened by the optional fd 3).
    const stdout = collect(child.stdout as Readable);
    const stderr = collect(child.stderr as Readable);
    const timer = setTimeout(kill, options.timeoutMs ?? 5000);
    let settled = false;
    const settle = (code: number | null, error: NodeJS.ErrnoException | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (pgid !== undefined) untrackGroup(pgid);
      resolve({
        ok: error === null && code === 0 && !overflow,
        missing: error?.code === 'ENOENT',
        code,
        stdout: stdout(),
        stderr: stderr(),
        ms: monotonicMs() - started,
      });
    };
    // A program that cannot be started has no pid; any later 'error' (a failed kill) changes nothing.
    child.on('error', (error) => {
      if (pgid === undefined) settle(null, error);
    });
    // 'close': the process has exited and every holder of its output pipes is gone too.
    child.on('close', (code) => {
      settle(code, null);
    });
  });
}
