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
