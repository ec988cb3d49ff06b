/**
 * Synchronous calls for the small files aide keeps its own state in (locks, owner records, the
 * shadow's settings, a scratch's git link): a few hundred bytes each, where the call itself takes
 * microseconds. Through the thread pool every one was a round trip that waited for a core on a
 * busy machine (a readFile four: open, stat, read, close), one after another in front of every
 * hook's review: 8-9 ms before its first git process, as much again before its verify command.
 * Never for the contents of a user's files or a walk of a whole tree (captures, sweeps), which
 * stay asynchronous.
 */
import { lstatSync, readdirSync, readFileSync, unlinkSync, type Stats } from 'node:fs';

/** The file's text, or `fallback` when it cannot be read (missing, a folder, no permission). */
export function readTextOr<T>(path: string, fallback: T): string | T {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}

/** lstat, or undefined when there is nothing at `path` (or it cannot be looked at). */
export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The names in a folder, or none when it cannot be read. */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** unlink that ignores any failure: a file already gone, or litter that is harmless to leave. */
export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already, or not ours to remove.
  }
}

/**
 * A synchronous call's result as a promise, its throw as the rejection: for the functions whose
 * callers await them (and chain `.catch`), now that their file calls no longer need to.
 */
export function settled<T>(call: () => T): Promise<T> {
  return new Promise<T>((resolve) => {
    resolve(call());
  });
}
