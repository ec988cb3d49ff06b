/**
 * A parser-backed syntax check for source files, behind a port: the parser (TypeScript's, for
 * JS/TS/JSX/TSX) is a large library core does not load itself. JSON is checked in core
 * (core/agent/syntax-guard.ts); this port covers the languages it has a parser for.
 */

/** One syntax error, at a 1-based line and column of the text checked. */
export interface SyntaxDiagnostic {
  line: number;
  column: number;
  /** The parser's own words ("',' expected."). */
  message: string;
}

export interface SyntaxChecker {
  /**
   * The syntax errors of `text` read as the file at `path` (workspace-relative, '/'-separated):
   * [] when it parses, null when the checker has no parser for that kind of file (or none could
   * be loaded). Syntax only: no types, no imports resolved, nothing read from disk.
   */
  check(path: string, text: string): Promise<SyntaxDiagnostic[] | null>;
}
