/**
 * One edit block against one file's current content: each reading of the block (its variants)
 * tried in turn, created, edited, deleted or found already applied, with the failure it is
 * otherwise. Pure, like the planner (plan-edits.ts) that runs the blocks in order.
 */
import { findAlreadyApplied, findAppliedAround } from './already-applied.js';
import { findClosest, type Closest } from './closest.js';
import { createdTextFile, replaceCount } from './created-text.js';
import { isLazyMarker } from './elision.js';
import { matchSearch, type MatchResult, type StrategyName } from './match.js';
import { restyleReplace } from './indent.js';
import { splice, type Alignment, type SplicedRegion } from './splice.js';
import type { TextFile } from './text-file.js';
import { fileIndent } from './trimmed-lines.js';
import type { EditBlock, EditVariant } from './types.js';
import type { BlockAction, BlockFailure, FailureKind, FileInput } from './plan-types.js';
import { isBareName } from './path-text.js';

export type VariantResult =
  | {
      ok: true;
      /** The new content; with `region`, the file that region changes. */
      file: TextFile | null;
      /** Lines of `file` that change (splice.ts): the planner edits its copy in place. */
      region?: SplicedRegion;
      action: BlockAction;
      strategy: StrategyName | null;
      range: { first: number; last: number } | null;
      /** Indexes of the lines the block wrote into the new content (an iterable: a created file's are all of them). */
      added: Iterable<number>;
      /** For an already-applied deletion: the failure it is, unless the rest of the reply confirms it. */
      unconfirmed?: BlockFailure;
    }
  | { ok: false; failure: BlockFailure };

/**
 * The closest lines of a not-found SEARCH, found only for a failure the plan reports: the search
 * scans the whole file, and a reply applied a second time fails every SEARCH before each block
 * turns out already applied. Resolved before the next block edits the file in place.
 */
const pendingClosest = new WeakMap<BlockFailure, () => Closest | undefined>();

export function withClosest(failure: BlockFailure): BlockFailure {
  const find = pendingClosest.get(failure);
  if (find === undefined) return failure;
  pendingClosest.delete(failure);
  const closest = find();
  if (closest !== undefined) failure.closest = closest;
  return failure;
}

/** Failures that an edit already in the file also produces. */
const DONE_BEFORE: ReadonlySet<FailureKind> = new Set([
  'not-found',
  'file-exists',
  'file-missing',
  'blank-search',
]);

function fail(
  kind: FailureKind,
  message: string,
  hint: string,
  extra: Partial<BlockFailure> = {},
): { ok: false; failure: BlockFailure } {
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
  const file = createdTextFile(variant);
  const count = replaceCount(variant);
  return {
    ok: true,
    file,
    action: current === null ? 'created' : 'edited',
    strategy: null,
    range: count > 0 ? { first: 1, last: count } : null,
    added: indexesBelow(count),
  };
}

/** 0, 1, … count - 1, without an array of them (one number per line of a created file). */
function indexesBelow(count: number): Iterable<number> {
  return {
    *[Symbol.iterator]() {
      for (let i = 0; i < count; i++) yield i;
    },
  };
}

/** The failure of a SEARCH the ladder did not place: found nowhere, or in several places. */
function unmatched(
  path: string,
  file: TextFile,
  variant: EditVariant,
  match: Exclude<MatchResult, { kind: 'match' }>,
): VariantResult {
  if (match.kind === 'none') {
    const result = fail(
      'not-found',
      `the SEARCH text was not found in ${path}`,
      'SEARCH must match lines of the file exactly: copy them from the file, with the same indentation and blank lines.',
    );
    pendingClosest.set(result.failure, () => findClosest(file, variant.search));
    return result;
  }
  if (match.weak) {
    const shown = variant.search
      .filter((l) => l.trim() !== '')
      .map((l) => l.trim())
      .join(' ');
    return fail(
      'ambiguous',
      `the SEARCH text "${shown}" is too short to tell which place in ${path} it means: it matches ${match.lines.length} places (lines ${match.lines.join(', ')})`,
      'Include a line or two of the unchanged code before or after it in SEARCH (and the same lines in REPLACE), so that SEARCH matches exactly one place.',
      { candidates: match.lines },
    );
  }
  return fail(
    'ambiguous',
    `the SEARCH text matches ${match.lines.length} places in ${path} (lines ${match.lines.join(', ')}) with ${match.strategy} matching`,
    'Add a few unchanged lines before or after to SEARCH (and REPLACE) so it matches exactly one place.',
    { candidates: match.lines },
  );
}

function editExisting(
  path: string,
  file: TextFile,
  variant: EditVariant,
  block: Pick<EditBlock, 'format' | 'lineHint'>,
): VariantResult {
  const { format, lineHint } = block;
  if (isBlank(variant.search)) {
    return fail(
      'blank-search',
      `the SEARCH section for ${path} has only blank lines`,
      'Include at least one non-blank line from the file in SEARCH so aide can find the place.',
    );
  }
  const lazy = variant.replace.find((line) => isLazyMarker(line) && !variant.search.includes(line));
  if (lazy !== undefined) {
    return fail(
      'lazy-elision',
      `the REPLACE section for ${path} abbreviates code with "${lazy.trim()}"`,
      'Write out every line of REPLACE in full; aide would otherwise write the comment into the file and delete the code it stands for.',
    );
  }
  const match = matchSearch(
    file,
    variant.search,
    variant.replace,
    lineHint === undefined ? {} : { lineHint },
  );
  if (match.kind !== 'match') return unmatched(path, file, variant, match);
  const again =
    format === 'search-replace'
      ? findAppliedAround(file, variant, match.alignment.start, match.alignment.end)
      : undefined;
  if (again?.evidence === 'replace-found')
    return {
      ok: true,
      file,
      action: 'already-applied',
      strategy: again.strategy,
      range: again.range,
      added: [],
    };
  const alignment = restyled(file, variant, match.alignment);
  if (alignment === null) {
    return fail(
      'indentation',
      `the REPLACE section for ${path} is indented with ${variant.replace.some((l) => l.startsWith('\t')) ? 'tabs' : 'spaces'}, unlike the file, and cannot be re-indented consistently`,
      'Indent REPLACE the same way as the file (and as SEARCH).',
    );
  }
  const result = splice(file, alignment, variant.search, variant.replace, match.elisions);
  if (!result.ok) {
    return result.reason === 'indent'
      ? fail(
          'indentation',
          `a REPLACE line for ${path} cannot be indented consistently with the file: "${result.line.trim()}"`,
          'Indent REPLACE the same way as SEARCH.',
        )
      : fail(
          'lazy-elision',
          `the REPLACE section for ${path} has an elision ("${result.line.trim()}") that SEARCH does not have`,
          'Every `...` in REPLACE must stand for a `...` in SEARCH; otherwise write the lines out in full.',
        );
  }
  const { region } = result;
  // Lines outside the region are the file's own, so comparing the region compares the files.
  const unchanged =
    region.lines.length === region.end - region.start &&
    region.lines.every((l, i) => l === file.lines[region.start + i]);
  return {
    ok: true,
    file,
    region,
    action: unchanged ? 'unchanged' : 'edited',
    strategy: match.strategy,
    range: { first: result.firstLine, last: result.lastLine },
    added: result.added,
  };
}

/** The alignment, its transform replaced when REPLACE is indented in another style (indent.ts); null when it cannot be. */
function restyled(file: TextFile, variant: EditVariant, alignment: Alignment): Alignment | null {
  const fileLineOf = (i: number) => {
    const span = alignment.spans[i];
    return span !== undefined && span[1] === span[0] + 1 ? file.lines[span[0]] : undefined;
  };
  const indent = restyleReplace(variant.search, variant.replace, fileLineOf, fileIndent(file));
  if (indent === undefined) return alignment;
  return indent === null ? null : { ...alignment, indent };
}

function deleteFile(path: string, file: TextFile, expected: readonly string[]): VariantResult {
  const norm = (lines: readonly string[]) =>
    lines
      .map((l) => l.trimEnd())
      .join('\n')
      .trimEnd();
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
  if (current.state === 'unreadable')
    return fail('unreadable', `aide will not edit ${path}: ${current.reason}`, 'Edit this file by hand.');
  const file = current.state === 'text' ? current.file : null;
  if (op === 'delete') {
    if (file === null)
      return fail('file-missing', `${path} does not exist, so it cannot be deleted`, 'Drop this deletion.');
    return deleteFile(path, file, variant.search);
  }
  // A bare name (`VERSION`) was taken for a path because it may name a file (path-text.ts): only
  // an existing one. Creating a file named after a word of prose would be a wrong write.
  if (file === null && block.format === 'search-replace' && isBareName(path)) {
    return fail(
      'file-missing',
      `${path} does not exist, and a name without an extension or folder is taken for a path only when the file exists`,
      `To edit a file, put its path from the repository root on the line before the block; to create ${path}, write a diff from \`--- /dev/null\` to \`+++ b/${path}\`.`,
    );
  }
  const fillable = file === null || isBlank(file.lines);
  if (variant.search.length === 0 || (isBlank(variant.search) && fillable))
    return createOrFill(path, file, variant);
  if (file === null) {
    return fail(
      'file-missing',
      `${path} does not exist`,
      'Check the path (it is relative to the repository root). To create the file, leave SEARCH empty.',
    );
  }
  return editExisting(path, file, variant, block);
}

/** Applies a block: its single reading, or the one reading (of several `=======` splits) that applies. */
export function applyBlock(block: EditBlock, current: FileInput): VariantResult {
  const results = block.variants.map((variant) => applyVariant(block, current, variant));
  // A diff hunk's reading as written decides when it applies; the others are for a hunk whose
  // `+` were lost (lost-plus.ts), whose reading as written leaves a new line in SEARCH.
  if (block.format === 'diff' && results[0]?.ok === true) return results[0];
  const applied = block.variants.flatMap((variant, i) => {
    const result = results[i];
    return result?.ok === true ? [{ result, searchLength: variant.search.length }] : [];
  });
  if (applied.length === 1 && applied[0] !== undefined) return applied[0].result;
  if (applied.length === 0) {
    const done = alreadyApplied(block, current, results);
    if (done !== undefined) return done;
  }
  // Readings that match at the same place differ only in where the content's own `=======`
  // lines fall: the longest SEARCH is the one that keeps them all as content (a setext heading,
  // a merge conflict being resolved); a shorter one would write the rest of SEARCH as REPLACE.
  const places = new Set(applied.map((a) => a.result.range?.first));
  if (applied.length > 1 && places.size === 1) {
    const longest = applied.reduce((best, a) => (a.searchLength > best.searchLength ? a : best));
    return longest.result;
  }
  if (applied.length > 1 && block.format === 'diff') {
    return fail(
      'ambiguous',
      `the hunk for ${block.path} has no \`+\` lines, and more than one way of reading which of its lines are new applies, at different places`,
      'Mark every added line with `+` and every unchanged line with a space.',
    );
  }
  if (applied.length > 1) {
    return fail(
      'ambiguous',
      `the block has ${block.variants.length} "=======" lines and more than one way to read it applies to ${block.path}`,
      'Use exactly one ======= line between SEARCH and REPLACE; change a Markdown heading underline in the content to a "#" heading.',
    );
  }
  return (
    results[0] ??
    fail('not-found', `the block for ${block.path} is empty`, 'Write SEARCH and REPLACE sections.')
  );
}

/** A block none of whose readings applied, if one of them is already in the file. */
function alreadyApplied(
  block: EditBlock,
  current: FileInput,
  results: readonly VariantResult[],
): VariantResult | undefined {
  if (current.state === 'unreadable') return undefined;
  const file = current.state === 'text' ? current.file : null;
  const found = block.variants.flatMap((variant, i) => {
    const result = results[i];
    if (result === undefined || result.ok || !DONE_BEFORE.has(result.failure.kind)) return [];
    const done = findAlreadyApplied(block.op, file, variant);
    return done === undefined ? [] : [{ done, failure: result.failure }];
  });
  const unchanged = { ok: true as const, file, action: 'already-applied' as const, added: [] };
  const positive = found.flatMap((f) => (f.done.evidence === 'replace-found' ? [f.done] : []));
  if (positive.length === 1 && positive[0] !== undefined)
    return { ...unchanged, strategy: positive[0].strategy, range: positive[0].range };
  if (positive.length > 0 || found[0] === undefined) return undefined;
  return { ...unchanged, strategy: null, range: null, unconfirmed: found[0].failure };
}
