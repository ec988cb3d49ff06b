/**
 * Keys typed while aide's task tree is live must not be echoed. The terminal echoes them where
 * the cursor is, in the middle of the tree, and an Enter moves the cursor a line down: the
 * renderer then erases one line too few on its next frame and the tree's header is left on the
 * screen twice (seen typing during a test run). Only ECHO is turned off (`stty -echo`), not raw
 * mode: Ctrl-C must still be SIGINT, which aide handles. The keys are still buffered; the prompt
 * guard drops them before a question (prompt-guard.ts). Prompts switch to raw mode and back,
 * and Node restores the mode it found (echo off), so one call covers the whole run.
 */
import { spawnSync } from 'node:child_process';

/** The part of stdin this needs. */
export interface TerminalInput {
  isTTY?: boolean;
}

function stty(args: readonly string[]): { ok: boolean; out: string } {
  // stdin is the terminal to change; stty reads and sets the settings of its own stdin.
  const result = spawnSync('stty', args, {
    stdio: ['inherit', 'pipe', 'ignore'],
    encoding: 'utf8',
    timeout: 2000,
  });
  return { ok: result.status === 0, out: (result.stdout ?? '').trim() };
}

/** Turns echo off on a terminal stdin; returns how to put the settings back (a no-op otherwise). */
export function silenceEcho(stdin: TerminalInput): () => void {
  if (stdin.isTTY !== true) return () => undefined;
  const saved = stty(['-g']);
  if (!saved.ok || saved.out === '' || !stty(['-echo']).ok) return () => undefined;
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    process.off('exit', restore);
    stty([saved.out]);
  };
  // A process that ends in the middle (a second Ctrl-C, an uncaught error) gives the echo back too.
  process.once('exit', restore);
  return restore;
}
