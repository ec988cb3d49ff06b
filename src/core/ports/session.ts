/** An act session's shadow and workspace side: write-backs and their journals. */
import type { CheckpointRecord } from './checkpoints.js';
import type { ChangedFile, TreeChange } from './changes.js';

/** Why a verified step could not be written into the workspace. */
export interface WriteBackConflict {
  path: string;
  /**
   * changed / deleted: not what the step started from; mode: the same bytes, but its executable
   * bit (or file-or-symlink kind) is not; created: the step adds it, but it exists now; outside:
   * a path that leads out of the workspace.
   */
  reason: 'changed' | 'mode' | 'created' | 'deleted' | 'outside';
}

/** The step a write-back belongs to: what its journal records before the first file changes. */
export interface WriteBackStep {
  step: number;
  /** The step's checkpoint, already recorded: the workspace is to be made to match it. */
  checkpoint: string;
  /** The tree the step started from: its verified patch is the diff from here to the checkpoint. */
  from: string;
  /** The output of the step's Run commands (later steps' templates); null when it has none. */
  output: string | null;
}

/** A write-back that was killed half way (SIGKILL, a crash): its journal is still there. */
export interface PendingWriteBack extends WriteBackStep {
  /** The process that was writing (its temp files carry its pid). */
  pid: number;
  /** ISO 8601. */
  startedAt: string;
  changes: TreeChange[];
}

export interface WriteBackResult {
  written: number;
  conflicts: WriteBackConflict[];
}

/** What a step's checkpoint records besides its tree. */
export interface CheckpointTreeMeta {
  step: string;
  verdict: string;
  message: string;
  /**
   * The checkpoint the scratch started the step from, its tree, and how many files the tree
   * changes from it (the capture's changes): used when it is still the session's head, which
   * saves the shadow reading the tree and comparing the two again.
   */
  from?: { checkpoint: string; tree: string; filesChanged: number };
}

/** The shadow and workspace side of one act session. */
export interface SessionRecorder {
  /** Records a scratch's captured tree as the session's next checkpoint (branch aide/<session>). */
  checkpointTree(tree: string, meta: CheckpointTreeMeta): Promise<CheckpointRecord>;
  /**
   * Writes a step's changes into the workspace, each file atomically and only if every file is
   * still what the step started from (or already what it ends with); otherwise writes nothing
   * and returns the conflicts. A journal naming the step and its changes is written first and
   * left in place until the session's state records the step, so a kill at any moment in
   * between can be rolled forward (`aide act --resume`).
   */
  writeBack(changes: readonly TreeChange[], step: WriteBackStep): Promise<WriteBackResult>;
  /** The write-back a kill interrupted in this session, or null. */
  pendingWriteBack(): Promise<PendingWriteBack | null>;
  /**
   * Rolls an interrupted write-back forward: every file still at its old content or already at
   * its new is (re)written to the new; anything else is a conflict, and then nothing is written.
   * Temp files the killed process left are removed first. The journal stays, as after writeBack.
   */
  finishWriteBack(pending: PendingWriteBack): Promise<WriteBackResult>;
  /** A unified diff between two trees or checkpoints of the shadow. */
  diff(from: string, to: string): Promise<string>;
  /** The files that differ between two trees or checkpoints of the shadow, each with its diff. */
  changedFiles(from: string, to: string): Promise<ChangedFile[]>;
  /** Saves a file (a patch) in the session's folder; returns its absolute path. */
  saveFile(name: string, content: string): Promise<string>;
  /** The bytes of a blob of the shadow's object store (a TreeChange's oldBlob or newBlob). */
  readBlob(id: string): Promise<Uint8Array>;
}
