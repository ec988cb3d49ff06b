/**
 * A long-lived git process (`cat-file --batch`, `update-ref --stdin`) may keep aide running only
 * while aide waits for its answer: an idle one is unref'd, its pipes too (they are sockets, which
 * hold the event loop on their own).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

export function holdWhileBusy(child: ChildProcessWithoutNullStreams, busy: boolean): void {
  if (busy) child.ref();
  else child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr] as unknown as Array<{
    ref?: () => void;
    unref?: () => void;
  }>) {
    if (busy) stream.ref?.();
    else stream.unref?.();
  }
}
