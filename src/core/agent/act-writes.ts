/**
 * The model's two write tools in a step's scratch: replace_in_file (edit blocks through the same
 * edit engine as `aide apply` and a plan's written edits) and write_file (a whole file). Both go
 * through the path jail and `.aide/` denial (act-paths.ts), both refuse a change that breaks a
 * file's syntax (syntax-guard.ts) before anything is written, and both name the protected paths
 * they touch. A change is written only when every check passed, so a refused one leaves the
 * scratch exactly as it was: there is nothing to restore.
 */
import { feedbackForModel } from '../edit/feedback.js';
import { HEAD } from '../edit/markers.js';
import { parseResponse } from '../edit/parse-response.js';
import { pathFromLine } from '../edit/path-text.js';
import { planEdits, type BlockOutcome, type FileInput } from '../edit/plan-edits.js';
import { invisibleFailure } from '../edit/result-checks.js';
import { decodeTextFile, encodeTextFile, parseText, renderText, type TextFile } from '../edit/text-file.js';
import type { EditBlock, ParseProblem } from '../edit/types.js';
import { diffStat, unifiedDiff } from '../edit/unified-diff.js';
import type { ProtectedChange } from '../ports/approval.js';
import type { FileSystem } from '../ports/files.js';
import type { SyntaxChecker } from '../ports/syntax.js';
import { checkRelativePath } from '../security/path-jail.js';
import { plural } from '../../shared/text.js';
import { protectedBy, protectedNote, writeTarget, type WriteTarget } from './act-paths.js';
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
}

/** A file's content as the engine reads it. */
async function readInput(
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

/** A name the response parser reads as a path for sure, standing in for one it would not read. */
const STAND_IN = 'aide-call-target.txt';

/**
 * The call's diff as the parser's input: its first SEARCH marker carries the call's path (the
 * parser reads a path written after `SEARCH`), so the model need not repeat it and line numbers
 * stay the diff's own; a bare unified-diff hunk (`@@` first) gets file headers. Returns the text
 * and the name the call's file goes by in it.
 */
function withPath(diff: string, path: string): { text: string; name: string; shift: number } {
  const name = pathFromLine(path) === path ? path : STAND_IN;
  const lines = diff.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first >= 0 && (lines[first] ?? '').startsWith('@@'))
    return { text: `--- a/${name}\n+++ b/${name}\n${diff}`, name, shift: 2 };
  const head = lines.findIndex((line) => HEAD.test(line));
  const inline = head < 0 ? undefined : HEAD.exec(lines[head] ?? '')?.[2]?.trim();
  if (head >= 0 && inline === '') lines[head] = `${(lines[head] ?? '').trimEnd()} ${name}`;
  return { text: lines.join('\n'), name, shift: 0 };
}

/** The blocks of the call on its one file, or the blocks that name another file. */
function sameFile(blocks: readonly EditBlock[], name: string | undefined, target: WriteTarget) {
  const ours: EditBlock[] = [];
  const others: EditBlock[] = [];
  for (const block of blocks) {
    const checked = checkRelativePath(block.path);
    const path = block.path === name ? target.path : checked.ok ? checked.path : block.path;
    if (path === target.path && block.renameFrom === undefined) ours.push({ ...block, path });
    else others.push(block);
  }
  return { ours, others };
}

function failure(forModel: string, forUser: string): ToolResult {
  return { ok: false, mistake: true, forModel, forUser };
}

/** Outcomes and problems with their lines counted in the call's diff, not the parser's input. */
function shifted<T extends { line: number }>(items: readonly T[], shift: number): T[] {
  return items.map((item) => ({ ...item, line: Math.max(1, item.line - shift) }));
}

/** replace_in_file: the call's blocks on its file, applied all or nothing. */
export async function replaceInFile(ctx: WriteContext, path: string, diff: string): Promise<ToolResult> {
  const where = await writeTarget(ctx.root, path, ctx.fs, 'replace_in_file');
  if (!where.ok) return where.result;
  const target = where.target;
  const { bytes, input } = await readInput(ctx.fs, target.target);
  // The diff as written first: a block it names a file for must name the call's file. Only
  // when it does not say which file every block edits is the call's path written in.
  const raw = parseResponse(diff);
  const asWritten = sameFile(raw.blocks, undefined, target);
  const complete = raw.problems.length === 0 && raw.blocks.length > 0;
  const { text, name, shift } = complete
    ? { text: diff, name: undefined, shift: 0 }
    : withPath(diff, target.path);
  const parsed = complete ? raw : parseResponse(text);
  const { ours, others } = asWritten.others.length > 0 ? asWritten : sameFile(parsed.blocks, name, target);
  if (others.length === 0 && (parsed.problems.length > 0 || parsed.blocks.length === 0)) {
    const problems: ParseProblem[] = shifted(parsed.problems, shift);
    return failure(
      feedbackForModel([], problems, parsed.blocks.length),
      `edit of ${target.path} not applied: ${parsed.blocks.length === 0 ? 'no edit blocks' : 'malformed blocks'}`,
    );
  }
  if (others.length > 0) {
    const named = [...new Set(others.map((b) => b.renameFrom ?? b.path))].join(', ');
    return failure(
      `None of the edits were applied: replace_in_file edits the one file of its path (${target.path}), and ${plural(others.length, 'block')} name${others.length === 1 ? 's' : ''} ${named}. Call replace_in_file once per file; a file is renamed by writing the new one with write_file.`,
      `edit of ${target.path} not applied: blocks for another file (${named})`,
    );
  }
  const plan = planEdits(ours, new Map([[target.path, input]]));
  if (!plan.ok) {
    const outcomes: BlockOutcome[] = shifted(plan.outcomes, shift);
    const failed = outcomes.filter((o) => !o.ok).length;
    return failure(
      feedbackForModel(outcomes, [], ours.length),
      `edit of ${target.path} not applied: ${failed} of ${plural(ours.length, 'block')} did not match`,
    );
  }
  const change = plan.changes[0];
  if (change === undefined)
    return {
      ok: true,
      forModel: `${target.path} already holds what the ${plural(ours.length, 'block')} would write: nothing changed.`,
      forUser: `${target.path} unchanged (already applied)`,
    };
  return write(ctx, target, bytes, change.before, change.after, `${plural(ours.length, 'block')} applied`);
}

/**
 * write_file: the whole file. An existing file keeps its own conventions whatever line ends the
 * model wrote: its majority line end (a CRLF file stays CRLF), its byte-order mark, and whether
 * it ends with a newline. A new file gets LF line ends and a final newline (unless empty).
 * A binary or non-UTF-8 file is never replaced.
 */
export async function writeFile(ctx: WriteContext, path: string, content: string): Promise<ToolResult> {
  const where = await writeTarget(ctx.root, path, ctx.fs, 'write_file');
  if (!where.ok) return where.result;
  const target = where.target;
  const { bytes, input } = await readInput(ctx.fs, target.target);
  if (input.state === 'unreadable')
    return failure(
      `write_file refused: ${target.path} is not a text file aide can rewrite (${input.reason}). Leave it as it is.`,
      `refused write_file ${target.path}: ${input.reason}`,
    );
  const before = input.state === 'text' ? input.file : null;
  const after = conformed(parseText(content), before);
  const added = after.lines.flatMap((line, i) => (before?.lines.includes(line) === true ? [] : [i]));
  const invisible = invisibleFailure(target.path, (i) => after.lines[i], added);
  if (invisible !== undefined)
    return failure(
      `write_file refused: ${invisible.message}. ${invisible.hint}`,
      `refused write_file ${target.path}: invisible characters`,
    );
  if (before !== null && renderText(before) === renderText(after))
    return {
      ok: true,
      forModel: `${target.path} already has this content: nothing changed.`,
      forUser: `${target.path} unchanged`,
    };
  return write(ctx, target, bytes, before, after, before === null ? 'created' : 'rewritten');
}

/** The model's text in the file's own conventions (see writeFile). */
function conformed(file: TextFile, before: TextFile | null): TextFile {
  if (file.lines.length === 0) return { ...file, bom: before?.bom ?? false };
  const eol = before?.eol ?? '\n';
  const finalNewline = before === null || before.lines.length === 0 || before.eols.at(-1) !== '';
  const eols = file.lines.map((_, i) => (i < file.lines.length - 1 || finalNewline ? eol : ''));
  return { lines: file.lines, eols, eol, bom: before?.bom ?? false };
}

/** The checked write: syntax, then the protected paths noted, then the one commit. */
async function write(
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
  ctx.record(target.path, touched);
  const stat = diffStat(unifiedDiff(target.path, before, after));
  const action = after === null ? 'Deleted' : before === null ? 'Created' : 'Edited';
  const summary = `${action} ${target.path} (+${stat.added} -${stat.removed} lines; ${what}).`;
  return {
    ok: true,
    forModel: touched.length > 0 ? `${summary}\n${protectedNote(touched)}` : summary,
    forUser: `${action.toLowerCase()} ${target.path} +${stat.added} -${stat.removed}${touched.length > 0 ? ' (protected)' : ''}`,
  };
}
