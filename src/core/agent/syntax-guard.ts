/**
 * The syntax guard of the model's write tools (issue 14): an edit that breaks a file that
 * parsed before is discarded and the model told why, before any verify command runs. A file
 * that did not parse before stays editable (the model may be fixing it), and a new file must
 * parse (nothing was there to break, so nothing excuses it).
 *
 * JSON is checked here, always. Comments and trailing commas are allowed (JSONC) in the files
 * whose tools read them that way (tsconfig.json, jsconfig.json, .vscode/*.json, *.jsonc,
 * devcontainer.json) and in any JSON file that was JSONC but not strict JSON before the edit;
 * every other `.json` must stay strict JSON, as package.json must for npm. Other languages go
 * to the SyntaxChecker port (TypeScript's parser for JS/TS, in infra).
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { SyntaxChecker, SyntaxDiagnostic } from '../ports/syntax.js';

/** The text before and after a write; before is null for a new file. */
export interface SyntaxChange {
  path: string;
  before: string | null;
  after: string;
}

/** At most this many diagnostics go back to the model: the first is usually the one that matters. */
const MAX_DIAGNOSTICS = 3;

/** The file names whose own tools read JSON with comments and trailing commas. */
function jsoncByName(path: string): boolean {
  const lower = path.toLowerCase();
  const base = lower.slice(lower.lastIndexOf('/') + 1);
  return (
    base.endsWith('.jsonc') ||
    /^(?:tsconfig|jsconfig)(?:\..*)?\.json$/.test(base) ||
    base === 'devcontainer.json' ||
    base === '.devcontainer.json' ||
    lower.startsWith('.vscode/') ||
    lower.includes('/.vscode/')
  );
}

function isJson(path: string): boolean {
  const lower = path.toLowerCase();
  return lower.endsWith('.json') || lower.endsWith('.jsonc');
}

/** 1-based line and column of an offset in a text. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** JSON errors of a text, strict or JSONC; [] when it parses. The BOM some editors write is allowed. */
export function jsonDiagnostics(text: string, jsonc: boolean): SyntaxDiagnostic[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const errors: ParseError[] = [];
  parse(body, errors, { allowTrailingComma: jsonc, disallowComments: !jsonc, allowEmptyContent: false });
  if (errors.length > 0)
    return errors.map((error) => ({
      ...position(body, error.offset),
      message: printParseErrorCode(error.error),
    }));
  if (jsonc) return [];
  // jsonc-parser is lenient in corners JSON.parse is not: the strict parser has the last word.
  try {
    JSON.parse(body);
    return [];
  } catch (error) {
    return [{ line: 1, column: 1, message: error instanceof Error ? error.message : String(error) }];
  }
}

/** A JSON file's errors after the change, at the level it is held to; null when not JSON or broken before. */
function jsonBreak(change: SyntaxChange): SyntaxDiagnostic[] | null {
  if (!isJson(change.path)) return null;
  let jsonc = jsoncByName(change.path);
  if (change.before !== null && jsonDiagnostics(change.before, jsonc).length > 0) {
    // Not strict JSON before: held to JSONC if it read as that, else already broken (editable).
    if (jsonc || jsonDiagnostics(change.before, true).length > 0) return null;
    jsonc = true;
  }
  const after = jsonDiagnostics(change.after, jsonc);
  return after.length > 0 ? after : null;
}

/**
 * The syntax errors a change brings into a file that parsed before (or into a new file), or null
 * when it breaks nothing: it parses, the file was already broken, or no parser knows its kind.
 */
export async function syntaxBreak(
  change: SyntaxChange,
  checker: SyntaxChecker | undefined,
): Promise<SyntaxDiagnostic[] | null> {
  if (isJson(change.path)) return jsonBreak(change);
  if (checker === undefined) return null;
  const after = await checker.check(change.path, change.after);
  if (after === null || after.length === 0) return null;
  if (change.before !== null) {
    const before = await checker.check(change.path, change.before);
    if (before === null || before.length > 0) return null;
  }
  return after;
}

/** The model's words for a refused change: the first errors with their lines, and what to do. */
export function describeSyntaxBreak(
  path: string,
  diagnostics: readonly SyntaxDiagnostic[],
  existed: boolean,
): string {
  const shown = diagnostics
    .slice(0, MAX_DIAGNOSTICS)
    .map((d) => `  line ${d.line}, column ${d.column}: ${d.message}`);
  const more =
    diagnostics.length > MAX_DIAGNOSTICS ? [`  and ${diagnostics.length - MAX_DIAGNOSTICS} more`] : [];
  return [
    `The change was NOT written: after it ${path} would not parse${existed ? ', and it parsed before' : ''}:`,
    ...shown,
    ...more,
    existed
      ? `${path} is unchanged. Read the lines around the error and send the edit again with matching brackets, quotes and commas.`
      : `${path} was not created. Send it again with matching brackets, quotes and commas.`,
  ].join('\n');
}
