/**
 * File descriptors aide inherited open without close-on-exec (a terminal multiplexer's pipe, a
 * GUI client's log file open for writing, make's jobserver) are passed on to every process it
 * spawns, a sandboxed command included: the sandbox confines paths, not descriptors, so such a
 * command could write through one outside its scratch. Node's own descriptors are all
 * close-on-exec (libuv opens them so), and aide uses none it inherited beyond stdin, stdout
 * and stderr, so the others are closed before a command runs.
 */
import { closeSync, readdirSync, readFileSync } from 'node:fs';

/** O_CLOEXEC in fdinfo's `flags:` (octal): 02000000 on the architectures node runs Linux on. */
const O_CLOEXEC = 0o2000000;

/** Closes every inherited descriptor above 2 that a spawned process would get; returns them. Linux only (/proc). */
export function closeInheritedFds(): number[] {
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const closed: number[] = [];
  for (const name of fds) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    let info: string;
    try {
      info = readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1');
    } catch {
      continue; // the listing's own descriptor, closed by now
    }
    const flags = /^flags:\s*([0-7]+)$/m.exec(info);
    if (flags === null || (parseInt(flags[1] ?? '0', 8) & O_CLOEXEC) !== 0) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // Already closed.
    }
  }
  return closed;
}
