/**
 * A changed file, in one vocabulary: what an edit, a scratch, a checkpoint or a restore reports
 * as changed is a FileChange or a shape built on it. Renderers and the versioned JSON documents
 * may spell the action otherwise (`A`, `create`), always translated from this one.
 */

/**
 * What happened to a path between two states. type_changed: it is still there, but a file
 * became a symlink (or a submodule link) or the reverse, which git reports as `T`; a change of
 * the executable bit alone is modified.
 */
export const CHANGE_ACTIONS = ['created', 'modified', 'deleted', 'type_changed'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** One path that differs between two states of the files. */
export interface FileChange {
  /** Workspace-relative, '/'-separated. */
  path: string;
  action: ChangeAction;
}

/** A change between two trees of the shadow, with the git objects on each side. */
export interface TreeChange extends FileChange {
  /** Git mode before ('100644', '100755', '120000' for a symlink, '160000' a submodule); null when created. */
  oldMode: string | null;
  /** Git mode after; null when deleted. */
  newMode: string | null;
  /** Blob id before (what the workspace file must still be before it is overwritten); null when created. */
  oldBlob: string | null;
  /** Blob id after; null when deleted. */
  newBlob: string | null;
}

/** A change with its line counts: what an event names. */
export interface CountedChange extends FileChange {
  /** Lines added and removed; 0 and 0 for a binary file. */
  added: number;
  removed: number;
}

/** A change with its counts and its unified diff: what a review shows. */
export interface ChangedFile extends CountedChange {
  /** Unified diff of the change, git's format (a type change is a deletion, then a creation). */
  diff: string;
}
