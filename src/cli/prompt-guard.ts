/**
 * Two things enquirer does on its own that an approval prompt must not:
 *
 * - Keys typed while aide was busy wait in the terminal's input buffer, and the next prompt
 *   reads them as answers: an Enter pressed during a long test run would choose the step
 *   review's first item, Approve. Before such a prompt, whatever is buffered is dropped.
 * - While a prompt is open, enquirer quits the process on SIGINT or SIGTERM (process.exit(130)
 *   in its utils.onExit), which skips aide's own interrupt handling: the scratch copy is not
 *   removed, the session is not recorded as interrupted, and the task tree never gives the
 *   cursor back. Those handlers are removed as soon as enquirer makes its prompt; aide's
 *   handler cancels the prompt instead (an abort).
 */
import type { EventEmitter } from 'node:events';

/** The part of a TTY stdin discardTypeahead needs. */
export interface KeyboardInput {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: 'data', listener: (chunk: unknown) => void): unknown;
  off(event: 'data', listener: (chunk: unknown) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** How long buffered keys take to arrive once asked for: they are already in the kernel's buffer. */
const SETTLE_MS = 30;

export async function discardTypeahead(stdin: KeyboardInput): Promise<void> {
  if (stdin.isTTY !== true || stdin.setRawMode === undefined) return;
  const wasRaw = stdin.isRaw === true;
  // Raw mode makes a half-typed line readable too (cooked mode holds it until Enter).
  stdin.setRawMode(true);
  const drop = () => undefined;
  stdin.on('data', drop);
  stdin.resume();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  // On a loaded machine the process can be off the CPU for longer than SETTLE_MS: the timer then
  // fires in the same loop turn as the resume, before any read, and the keys stayed buffered (an
  // Enter typed during the tests approved the step; seen in CI at load 10 on 2 cores). An
  // immediate runs after the loop's next poll phase, which reads what the kernel already holds.
  await new Promise((resolve) => setImmediate(resolve));
  stdin.off('data', drop);
  stdin.pause();
  stdin.setRawMode(wasRaw);
}

const QUITTING_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Call before `enquirer` asks: the signal handlers its next prompt adds are removed once it exists. */
export function keepSignalsFrom(enquirer: EventEmitter): void {
  const before = new Map(QUITTING_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  enquirer.once('prompt', () => {
    for (const [signal, known] of before) {
      for (const listener of process.listeners(signal))
        if (!known.has(listener)) process.off(signal, listener);
    }
  });
}
