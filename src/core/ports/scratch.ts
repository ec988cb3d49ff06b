/** The scratch: a copy of the workspace where edits and verify commands run. */
import type { ChangedFile, TreeChange } from './changes.js';

/** A path git ignores, and why: the ignore file, line and pattern (e.g. `.gitignore:3:.env`). */
export interface IgnoredPath {
  path: string;
  rule: string;
}

/** The scratch's files read back into the shadow's object store. */
export interface ScratchCapture {
  /** The tree the scratch was last moved to (or opened at): what the changes are relative to. */
  base: string;
  /** The scratch's files as a tree (linked folders left out). */
  tree: string;
  changes: TreeChange[];
}

/** What a move did. */
export interface ScratchMove {
  /** Tree the files were at before the move (after the sweep, if any). */
  from: string;
  /** Tree the files are at now. */
  to: string;
  /** Files (and symlinks) written. */
  written: number;
  /** Files removed. */
  removed: number;
  /** Whether the scratch was swept for edits before moving (a walk of its files, like `git status`). */
  swept: boolean;
}

/** A folder of the workspace linked into the scratch instead of copied (`link` in sandbox.json). */
export interface ScratchLink {
  /** Workspace-relative path, as configured. */
  path: string;
  /** The workspace folder the symlink points at (absolute). */
  target: string;
  /** True while the symlink is in place. */
  linked: boolean;
  /**
   * Why it is not linked: absent from the workspace, tracked in the base (checked out instead),
   * its parent folder not in the base, or something the scratch made itself already there.
   */
  reason: 'missing_in_workspace' | 'tracked_in_base' | 'no_parent_in_base' | 'occupied' | null;
}

/**
 * A private checkout of a snapshot or checkpoint outside the workspace, where a step's edits are
 * made and its verify commands run. The workspace and the user's `.git` are never written.
 */
export interface Scratch {
  /** Absolute path of the checkout. Edits and verify commands happen here, nowhere else. */
  readonly path: string;
  readonly session: string;
  /** The tree the scratch was last moved to (or opened at). */
  readonly base: string;
  readonly links: readonly ScratchLink[];
  /**
   * Moves the scratch to another snapshot or checkpoint (a tree or commit id): only the files
   * that differ are written, files the target lacks are removed, edits are discarded; ignored
   * files (build outputs, caches) stay, like in a developer's checkout. Cost grows with the files
   * that differ, not with the repository, when `sweep` is false: pass it only when nothing has
   * written to the scratch since the last capture() or moveTo(). By default the scratch is first
   * swept for edits (a walk of its files, as long as `git status`).
   */
  moveTo(target: string, options?: { sweep?: boolean }): Promise<ScratchMove>;
  /** Records the scratch's current files as a tree in the shadow's object store, with the changes from `base`. */
  capture(): Promise<ScratchCapture>;
  /**
   * The commands run in the scratch so far have ended, and none runs until the next move,
   * capture or command (the act flow says so once a step that another follows is verified,
   * while the step is approved, checkpointed and written back): a scratch may begin the sweep
   * those will need now, in the background. Nothing needs to wait for the promise (it says
   * when that sweep has ended; it never rejects).
   */
  settle?(): Promise<void>;
  /** The files a capture changed from its base, each with its diff (a capture is taken now when not given). */
  changedFiles(capture?: ScratchCapture): Promise<ChangedFile[]>;
  /** Which of these scratch-relative paths git ignores (a capture leaves them out), each with the rule that does. */
  ignoredPaths(paths: readonly string[]): Promise<IgnoredPath[]>;
  /** A unified diff from `base` to the capture (taken now when not given). */
  diff(capture?: ScratchCapture): Promise<string>;
  /**
   * Removes the scratch, or leaves a workspace's kept scratch for the next session (which sweeps
   * it) unless `remove`: an interrupted session removes it, since what its commands left running
   * may still write there. Links are removed as links: nothing is deleted through them.
   */
  dispose(options?: { remove?: boolean }): Promise<void>;
}

/**
 * Opens the scratch of a session: the workspace's kept one, swept, where the opener keeps one and
 * no other process uses it, else one of its own (stale ones of dead processes are removed first).
 */
export interface ScratchOpener {
  open(session: string, base: string): Promise<Scratch>;
}
