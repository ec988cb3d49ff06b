/**
 * Who a process is, beyond its pid: pids are reused (after a reboot, pid 1 is always alive), so a
 * record that names only a pid cannot tell its writer from a stranger. On Linux the identity is
 * the boot id plus the process's start time in clock ticks (/proc/<pid>/stat field 22): together
 * they name one process for ever. Elsewhere there is no identity and the pid alone decides.
 */
import { readFileSync } from 'node:fs';
import { settled } from '../fs/small-files.js';

/**
 * Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. Read
 * synchronously, as every /proc file here: each is a few hundred bytes the kernel makes on the
 * spot, and through the thread pool one cost four round trips (open, stat, read, close) that
 * waited for a core on a busy machine, in front of every lock a hook's review takes.
 */
function startTicks(pid: number): string | undefined {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** This process's identity, read once: it never changes. */
let own: string | null | undefined;

/** Linux: `<boot id>:<start time in ticks>` of a process, or null elsewhere (or when it is gone). */
export function processIdentity(pid: number): Promise<string | null> {
  if (pid !== process.pid) return settled(() => identityNow(pid));
  own ??= identityNow(pid);
  return Promise.resolve(own);
}

function identityNow(pid: number): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8');
    const start = startTicks(pid);
    return start === undefined ? null : `${boot.trim()}:${start}`;
  } catch {
    return null;
  }
}

/** Clock ticks per second (USER_HZ): 100 on every Linux architecture's ABI. */
const TICKS_PER_SECOND = 100;

/**
 * Linux: when a process started, in ms since the epoch (boot time plus its start ticks), or null.
 * For records that name only a pid and a start date (an older aide's): a process that started
 * after the record was written cannot have written it.
 */
export function processStartedAt(pid: number): Promise<number | null> {
  return settled(() => {
    try {
      const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
      const start = startTicks(pid);
      if (boot === undefined || start === undefined) return null;
      return Number(boot) * 1000 + (Number(start) * 1000) / TICKS_PER_SECOND;
    } catch {
      return null;
    }
  });
}

/** Whether a process with this pid exists (EPERM: it does, but belongs to someone else). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process that recorded `pid` and `identity` is still running. A pid now held by
 * another process (its identity differs) does not count; without an identity on either side
 * (another platform, or /proc unreadable) the pid alone decides.
 */
export async function processAlive(pid: number, identity: string | null): Promise<boolean> {
  if (!Number.isInteger(pid) || pid <= 0 || !pidExists(pid)) return false;
  if (identity === null) return true;
  const now = await processIdentity(pid);
  return now === null || now === identity;
}
