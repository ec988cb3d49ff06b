/** Checkpoints and restores: the shadow repository as the core sees it. */
import type { FileChange } from './changes.js';

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
  /** Paths left out of this checkpoint (too large); restore never touches them. */
  skipped: string[];
  /** Files that differ from the previous checkpoint. */
  filesChanged: number;
}

export interface CheckpointRequest {
  /** The session's branch to record on; omitted: a new session of its own, named after the reason. */
  session?: string;
  /**
   * The named session was made just now and has no checkpoint yet: its branch is not looked up
   * (a git process fewer). Were it there after all, recording refuses to move it.
   */
  newSession?: boolean;
  reason: string;
  message: string;
  step?: string;
  verdict?: string;
  /**
   * Paths about to be written or deleted (relative to the workspace root, '/'-separated). The
   * checkpoint holds each as it is now, whatever the ignore rules say, and so does every later
   * one, so restore can put back or remove what the write does (an ignored `.env` included).
   */
  paths?: readonly string[];
}

export interface CheckpointResult {
  checkpoint: CheckpointRecord;
  /** false when the workspace had not changed since the session's last checkpoint. */
  created: boolean;
  /** Files left out of this checkpoint, with their sizes. */
  skipped: Array<{ path: string; bytes: number }>;
  /**
   * Those of the request's `paths` that git ignores: checkpointed all the same, but a change to
   * them shows in neither `git status` nor `git diff`, so the caller should say so.
   */
  ignored?: string[];
}

/** Takes checkpoints of the workspace (the shadow repository). */
export interface Checkpointer {
  checkpoint(request: CheckpointRequest): Promise<CheckpointResult>;
}

/**
 * What a restore does to one path of the workspace, from the workspace as it is now to the
 * checkpoint: created (missing now), modified or type_changed (overwritten), deleted (removed).
 */
export interface RestoreChange extends FileChange {
  /** What the path holds afterwards; null for a removal. */
  kind: 'file' | 'executable' | 'symlink' | null;
}

/** Why a path that differs is left as it is. */
export type RestoreSkipReason =
  /** Over the size limit now: its current content is in no checkpoint, so it is never overwritten. */
  | 'too-large-now'
  /** The target checkpoint left it out (over the size limit then): its content there is unknown. */
  | 'too-large-then'
  /** Something aide did not capture (an ignored file, a symlink, a folder) is at the path or in its way. */
  | 'not-captured'
  /** A submodule or nested repository recorded as a link, not as files. */
  | 'nested-link'
  /** A path inside a .git folder: never written. */
  | 'git-internal'
  /** A file name that is not UTF-8: aide cannot name it exactly, so it never writes or removes it. */
  | 'name-not-utf8';

export interface RestoreSkip {
  path: string;
  reason: RestoreSkipReason;
}

/** What a restore to a checkpoint would change, computed against the workspace as it is now. */
export interface RestorePlan {
  target: CheckpointRecord;
  /** Removals first, then writes; each group sorted by path. */
  changes: RestoreChange[];
  leftAlone: RestoreSkip[];
}

/** A checkpoint named by a restore journal. */
export interface CheckpointRef {
  id: string;
  short: string;
}

/** A restore that was interrupted (killed) before it finished: its journal is still there. */
export interface PendingRestore {
  target: CheckpointRef;
  /** The safety checkpoint that run took. */
  safety: CheckpointRef;
  /** The checkpoint that undoes it: the state before the first of a chain of interrupted runs. */
  undo: CheckpointRef;
  /** ISO 8601. */
  startedAt: string;
  pid: number;
}

export interface RestoreOutcome {
  /** Files and symlinks written. */
  written: number;
  removed: number;
  /** Folders removed because the restore emptied them, relative to the root. */
  foldersRemoved: string[];
}

/** Restores the workspace's files to a checkpoint (the shadow repository). */
export interface Restorer {
  /** The restore a crash left half done, if any. */
  pendingRestore(): Promise<PendingRestore | null>;
  /** Removes the temp files an interrupted restore left; returns how many. */
  recover(pending: PendingRestore): Promise<number>;
  /** Plans a restore to `target` (an id, abbreviated or full); throws `checkpoint_unknown`. */
  planRestore(target: string): Promise<RestorePlan>;
  /**
   * Applies a plan after `safety` was taken: journal first, then every file atomically, then
   * the folders the removals emptied. Refuses (nothing written) when the safety checkpoint is
   * not the state the plan was computed from: the workspace changed in between.
   */
  applyRestore(
    plan: RestorePlan,
    safety: CheckpointRecord,
    pending: PendingRestore | null,
  ): Promise<RestoreOutcome>;
  /** Completes an interrupted restore that has nothing left to write: its emptied folders, its journal. */
  finishPending(pending: PendingRestore): Promise<RestoreOutcome>;
}

/** A file a checkpoint changed, with its line counts (null for a binary file). */
export interface FileChangeSummary extends FileChange {
  added: number | null;
  removed: number | null;
}

/** What a prune removed (or would remove, in a dry run) and the shadow's size before and after. */
export interface PruneResult {
  removed: Array<{ session: string; time: string }>;
  kept: number;
  bytesBefore: number;
  bytesAfter: number;
  /** Why the objects of removed sessions were not collected (a kept checkpoint names a missing object). */
  notCompacted?: string;
}

/** What `aide checkpoints --stats` reports of the shadow repository. */
export interface ShadowStats {
  path: string;
  bytes: number;
  sessions: number;
  checkpoints: number;
  objects: number;
  /** Whether the shadow borrows the user's objects (alternates). */
  borrowsObjects: boolean;
}
