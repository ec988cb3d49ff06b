/**
 * Plans the edits of a response against the files' current contents. Pure: it returns new
 * contents and an outcome per block, and writes nothing. Blocks for the same file apply in
 * order, each to the result of the one before.
 */
import { findInvisible } from '../security/invisible.js';
import { findClosest, type Closest } from './closest.js';
import { isLazyMarker } from './elision.js';
import { matchSearch, type StrategyName } from './match.js';
import { splice } from './splice.js';
import { textFileFromLines, type TextFile } from './text-file.js';
import type { EditBlock, EditVariant } from './types.js';

export type FailureKind =
  | 'path-rejected'
  | 'file-missing'
  | 'file-exists'
  | 'unreadable'
  | 'blank-search'
  | 'not-found'
  | 'ambiguous'
  | 'lazy-elision'
  | 'indentation'
  | 'invisible-characters'
  | 'invalid-result'
  | 'delete-mismatch';

export interface BlockFailure {
  kind: FailureKind;
  /** What went wrong, for the user. */
  message: string;
  /** What to change, addressed to whoever wrote the block. */
  hint: string;
  /** For not-found: the file's lines most like the SEARCH. */
  closest?: Closest;
  /** For ambiguous: 1-based lines where the SEARCH matches. */
  candidates?: number[];
}

export type BlockAction = 'created' | 'edited' | 'deleted' | 'unchanged';

interface OutcomeBase {
  index: number;
  line: number;
  path: string;
  format: EditBlock['format'];
}

export type BlockOutcome =
  | (OutcomeBase & {
      ok: true;
      action: BlockAction;
      /** The matching strategy; null for creates and deletes. */
      strategy: StrategyName | null;
      /** 1-based lines of the edited region in the new file. */
      range: { first: number; last: number } | null;
    })
  | (OutcomeBase & { ok: false; failure: BlockFailure });

/** A file's content as the planner sees it. */
export type FileInput =
  | { state: 'missing' }
  | { state: 'text'; file: TextFile }
  | { state: 'unreadable'; reason: string };

export interface FileChange {
  path: string;
  /** null: the file is created. */
  before: TextFile | null;
  /** null: the file is deleted. */
  after: TextFile | null;
}

export interface EditPlan {
  ok: boolean;
  outcomes: BlockOutcome[];
  /** Files whose content changes, in the order first edited. Apply them only if ok. */
  changes: FileChange[];
}

type VariantResult =
  | { ok: true; file: TextFile | null; action: BlockAction; strategy: StrategyName | null; range: { first: number; last: number } | null; added: number[] }
  | { ok: false; failure: BlockFailure };

function fail(kind: FailureKind, message: string, hint: string, extra: Partial<BlockFailure> = {}): { ok: false; failure: BlockFailure } {
  return { ok: false, failure: { kind, message, hint, ...extra } };
}

function isBlank(lines: readonly string[]): boolean {
  return lines.every((line) => line.trim() === '');
}

function createOrFill(path: string, current: TextFile | null, variant: EditVariant): VariantResult {
  if (current !== null && !isBlank(current.lines)) {
    return fail(
      'file-exists',
      `${path} already exists and is not empty, but the SEARCH section is empty`,
      `An empty SEARCH creates a new file. To change ${path}, put the lines to replace in SEARCH, copied exactly from the file.`,
    );
  }
  const file = textFileFromLines(variant.replace);
  return {
    ok: true,
    file,
    action: current === null ? 'created' : 'edited',
    strategy: null,
    range: variant.replace.length > 0 ? { first: 1, last: variant.replace.length } : null,
    added: variant.replace.map((_, i) => i),
  };
}

function editExisting(path: string, file: TextFile, variant: EditVariant, lineHint: number | undefined): VariantResult {
  if (isBlank(variant.search)) {
    return fail('blank-search', `the SEARCH section for ${path} has only blank lines`, 'Include at least one non-blank line from the file in SEARCH so aide can find the place.');
  }
  const lazy = variant.replace.find((line) => isLazyMarker(line) && !variant.search.includes(line));
  if (lazy !== undefined) {
    return fail(
      'lazy-elision',
      `the REPLACE section for ${path} abbreviates code with "${lazy.trim()}"`,
      'Write out every line of REPLACE in full; aide would otherwise write the comment into the file and delete the code it stands for.',
    );
  }
  const match = matchSearch(file, variant.search, variant.replace, lineHint);
  if (match.kind === 'none') {
    const closest = findClosest(file, variant.search);
    return fail(
      'not-found',
      `the SEARCH text was not found in ${path}`,
      'SEARCH must match lines of the file exactly: copy them from the file, with the same indentation and blank lines.',
      closest === undefined ? {} : { closest },
    );
  }
  if (match.kind === 'ambiguous') {
    return fail(
      'ambiguous',
      `the SEARCH text matches ${match.lines.length} places in ${path} (lines ${match.lines.join(', ')}) with ${match.strategy} matching`,
      'Add a few unchanged lines before or after to SEARCH (and REPLACE) so it matches exactly one place.',
      { candidates: match.lines },
    );
  }
  const result = splice(file, match.alignment, variant.search, variant.replace, match.elisions);
  if (!result.ok) {
    return result.reason === 'indent'
      ? fail('indentation', `a REPLACE line for ${path} cannot be indented consistently with the file: "${result.line.trim()}"`, 'Indent REPLACE the same way as SEARCH.')
      : fail(
          'lazy-elision',
          `the REPLACE section for ${path} has an elision ("${result.line.trim()}") that SEARCH does not have`,
          'Every `...` in REPLACE must stand for a `...` in SEARCH; otherwise write the lines out in full.',
        );
  }
  const unchanged = result.file.lines.length === file.lines.length && result.file.lines.every((l, i) => l === file.lines[i]);
  return {
    ok: true,
    file: result.file,
    action: unchanged ? 'unchanged' : 'edited',
    strategy: match.strategy,
    range: { first: result.firstLine, last: result.lastLine },
    added: result.added,
  };
}

function deleteFile(path: string, file: TextFile, expected: readonly string[]): VariantResult {
  const norm = (lines: readonly string[]) => lines.map((l) => l.trimEnd()).join('\n').trimEnd();
  // A deletion must show what it deletes (git's always does); a bare header pair does not.
  if (norm(expected) !== norm(file.lines)) {
    return fail(
      'delete-mismatch',
      `the diff deletes ${path}, but the file's content differs from the lines the diff removes`,
      'Regenerate the deletion from the current file, or delete it by hand if that is really intended.',
    );
  }
  return { ok: true, file: null, action: 'deleted', strategy: null, range: null, added: [] };
}

function applyVariant(block: EditBlock, current: FileInput, variant: EditVariant): VariantResult {
  const { path, op } = block;
  if (current.state === 'unreadable') return fail('unreadable', `aide will not edit ${path}: ${current.reason}`, 'Edit this file by hand.');
  const file = current.state === 'text' ? current.file : null;
  if (op === 'delete') {
    if (file === null) return fail('file-missing', `${path} does not exist, so it cannot be deleted`, 'Drop this deletion.');
    return deleteFile(path, file, variant.search);
  }
  const fillable = file === null || isBlank(file.lines);
  if (variant.search.length === 0 || (isBlank(variant.search) && fillable)) return createOrFill(path, file, variant);
  if (file === null) {
    return fail('file-missing', `${path} does not exist`, 'Check the path (it is relative to the repository root). To create the file, leave SEARCH empty.');
  }
  return editExisting(path, file, variant, block.lineHint);
}

/** Applies a block: its single reading, or the one reading (of several `=======` splits) that applies. */
function applyBlock(block: EditBlock, current: FileInput): VariantResult {
  const results = block.variants.map((variant) => applyVariant(block, current, variant));
  const applied = block.variants.flatMap((variant, i) => {
    const result = results[i];
    return result?.ok === true ? [{ result, searchLength: variant.search.length }] : [];
  });
  if (applied.length === 1 && applied[0] !== undefined) return applied[0].result;
  // Readings that match at the same place differ only in where the content's own `=======`
  // lines fall: the longest SEARCH is the one that keeps them all as content (a setext heading,
  // a merge conflict being resolved); a shorter one would write the rest of SEARCH as REPLACE.
  const places = new Set(applied.map((a) => a.result.range?.first));
  if (applied.length > 1 && places.size === 1) {
    const longest = applied.reduce((best, a) => (a.searchLength > best.searchLength ? a : best));
    return longest.result;
  }
  if (applied.length > 1) {
    return fail(
      'ambiguous',
      `the block has ${block.variants.length} "=======" lines and more than one way to read it applies to ${block.path}`,
      'Use exactly one ======= line between SEARCH and REPLACE; change a Markdown heading underline in the content to a "#" heading.',
    );
  }
  return results[0] ?? fail('not-found', `the block for ${block.path} is empty`, 'Write SEARCH and REPLACE sections.');
}

function invisibleFailure(path: string, file: TextFile, added: readonly number[]): BlockFailure | undefined {
  const found: string[] = [];
  for (const index of added) {
    for (const ch of findInvisible(file.lines[index] ?? '')) {
      if (index === 0 && ch.column === 1 && ch.codePoint === 0xfeff) continue;
      found.push(`line ${index + 1}, column ${ch.column}: ${ch.label}`);
    }
  }
  if (found.length === 0) return undefined;
  return {
    kind: 'invisible-characters',
    message: `the new text for ${path} contains invisible or direction-changing characters: ${found.slice(0, 5).join('; ')}${found.length > 5 ? `; and ${found.length - 5} more` : ''}`,
    hint: 'Remove these characters: they hide what the code really says from the reviewer.',
  };
}

function invalidJson(path: string, before: TextFile | null, after: TextFile | null): string | undefined {
  if (!path.toLowerCase().endsWith('.json') || after === null) return undefined;
  const parses = (file: TextFile) => {
    try {
      JSON.parse(file.lines.join('\n'));
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  // A file that was not strict JSON before (tsconfig.json with comments) is not checked.
  if (before !== null && parses(before) !== undefined) return undefined;
  return parses(after);
}

/** Plans every block; `files` maps each path a block names to its current content. */
export function planEdits(blocks: readonly EditBlock[], files: ReadonlyMap<string, FileInput>): EditPlan {
  const current = new Map<string, FileInput>(files);
  const original = new Map<string, FileInput>(files);
  const order: string[] = [];
  const lastBlock = new Map<string, number>();
  const outcomes: BlockOutcome[] = [];
  for (const block of blocks) {
    const base = { index: block.index, line: block.line, path: block.path, format: block.format };
    const input = current.get(block.path) ?? { state: 'missing' };
    const result = applyBlock(block, input);
    if (!result.ok) {
      outcomes.push({ ...base, ok: false, failure: result.failure });
      continue;
    }
    const invisible = result.file === null ? undefined : invisibleFailure(block.path, result.file, result.added);
    if (invisible !== undefined) {
      outcomes.push({ ...base, ok: false, failure: invisible });
      continue;
    }
    current.set(block.path, result.file === null ? { state: 'missing' } : { state: 'text', file: result.file });
    if (!lastBlock.has(block.path)) order.push(block.path); // a map lookup: includes() was quadratic in files
    lastBlock.set(block.path, outcomes.length);
    outcomes.push({ ...base, ok: true, action: result.action, strategy: result.strategy, range: result.range });
  }
  const changes: FileChange[] = [];
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
        failure: { kind: 'invalid-result', message: `after the edits ${path} is not valid JSON: ${jsonError}`, hint: 'Check the commas, brackets and quotes in REPLACE.' },
      };
      continue;
    }
    if (beforeFile === null && afterFile === null) continue;
    if (beforeFile !== null && afterFile !== null && sameText(beforeFile, afterFile)) continue;
    changes.push({ path, before: beforeFile, after: afterFile });
  }
  return { ok: outcomes.every((o) => o.ok), outcomes, changes };
}

function sameText(a: TextFile, b: TextFile): boolean {
  return a.bom === b.bom && a.lines.length === b.lines.length && a.lines.every((l, i) => l === b.lines[i] && a.eols[i] === b.eols[i]);
}

