/**
 * Signals to whole process groups, and the promise that no group outlives aide: when aide's
 * process exits (a crash, `process.exit`), every group still running is killed synchronously,
 * because nothing asynchronous runs after the 'exit' event.
 */

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killLiveGroups(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  liveGroups.clear();
}

/**
 * Sends `signal` to every process in the group led by `pgid`. False when the group is gone.
 * Once the leader is reaped its pid may in principle be reused as a new group's id; the runner
 * only signals a group until moments after its leader exits, and pids are handed out in order,
 * so that window would need the whole pid space to wrap around in it.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
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
