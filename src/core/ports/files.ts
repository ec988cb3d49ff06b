/** File access: stats, symlinks as content, and the atomic writes aide makes to the workspace. */

export interface FileStat {
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** Permission bits. */
  mode: number;
  size: number;
}

/** A symlink as content: the target text stored in the link (never resolved). */
export interface SymlinkContent {
  symlink: string;
}

/** What was at a path before a change, kept for rollback: a file's bytes, a symlink, or nothing (null). */
export type PreviousContent = Uint8Array | SymlinkContent | null;

/**
 * A file's new bytes: all at once, or a source of pieces encoded one at a time as they are
 * written, so a 20 MB file (or 2,000 files of one commit, all written before any is renamed)
 * never sits in memory as bytes beside the text it is made from. A piece is valid until the
 * next one is asked for (it may be encoded into the same buffer): write or copy it first.
 * `chunks()` may be called more than once, each time yielding the same bytes from the start.
 */
export type WriteContent = Uint8Array | { chunks(): Iterable<Uint8Array> };

/**
 * One change to write. `previous` is what the path held before (null: nothing), kept for
 * rollback. `executable` sets (true) or clears (false) a file's executable bits, as git
 * records them; omitted, an existing file keeps its mode. A new file gets 0666 or 0777 less
 * the umask, like a git checkout, and an existing file's other bits (a 0600 secret) are kept.
 */
export type FileWrite =
  | { kind: 'write'; path: string; content: WriteContent; previous: PreviousContent; executable?: boolean }
  | { kind: 'symlink'; path: string; target: string; previous: PreviousContent }
  | { kind: 'delete'; path: string; previous: Uint8Array | SymlinkContent };

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
