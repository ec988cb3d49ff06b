/** The data the edit engine passes between its pure stages. */

/** One way to read a block: what to find and what to put in its place, as lines. */
export interface EditVariant {
  search: string[];
  replace: string[];
}

/** One edit the response asks for, in the order written. */
export interface EditBlock {
  /** 1-based ordinal of the block in the response. */
  index: number;
  /** 1-based line in the response where the block starts. */
  line: number;
  format: 'search-replace' | 'diff';
  /** The path as written, separators normalized; not yet checked against the workspace. */
  path: string;
  /** 'previous' when the block named no path and reuses the one before it. */
  pathFrom: 'explicit' | 'previous';
  /** 'edit' replaces text (an empty search creates the file); 'delete' removes the file. */
  op: 'edit' | 'delete';
  /**
   * Usually one. More than one when a SEARCH/REPLACE block holds several `=======` lines
   * (a Markdown heading underline): each split is tried and exactly one may match.
   */
  variants: EditVariant[];
  /**
   * A diff hunk's stated line. Used only to choose between several exact occurrences of the
   * same text (as `git apply` does); never to place a hunk whose text is not there.
   */
  lineHint?: number;
  /**
   * A rename (`rename from`/`rename to` of `git diff -M`): the path the file moves from. The
   * block moves that file to `path`, which must not exist; the diff's hunks follow as blocks
   * of their own on `path`. Resolved against the workspace like `path`.
   */
  renameFrom?: string;
}

/** Something in the response that cannot be turned into an edit. Any problem fails the whole apply. */
export interface ParseProblem {
  line: number;
  /** What is wrong, for the user. */
  message: string;
  /** What the model should write instead. */
  hint: string;
}

export interface ParsedResponse {
  blocks: EditBlock[];
  problems: ParseProblem[];
}
