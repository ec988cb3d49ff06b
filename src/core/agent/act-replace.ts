/**
 * replace_in_file in a step's scratch: the call's edit blocks (SEARCH/REPLACE, or a unified
 * diff: what `aide apply` takes) on the one file of its path, through the same edit engine as
 * `aide apply` and a plan's written edits, applied all or nothing, then the checked write
 * (act-write.ts). A block that does not apply gets the engine's own feedback (the closest lines,
 * how to fix it); the second edit in a row of a small file that does not apply also suggests
 * write_file (whole-file writes are almost always well-formed, where local models get
 * SEARCH/REPLACE wrong on 5-28% of tasks in aider's benchmarks).
 */
import { feedbackForModel } from '../edit/feedback.js';
import { HEAD } from '../edit/markers.js';
import { parseResponse } from '../edit/parse-response.js';
import { pathFromLine } from '../edit/path-text.js';
import { planEdits, type BlockOutcome, type FileInput } from '../edit/plan-edits.js';
import type { EditBlock, ParseProblem } from '../edit/types.js';
import { checkRelativePath } from '../security/path-jail.js';
import { plural } from '../../shared/text.js';
import { writeTarget, type WriteTarget } from './act-paths.js';
import { commitWrite, failure, readInput, type WriteContext } from './act-write.js';
import type { ToolResult } from './loop-types.js';

/** A name the response parser reads as a path for sure, standing in for one it would not read. */
const STAND_IN = 'aide-call-target.txt';

/**
 * The call's diff as the parser's input: its first SEARCH marker carries the call's path (the
 * parser reads a path written after `SEARCH`), so the model need not repeat it and line numbers
 * stay the diff's own; a unified-diff hunk without file headers gets them. Returns the text
 * and the name the call's file goes by in it.
 */
function withPath(diff: string, path: string): { text: string; name: string; shift: number } {
  const name = pathFromLine(path) === path ? path : STAND_IN;
  const lines = diff.split('\n');
  const head = lines.findIndex((line) => HEAD.test(line));
  const hunk = lines.findIndex((line) => line.startsWith('@@'));
  const header = lines.findIndex((line) => line.startsWith('--- ') || line.startsWith('diff --git '));
  if (head < 0 && hunk >= 0 && (header < 0 || header > hunk)) {
    // A hunk without file headers (fenced or not): they go right above it.
    lines.splice(hunk, 0, `--- a/${name}`, `+++ b/${name}`);
    return { text: lines.join('\n'), name, shift: 2 };
  }
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
    return missed(
      ctx,
      target,
      input,
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
    return missed(
      ctx,
      target,
      input,
      feedbackForModel(outcomes, [], ours.length),
      `edit of ${target.path} not applied: ${failed} of ${plural(ours.length, 'block')} did not match`,
    );
  }
  ctx.failedEdits.delete(target.path);
  const change = plan.changes[0];
  if (change === undefined)
    return {
      ok: true,
      forModel: `${target.path} already holds what the ${plural(ours.length, 'block')} would write: nothing changed.`,
      forUser: `${target.path} unchanged (already applied)`,
    };
  return commitWrite(
    ctx,
    target,
    bytes,
    change.before,
    change.after,
    `${plural(ours.length, 'block')} applied`,
  );
}

/** A file this short is offered to write_file after edits of it keep failing. */
const SMALL_FILE_LINES = 200;

/**
 * A failed edit, counted per file: from the second in a row on a small existing file, the model
 * is offered write_file for it (issue 14).
 */
function missed(
  ctx: WriteContext,
  target: WriteTarget,
  input: FileInput,
  forModel: string,
  forUser: string,
): ToolResult {
  const count = (ctx.failedEdits.get(target.path) ?? 0) + 1;
  ctx.failedEdits.set(target.path, count);
  const lines = input.state === 'text' ? input.file.lines.length : null;
  if (count < 2 || lines === null || lines > SMALL_FILE_LINES) return failure(forModel, forUser);
  return failure(
    `${forModel}\n\nThis is edit ${count} of ${target.path} in a row that did not apply. The file is small (${plural(lines, 'line')}): read it, then send it whole with write_file instead of SEARCH/REPLACE blocks.`,
    forUser,
  );
}
