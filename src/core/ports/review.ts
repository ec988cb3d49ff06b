/**
 * What `aide review` reads of a change between two trees: for each changed file, the lines it
 * adds (with their line numbers in the new version), its size after, and its bytes on either
 * side on demand; and the patch itself, for the model check. The checks in core/review work on this alone; infra builds it from the shadow.
 */
import type { ChangeAction } from './changes.js';

/** One line the change adds. */
export interface AddedLine {
  /** 1-based line number in the file after the change. */
  line: number;
  /** The line's text, without its line break. */
  text: string;
}

/** A file the change touches. */
export interface ReviewedFile {
  /** Workspace-relative, '/'-separated. */
  path: string;
  action: ChangeAction;
  /** The lines added; empty for a binary file or a deletion. */
  added: AddedLine[];
  /** Whether git sees the content as binary (no lines to read). */
  binary: boolean;
  /** Size in bytes after the change; null when deleted, a symlink or a submodule. */
  bytes: number | null;
  /** Whether the new content is a Git LFS pointer (the real file lives elsewhere). */
  lfsPointer: boolean;
  /** Bytes before and after (null: absent on that side), for rules that look inside a file. */
  before: () => Promise<Uint8Array | null>;
  after: () => Promise<Uint8Array | null>;
}

/** One changed file's section of the change as `git diff` prints it, for a reader (the model check). */
export interface FilePatch {
  /** Workspace-relative, '/'-separated: the new path, or the old one for a deletion. */
  path: string;
  /** The section from its `diff --git` line on: headers, then hunks with their context lines. */
  text: string;
}

/** The change between two trees, file by file. */
export interface ReviewSource {
  files(from: string, to: string): Promise<ReviewedFile[]>;
  /**
   * files(), and one file's bytes in `to` (e.g. `.aide/review-ignore` as the change has it; null
   * when absent), read with the changed files' blobs in the same git process (a hook waits for each).
   */
  filesWith(
    from: string,
    to: string,
    path: string,
  ): Promise<{ files: ReviewedFile[]; file: Uint8Array | null }>;
  /** The change as a patch with `context` lines around each hunk, one section per file, in git's order. */
  patches(from: string, to: string, context: number): Promise<FilePatch[]>;
}
