/**
 * What a scratch is told about writes it did not make itself, so that a capture can read just
 * the paths aide wrote (written-tree.ts) and walk every file only after something aide does
 * not control ran there. The act session's file system and command runner
 * are wrapped once, before its scratch is opened: every write the step's edits or the agent's
 * tools make goes through the one, every Run:, verify or agent command through the other.
 *
 * Fail-safe by construction: a write outside the scratch's folder, or one whose path cannot be
 * named relative to it, counts as foreign, and so does every command, whatever its folder.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { FileSystem } from '../../../core/ports/files.js';

/** The part of a scratch the tracker tells (WorktreeScratch). */
export interface TrackedScratch {
  readonly path: string;
  trackWrites(options?: { sweepsEarly?: boolean }): void;
  noteWritten(paths: readonly string[]): void;
  noteForeign(): void;
}

export class ScratchTracker {
  private scratch: TrackedScratch | null = null;

  /**
   * From now on writes and commands are told to this scratch. `commandsLeaveNothing`: every
   * process a command starts is gone when its run returns (a PID namespace), so the scratch may
   * sweep as soon as the flow says the commands are over (Scratch.settle).
   */
  attach(scratch: TrackedScratch, options: { commandsLeaveNothing?: boolean } = {}): void {
    this.scratch = scratch;
    scratch.trackWrites({ sweepsEarly: options.commandsLeaveNothing === true });
  }

  /** A command is about to run (or ran): whatever it wrote is unknown. */
  commandRan(): void {
    this.scratch?.noteForeign();
  }

  /** Absolute paths written: those inside the scratch by their relative path, any other as foreign. */
  wrote(paths: readonly string[]): void {
    const scratch = this.scratch;
    if (scratch === null) return;
    const inside: string[] = [];
    for (const path of paths) {
      const rel = relative(scratch.path, path);
      if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) scratch.noteForeign();
      else inside.push(rel.split(sep).join('/'));
    }
    scratch.noteWritten(inside);
  }

  /** The file system with every commit told to the scratch, before the write (a failed one may have half-written). */
  files(fs: FileSystem): FileSystem {
    return {
      readFile: (path) => fs.readFile(path),
      lstat: (path) => fs.lstat(path),
      realpath: (path) => fs.realpath(path),
      commit: (changes) => {
        this.wrote(changes.map((c) => c.path));
        return fs.commit(changes);
      },
    };
  }
}
