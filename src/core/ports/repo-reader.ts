/**
 * Plan mode's view of the repository: one snapshot of the workspace, read only. There is no
 * method that writes, so Plan mode is read-only by type, not by prompt. Paths are relative to
 * the workspace root, '/'-separated, already checked by the caller (core/agent/read-tools.ts);
 * an adapter still never reads outside its snapshot (it reads a git tree, not the disk).
 */

/** One entry of the snapshot. A symlink is listed, never followed: its `bytes` is its target's length. */
export interface RepoFile {
  path: string;
  bytes: number;
  kind: 'file' | 'executable' | 'symlink';
  /** The git blob id: caches of what was read from a file key on it. */
  blob: string;
}

/** Why a file cannot be read. `directory`: the path names a folder of the snapshot. */
export type ReadRefusal =
  { reason: 'missing' } | { reason: 'directory' } | { reason: 'symlink'; target: string };

export type RepoRead = { ok: true; bytes: Uint8Array } | ({ ok: false } & ReadRefusal);

export interface SearchRequest {
  /** A regular expression (POSIX extended, as `git grep -E` reads it). */
  pattern: string;
  /** Only files under this folder (or this one file). */
  path?: string;
  /**
   * Only files whose path matches this glob (`*.ts`, `src/**\/*.py`). A glob without a '/'
   * matches names at any depth; one with a '/' is read from `path` (or the root). Not applied
   * when `path` names one file: that file is what was asked for.
   */
  glob?: string;
  /** At most this many files are returned; `truncated` says there were more. */
  maxFiles: number;
  /** At most this many matching lines per file. */
  maxLinesPerFile: number;
}

export interface SearchHit {
  path: string;
  /** Matching lines in the file, all of them (not only those in `lines`). */
  count: number;
  lines: Array<{ line: number; text: string }>;
}

export type SearchOutcome =
  | { ok: true; hits: SearchHit[]; truncated: boolean }
  /** The pattern is not a regular expression the search reads; `detail` is its own words. */
  | { ok: false; reason: 'bad_pattern'; detail: string };

/** A snapshot of the workspace to read; what it holds never changes while it is read. */
export interface RepoReader {
  /** The snapshot's id (a tree or checkpoint id), for the plan's `base` and caches. */
  readonly id: string;
  /** Every file of the snapshot, sorted by path. */
  listFiles(): Promise<RepoFile[]>;
  readFile(path: string): Promise<RepoRead>;
  search(request: SearchRequest): Promise<SearchOutcome>;
}

/**
 * Top-level definitions of source files (classes, functions, exported names), for the
 * repository map. Files in a language it has no grammar for are left out of the answer.
 */
export interface DefinitionIndex {
  /** Each file's definitions, one short line each (`class Inventory`, `function formatReport(inventory)`). */
  definitions(files: readonly RepoFile[], reader: RepoReader): Promise<Map<string, string[]>>;
}
