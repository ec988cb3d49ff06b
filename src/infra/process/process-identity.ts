/**
 * Who a process is, beyond its pid: pids are reused (after a reboot, pid 1 is always alive), so a
 * record that names only a pid cannot tell its writer from a stranger. On Linux the identity is
 * the boot id plus the process's start time in clock ticks (/proc/<pid>/stat field 22): together
 * they name one process for ever. Elsewhere there is no identity and the pid alone decides.
 */
import { readFile } from 'node:fs/promises';

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
async function startTicks(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** Linux: `<boot id>:<start time in ticks>` of a process, or null elsewhere (or when it is gone). */
export async function processIdentity(pid: number): Promise<string | null> {
  try {
    const [boot, start] = await Promise.all([
      readFile('/proc/sys/kernel/random/boot_id', 'utf8'),
      startTicks(pid),
    ]);
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
export async function processStartedAt(pid: number): Promise<number | null> {
  try {
    const [stat, start] = await Promise.all([readFile('/proc/stat', 'utf8'), startTicks(pid)]);
    const boot = /^btime (\d+)$/m.exec(stat)?.[1];
    if (boot === undefined || start === undefined) return null;
    return Number(boot) * 1000 + (Number(start) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
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
