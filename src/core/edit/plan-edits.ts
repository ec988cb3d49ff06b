/**
 * Plans the edits of a response against the files' current contents. Pure: it returns new
 * contents and an outcome per block, and writes nothing. Blocks for the same file apply in
 * order, each to the result of the one before.
 */
import { applyBlock, withClosest } from './apply-block.js';
import { editableCopy, spliceInPlace } from './live-lines.js';
import { normalizeTerminators, type SplicedRegion } from './splice.js';
import { eagerTextFile, forwardReader, lineCount, type TextFile } from './text-file.js';
import type { EditBlock } from './types.js';
import type { BlockFailure, BlockOutcome, EditPlan, ContentChange, FileInput } from './plan-types.js';
import { planRename } from './rename.js';
import { invalidJson, invisibleFailure } from './result-checks.js';

export type {
  BlockAction,
  BlockFailure,
  BlockOutcome,
  EditPlan,
  FailureKind,
  ContentChange,
  FileInput,
} from './plan-types.js';

/** Plans every block; `files` maps each path a block names to its current content. */
export function planEdits(blocks: readonly EditBlock[], files: ReadonlyMap<string, FileInput>): EditPlan {
  const current = new Map<string, FileInput>(files);
  const original = new Map<string, FileInput>(files);
  const order: string[] = [];
  const lastBlock = new Map<string, number>();
  const outcomes: BlockOutcome[] = [];
  const unconfirmed = new Map<number, BlockFailure>();
  // Copies this plan made and may edit in place; the callers' files are never changed.
  const owned = new WeakSet<TextFile>();
  for (const block of blocks) {
    const base = { index: block.index, line: block.line, path: block.path, format: block.format };
    const input = matchable(current.get(block.path) ?? { state: 'missing' });
    if (block.renameFrom !== undefined) {
      const moved = planRename(block.renameFrom, block.path, current.get(block.renameFrom), input);
      if (!moved.ok) {
        outcomes.push({ ...base, ok: false, failure: moved.failure });
        continue;
      }
      current.set(block.renameFrom, { state: 'missing' });
      current.set(block.path, { state: 'text', file: moved.file });
      for (const path of [block.renameFrom, block.path]) {
        if (!lastBlock.has(path)) order.push(path);
        lastBlock.set(path, outcomes.length);
      }
      outcomes.push({ ...base, ok: true, action: 'created', strategy: null, range: null });
      continue;
    }
    const result = applyBlock(block, input);
    if (!result.ok) {
      outcomes.push({ ...base, ok: false, failure: withClosest(result.failure) });
      continue;
    }
    const invisible =
      result.file === null
        ? undefined
        : invisibleFailure(block.path, addedLineOf(result.file, result.region), result.added);
    if (invisible !== undefined) {
      outcomes.push({ ...base, ok: false, failure: invisible });
      continue;
    }
    const notConfirmed = result.unconfirmed === undefined ? undefined : withClosest(result.unconfirmed);
    current.set(block.path, commit(result.file, result.region, owned));
    if (!lastBlock.has(block.path)) order.push(block.path); // a map lookup: includes() was quadratic in files
    lastBlock.set(block.path, outcomes.length);
    if (notConfirmed !== undefined) unconfirmed.set(outcomes.length, notConfirmed);
    outcomes.push({
      ...base,
      ok: true,
      action: result.action,
      strategy: result.strategy,
      range: result.range,
    });
  }
  confirmDeletions(outcomes, unconfirmed);
  const changes: ContentChange[] = [];
  for (const path of order) {
    const before = original.get(path);
    const after = current.get(path);
    const beforeFile = before?.state === 'text' ? before.file : null;
    const afterFile = after?.state === 'text' ? after.file : null;
    const jsonError = invalidJson(path, beforeFile, afterFile);
    const at = lastBlock.get(path);
    const outcome = at === undefined ? undefined : outcomes[at];
    if (jsonError !== undefined && outcome !== undefined && at !== undefined) {
      outcomes[at] = {
        index: outcome.index,
        line: outcome.line,
        path: outcome.path,
        format: outcome.format,
        ok: false,
        failure: {
          kind: 'invalid-result',
          message: `after the edits ${path} is not valid JSON: ${jsonError}`,
          hint: 'Check the commas, brackets and quotes in REPLACE.',
        },
      };
      continue;
    }
    if (beforeFile === null && afterFile === null) continue;
    if (beforeFile !== null && afterFile !== null && sameText(beforeFile, afterFile)) continue;
    changes.push({ path, before: beforeFile, after: afterFile });
  }
  return { ok: outcomes.every((o) => o.ok), outcomes, changes };
}

/** A line of the new file, for a result that is a region of `file` or a whole file. */
function addedLineOf(
  file: TextFile,
  region: SplicedRegion | undefined,
): (index: number) => string | undefined {
  // A created file's lines are read in order, one at a time (created-text.ts).
  if (region === undefined) return forwardReader(file);
  return (index) => region.lines[index - region.start];
}

/**
 * A block's result as the file's new content. A region is spliced into the plan's own copy of
 * the file, made at its first edit: copying the whole file per block was quadratic in blocks.
 */
function commit(
  file: TextFile | null,
  region: SplicedRegion | undefined,
  owned: WeakSet<TextFile>,
): FileInput {
  if (file === null) return { state: 'missing' };
  if (region === undefined) return { state: 'text', file };
  let target = file;
  if (!owned.has(target)) {
    target = editableCopy(file);
    // A splice of a copied file gave every line but the last a terminator; this one touches only the region.
    normalizeTerminators(target);
    owned.add(target);
  }
  spliceInPlace(target, region.start, region.end, region.lines, region.eols);
  return { state: 'text', file: target };
}

/**
 * A deletion whose SEARCH is gone is already applied only if every other block of the reply
 * found its REPLACE in place (already-applied.ts); otherwise it is the failure it looked like.
 */
function confirmDeletions(outcomes: BlockOutcome[], unconfirmed: ReadonlyMap<number, BlockFailure>): void {
  if (unconfirmed.size === 0) return;
  const others = outcomes.filter((_, i) => !unconfirmed.has(i));
  const confirmed = others.length > 0 && others.every((o) => o.ok && o.action === 'already-applied');
  if (confirmed) return;
  for (const [i, failure] of unconfirmed) {
    const o = outcomes[i];
    if (o !== undefined)
      outcomes[i] = { index: o.index, line: o.line, path: o.path, format: o.format, ok: false, failure };
  }
}

function sameText(a: TextFile, b: TextFile): boolean {
  if (a.bom !== b.bom || lineCount(a) !== lineCount(b)) return false;
  const [aLines, bLines, aEols, bEols] = [a.lines, b.lines, a.eols, b.eols];
  return aLines.every((l, i) => l === bLines[i] && aEols[i] === bEols[i]);
}

/** A file a block edits, with lines of its own when an earlier block created it (created-text.ts). */
function matchable(input: FileInput): FileInput {
  return input.state === 'text' ? { state: 'text', file: eagerTextFile(input.file) } : input;
}
