/**
 * The ports: what the core needs from the outside world. infra/ implements them; tests use
 * the real implementations against temp directories.
 */

export interface FileStat {
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** Permission bits. */
  mode: number;
  size: number;
}

/** One change to write. `previous` is the file's content before (null: it did not exist), kept for rollback. */
export type FileWrite =
  | { kind: 'write'; path: string; content: Uint8Array; previous: Uint8Array | null }
  | { kind: 'delete'; path: string; previous: Uint8Array };

/** File access by absolute path. */
export interface FileSystem {
  /** The bytes of a file, or null when nothing is there. */
  readFile(path: string): Promise<Uint8Array | null>;
  /** Like lstat(2): a symlink is reported as one. null when nothing is there. */
  lstat(path: string): Promise<FileStat | null>;
  /** The canonical path with every symlink resolved; null when it does not exist. */
  realpath(path: string): Promise<string | null>;
  /**
   * Writes all changes, each atomically (temp file in the same folder, then rename) with its
   * mode kept. If any write fails, the ones already made are rolled back and it throws.
   */
  commit(changes: readonly FileWrite[]): Promise<void>;
}

/** A checkpoint as the core sees it: a recorded state of the workspace in the shadow repository. */
export interface CheckpointRecord {
  id: string;
  short: string;
  /** ISO 8601. */
  time: string;
  session: string;
  reason: string;
  message: string;
  step: string | null;
  verdict: string | null;
  /** Paths left out (over the size limit). */
  skipped: string[];
  filesChanged: number;
}

export interface CheckpointRequest {
  /** The session's branch to record on; omitted: a new session of its own, named after the reason. */
  session?: string;
  reason: string;
  message: string;
  step?: string;
  verdict?: string;
}

export interface CheckpointResult {
  checkpoint: CheckpointRecord;
  /** false when the workspace had not changed since the session's last checkpoint. */
  created: boolean;
  /** Files left out of this checkpoint, with their sizes. */
  skipped: Array<{ path: string; bytes: number }>;
}

/** Takes checkpoints of the workspace (the shadow repository). */
export interface Checkpointer {
  checkpoint(request: CheckpointRequest): Promise<CheckpointResult>;
}

/** One path that differs between a scratch's base and its captured state. */
export interface ScratchChange {
  /** Workspace-relative, '/'-separated. */
  path: string;
  status: 'added' | 'modified' | 'deleted' | 'type_changed';
  /** Git mode before ('100644', '100755', '120000' for a symlink); null when added. */
  oldMode: string | null;
  /** Git mode after; null when deleted. */
  newMode: string | null;
  /** Blob id before (what the workspace file must still be before it is overwritten); null when added. */
  oldBlob: string | null;
  /** Blob id after; null when deleted. */
  newBlob: string | null;
}

/** The scratch's files read back into the shadow's object store. */
export interface ScratchCapture {
  /** The tree the scratch was last moved to (or opened at): what the changes are relative to. */
  base: string;
  /** The scratch's files as a tree (linked folders left out). */
  tree: string;
  changes: ScratchChange[];
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
  /** The changes from `base` (a capture). */
  changedFiles(): Promise<ScratchChange[]>;
  /** A unified diff from `base` to the capture (taken now when not given). */
  diff(capture?: ScratchCapture): Promise<string>;
  /** Removes the scratch. Links are removed as links: nothing is deleted through them. */
  dispose(): Promise<void>;
}

/** Opens the scratch of a session (one per session; stale ones of dead processes are removed first). */
export interface ScratchOpener {
  open(session: string, base: string): Promise<Scratch>;
}
