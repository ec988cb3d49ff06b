/**
 * A block whose edit is already in the file: re-running a plan step that an earlier session
 * wrote, or applying the same reply twice. Its SEARCH is gone and its REPLACE is there, so
 * "SEARCH not found" would call a finished edit a failure. But a wrong "already applied" hides a
 * failed edit, so the evidence must be unambiguous:
 * - `replace-found`: the SEARCH matched nowhere (no rung of the ladder, fuzzy included), and
 *   the REPLACE, big enough to name a place (weak-search.ts) and different from SEARCH, matches
 *   exactly one place by a strict rung (exact to blank-lines, never elision or fuzzy, and never
 *   "the first of several"). A create whose file already holds exactly its text counts too.
 * - the same around a SEARCH that is still there because REPLACE keeps it (an edit that adds
 *   lines after or before the SEARCH): the REPLACE found strictly, once, covering the place
 *   SEARCH matched, the lines it adds being new text (not copies of SEARCH lines). Applying it
 *   again would add them a second time. SEARCH/REPLACE blocks only: a diff's trailing context
 *   already tells an applied hunk (its SEARCH is gone).
 * - `search-absent`: a deletion (an empty REPLACE, a REPLACE that only drops SEARCH lines, or a
 *   diff deleting a file) whose SEARCH or file is gone. That alone also fits a SEARCH the model got wrong, so it counts only when every
 *   other block of the reply is `replace-found` (plan-edits.ts): the reply as a whole was applied.
 */
import { matchSearch, type StrategyName } from './match.js';
import type { TextFile } from './text-file.js';
import type { EditBlock, EditVariant } from './types.js';
import { isWeakSearch } from './weak-search.js';

export type AlreadyApplied =
  | { evidence: 'replace-found'; strategy: StrategyName | null; range: { first: number; last: number } }
  | { evidence: 'search-absent' };

function isBlank(lines: readonly string[]): boolean {
  return lines.every((line) => line.trim() === '');
}

/** Lines equal but for trailing white space and trailing blank lines. */
function sameText(a: readonly string[], b: readonly string[]): boolean {
  const norm = (lines: readonly string[]) =>
    lines
      .map((l) => l.trimEnd())
      .join('\n')
      .trimEnd();
  return norm(a) === norm(b);
}

/**
 * For a variant that failed (SEARCH not found, a create over an existing file, a deletion of a
 * missing file): whether the file already holds what it would have written. `file` is null
 * when the file does not exist.
 */
export function findAlreadyApplied(
  op: EditBlock['op'],
  file: TextFile | null,
  variant: EditVariant,
): AlreadyApplied | undefined {
  const { search, replace } = variant;
  if (op === 'delete') return file === null ? { evidence: 'search-absent' } : undefined;
  if (file === null) return undefined;
  if (search.length === 0 || isBlank(search)) {
    if (isBlank(replace) || !sameText(file.lines, replace)) return undefined;
    return {
      evidence: 'replace-found',
      strategy: null,
      range: { first: 1, last: Math.max(1, file.lines.length) },
    };
  }
  if (isBlank(replace)) return isWeakSearch(search) ? undefined : { evidence: 'search-absent' };
  if (sameText(search, replace) || isWeakSearch(replace)) return undefined;
  const match = matchSearch(file, replace, replace, { strict: true });
  if (match.kind !== 'match') return undefined;
  // A REPLACE that only drops SEARCH lines is a deletion: its lines were in the file before the
  // edit too, so finding them proves nothing alone (the dropped line may be made up).
  const searched = new Set(search.map((line) => line.trim()));
  if (replace.every((line) => searched.has(line.trim())))
    return isWeakSearch(search) ? undefined : { evidence: 'search-absent' };
  const first = match.alignment.start + 1;
  return {
    evidence: 'replace-found',
    strategy: match.strategy,
    range: { first, last: Math.max(first, match.alignment.end) },
  };
}

/**
 * For a SEARCH that matched file lines [start, end): whether its REPLACE, which keeps every
 * SEARCH line, is already in the file around that place (the edit was made before).
 */
export function findAppliedAround(
  file: TextFile,
  variant: EditVariant,
  start: number,
  end: number,
): AlreadyApplied | undefined {
  const { search, replace } = variant;
  if (isBlank(replace) || sameText(search, replace) || isWeakSearch(replace)) return undefined;
  const kept = new Set(replace.map((line) => line.trim()));
  if (!search.every((line) => line.trim() === '' || kept.has(line.trim()))) return undefined;
  // What it adds must be new text: adding a copy of a line next to its twin (a second `foo();`
  // after `foo();`) looks the same as having added it before.
  const searched = new Set(search.map((line) => line.trim()));
  const added = replace.filter((line) => !searched.has(line.trim()));
  if (isWeakSearch(added)) return undefined;
  const match = matchSearch(file, replace, replace, { strict: true });
  if (match.kind !== 'match' || match.alignment.start > start || match.alignment.end < end) return undefined;
  const first = match.alignment.start + 1;
  return {
    evidence: 'replace-found',
    strategy: match.strategy,
    range: { first, last: Math.max(first, match.alignment.end) },
  };
}
