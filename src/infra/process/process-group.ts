/**
 * Signals to whole process groups, and the promise that no group outlives aide: when aide's
 * process exits (a crash, `process.exit`), every group still running is killed synchronously,
 * because nothing asynchronous runs after the 'exit' event.
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { monotonicMs } from '../../shared/monotonic.js';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killLiveGroups(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  liveGroups.clear();
}

/**
 * Sends `signal` to every process in the group led by `pgid` (0: none, only the check). False
 * when the group is gone.
 * Once the leader is reaped its pid may in principle be reused as a new group's id; the runner
 * only signals a group until moments after its leader exits, and pids are handed out in order,
 * so that window would need the whole pid space to wrap around in it.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: no process left in the group. EPERM cannot happen for our own children.
    return false;
  }
}

/** Remembers a running group so that aide's exit kills it. */
export function trackGroup(pgid: number): void {
  if (!exitHookInstalled) {
    process.on('exit', killLiveGroups);
    exitHookInstalled = true;
  }
  liveGroups.add(pgid);
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

/** One buffer for every /proc/<pid>/stat read: a line of a few hundred bytes. */
const STAT_BUFFER = Buffer.alloc(4096);

/**
 * /proc/<pid>/stat, or null when the process is gone. One open, read and close into a reused
 * buffer: readFileSync of a file whose size reads as 0 also stats it and reads twice, and the
 * scan below reads one per process on the machine.
 */
function procStat(pid: string): string | null {
  const read = readProcStat(pid);
  return typeof read === 'string' ? read : null;
}

/** procStat, or why the file could not be opened or read (its error code). */
function readProcStat(pid: string): string | { code: string | undefined } {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code };
  }
  try {
    const length = readSync(fd, STAT_BUFFER, 0, STAT_BUFFER.length, 0);
    return STAT_BUFFER.toString('latin1', 0, length);
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code };
  } finally {
    closeSync(fd);
  }
}

/** State and process group of a /proc/<pid>/stat line: read after the last ')' (comm may hold spaces and parentheses). */
function stateAndGroup(stat: string): { state: string; pgrp: number } {
  const [state = '', , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, pgrp: Number(pgrp) };
}

const running = (state: string) => state !== 'Z' && state !== 'X';

/**
 * Whether the namespace init `init` of the group still runs: false once it is a zombie, gone, or
 * its pid is another group's (reaped, then reused); null when /proc cannot say.
 */
function initRunning(pgid: number, init: number): boolean | null {
  const stat = readProcStat(String(init));
  // ESRCH: reaped between the open and the read.
  if (typeof stat !== 'string') return stat.code === 'ENOENT' || stat.code === 'ESRCH' ? false : null;
  const { state, pgrp } = stateAndGroup(stat);
  return pgrp === pgid && running(state);
}

/**
 * Whether a process of the group is still running (not merely a zombie waiting for its parent).
 * kill(-pgid, 0) answers for most ends at once; it also counts zombies, so when it finds the
 * group, /proc says which of its processes still run. Without a readable /proc a zombie counts
 * as running, and the caller's deadline ends the wait.
 *
 * `init`: the pid of the group's PID namespace init (bwrap's, command-runner.ts). The group is
 * then bwrap's outer process (the leader, already reaped), that init and the processes of its
 * namespace, which the kernel ends before the init's own exit: once the init no longer runs,
 * nothing of the group does. bwrap's outer process exits without reaping it, so the group
 * always holds its zombie for a while (until the system's init reaps it), and reading the init's
 * stat spares a read of every process's on the machine.
 */
function groupRunning(pgid: number, init?: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  const byInit = init === undefined ? null : initRunning(pgid, init);
  if (byInit !== null) return byInit;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  return pids.some((pid) => {
    const stat = procStat(pid);
    if (stat === null) return false; // gone meanwhile
    const { state, pgrp } = stateAndGroup(stat);
    return pgrp === pgid && running(state);
  });
}

/**
 * Waits until no process of the group runs any more, for at most `timeoutMs`; false when some
 * still did then. SIGKILL is delivered when the process next runs, and under load that is
 * milliseconds later: a caller that says "nothing survives" waits for it. A sandbox's namespace
 * init is in the group, and the kernel ends its exit only after every process of the namespace
 * is gone (a `setsid` daemon included), so an empty group means an empty sandbox too. `init`:
 * that init's pid, when the sandbox said it (groupRunning).
 */
export async function groupGone(pgid: number, timeoutMs: number, init?: number): Promise<boolean> {
  const deadline = monotonicMs() + timeoutMs;
  for (let pause = 1; groupRunning(pgid, init); pause = Math.min(pause * 2, 20)) {
    if (monotonicMs() >= deadline) return false;
    await sleep(pause);
  }
  return true;
}
