/**
 * What the model's write tools in a step's scratch share (replace_in_file in act-replace.ts,
 * write_file in act-write-file.ts): the context they run in, and the one checked write. A
 * change is written only when every check passed — the path jail and `.aide/` denial
 * (act-paths.ts), the syntax guard (syntax-guard.ts) — so a refused change leaves the scratch
 * exactly as it was: there is nothing to restore. The protected paths it touches are named.
 */
import { decodeTextFile, encodeTextFile, renderText, type TextFile } from '../edit/text-file.js';
import type { FileInput } from '../edit/plan-edits.js';
import { diffStat, unifiedDiff } from '../edit/unified-diff.js';
import type { ProtectedChange } from '../ports/approval.js';
import type { FileSystem } from '../ports/files.js';
import type { SyntaxChecker } from '../ports/syntax.js';
import { protectedBy, protectedNote, type WriteTarget } from './act-paths.js';
import type { ToolResult } from './loop-types.js';
import { describeSyntaxBreak, syntaxBreak } from './syntax-guard.js';

/** What the write tools need: the scratch, its files, the checks, and where a write is recorded. */
export interface WriteContext {
  /** The scratch folder: a real (symlink-free) absolute path. */
  root: string;
  fs: FileSystem;
  /** JS/TS syntax (JSON is always checked); absent: only JSON is checked. */
  syntax?: SyntaxChecker;
  /** config.json protected_paths, as before the step. */
  protectedPaths: readonly string[];
  protectedCaseInsensitive: boolean;
  /** Called after each write with the file's scratch-relative path and the protected paths it touched. */
  record(path: string, touched: readonly ProtectedChange[]): void;
  /** Edits in a row that did not apply, by scratch-relative path (replace_in_file's count). */
  failedEdits: Map<string, number>;
}

/** A file's content as the engine reads it. */
export async function readInput(
  fs: FileSystem,
  target: string,
): Promise<{ bytes: Uint8Array | null; input: FileInput }> {
  const bytes = await fs.readFile(target);
  if (bytes === null) return { bytes, input: { state: 'missing' } };
  const decoded = decodeTextFile(bytes);
  return {
    bytes,
    input: decoded.ok
      ? { state: 'text', file: decoded.file }
      : { state: 'unreadable', reason: decoded.message },
  };
}

/** Longest diff (in lines) shown to the model after an edit. */
const MAX_SHOWN_DIFF_LINES = 40;

/** A failed write the model should fix (it counts as a mistake). */
export function failure(forModel: string, forUser: string): ToolResult {
  return { ok: false, mistake: true, forModel, forUser };
}

/** The checked write: syntax, then the protected paths noted, then the one commit. */
export async function commitWrite(
  ctx: WriteContext,
  target: WriteTarget,
  previous: Uint8Array | null,
  before: TextFile | null,
  after: TextFile | null,
  what: string,
): Promise<ToolResult> {
  if (after !== null) {
    const broken = await syntaxBreak(
      { path: target.path, before: before === null ? null : renderText(before), after: renderText(after) },
      ctx.syntax,
    );
    if (broken !== null)
      return failure(
        describeSyntaxBreak(target.path, broken, before !== null),
        `change to ${target.path} refused: it would not parse (line ${broken[0]?.line ?? '?'}: ${broken[0]?.message ?? ''})`,
      );
  }
  const content = after === null ? null : encodeTextFile(after);
  const touched = await protectedBy(
    ctx.protectedPaths,
    target,
    previous,
    content,
    ctx.protectedCaseInsensitive,
  );
  await ctx.fs.commit([
    content === null
      ? { kind: 'delete', path: target.target, previous: previous ?? new Uint8Array() }
      : { kind: 'write', path: target.target, content, previous },
  ]);
  // The file that changed: through a symlink inside the scratch, the link's target.
  ctx.record(target.real, touched);
  const diff = unifiedDiff(target.path, before, after);
  const stat = diffStat(diff);
  const action = after === null ? 'Deleted' : before === null ? 'Created' : 'Edited';
  const summary = `${action} ${target.path} (+${stat.added} -${stat.removed} lines; ${what}).`;
  // A short edit is shown as it landed (re-indented, line ends kept), so the model's idea of the
  // file stays right; a created file is what the model wrote, and a long diff costs the context.
  const lines = diff.trimEnd().split('\n');
  const shown =
    before !== null && after !== null && lines.length <= MAX_SHOWN_DIFF_LINES
      ? `\n${lines.slice(2).join('\n')}`
      : '';
  const note = touched.length > 0 ? `\n${protectedNote(touched)}` : '';
  return {
    ok: true,
    forModel: `${summary}${shown}${note}`,
    forUser: `${action.toLowerCase()} ${target.path} +${stat.added} -${stat.removed}${touched.length > 0 ? ' (protected)' : ''}`,
  };
}
