/**
 * Ctrl-C (and SIGTERM, SIGHUP) during a long command: the first one aborts the work through an
 * AbortSignal, so running commands are killed and scratch copies removed before aide exits with
 * 128 + the signal's number, as a shell reports it. A second Ctrl-C while that cleanup runs is
 * absorbed: the cleanup is what keeps the workspace whole.
 */
import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface Interrupt {
  /** Aborted at the first signal. */
  readonly signal: AbortSignal;
  /** The first signal received, or null. */
  received(): NodeJS.Signals | null;
  /** Stops listening; signals get their default behavior back. */
  dispose(): void;
}

export function listenForInterrupt(onFirst?: (signal: NodeJS.Signals) => void): Interrupt {
  const controller = new AbortController();
  let first: NodeJS.Signals | null = null;
  const handler = (signal: NodeJS.Signals) => {
    if (first !== null) return;
    first = signal;
    onFirst?.(signal);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  for (const signal of SIGNALS) process.on(signal, handler);
  return {
    signal: controller.signal,
    received: () => first,
    dispose: () => {
      for (const signal of SIGNALS) process.off(signal, handler);
    },
  };
}

/** 128 + the signal number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. */
export function interruptExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}
