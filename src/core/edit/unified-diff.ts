/** Unified diffs of planned changes, for --dry-run and for review. */
import { createTwoFilesPatch } from 'diff';
import { renderText, type TextFile } from './text-file.js';

export interface DiffStat {
  added: number;
  removed: number;
}

/**
 * Past this many differing lines the minimal diff is not worth its price: Myers' algorithm costs
 * (lines × differences), so a reply that changed every line of a 10,000-line file took seconds.
 * Past it the diff is one hunk from the first to the last changed line: still exact, less tidy.
 */
const MAX_EDIT_LENGTH = 2000;
const CONTEXT = 3;

/** A git-style unified diff of one file (a/ and b/ prefixes, /dev/null for creates and deletes). */
export function unifiedDiff(path: string, before: TextFile | null, after: TextFile | null): string {
  const oldName = before === null ? '/dev/null' : `a/${path}`;
  const newName = after === null ? '/dev/null' : `b/${path}`;
  const oldText = before === null ? '' : renderText(before);
  const newText = after === null ? '' : renderText(after);
  // A file created or deleted whole is one hunk of every line: what coarseDiff writes, without
  // first handing jsdiff every line to compare with nothing (a 20 MB file it would give up on
  // after building its change lists: 100 MB more at the peak).
  if ((oldText === '') !== (newText === '')) return coarseDiff(oldName, newName, oldText, newText);
  const patch = createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, {
    context: CONTEXT,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (patch === undefined) return coarseDiff(oldName, newName, oldText, newText);
  // jsdiff starts with an "Index:" line and a "====" rule; git's format starts at "---".
  const lines = patch.split('\n');
  const start = lines.findIndex((line) => line.startsWith('--- '));
  return lines.slice(start === -1 ? 0 : start).join('\n');
}

/** Lines with their line ends kept: the last one has none when the text does not end in one. */
function splitKeepingEnds(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
}

/** One hunk around everything between the common first and last lines; linear in the lines. */
export function coarseDiff(oldName: string, newName: string, oldText: string, newText: string): string {
  const a = splitKeepingEnds(oldText);
  const b = splitKeepingEnds(newText);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const from = Math.max(0, prefix - CONTEXT);
  const after = Math.min(suffix, CONTEXT);
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  const oldCount = a.length - suffix + after - from;
  const newCount = b.length - suffix + after - from;
  out.push(
    `@@ -${oldCount === 0 ? from : from + 1},${oldCount} +${newCount === 0 ? from : from + 1},${newCount} @@`,
  );
  const emit = (mark: string, line: string) =>
    out.push(
      line.endsWith('\n') ? `${mark}${line.slice(0, -1)}` : `${mark}${line}\n\\ No newline at end of file`,
    );
  for (const line of a.slice(from, prefix)) emit(' ', line);
  for (const line of a.slice(prefix, a.length - suffix)) emit('-', line);
  for (const line of b.slice(prefix, b.length - suffix)) emit('+', line);
  for (const line of a.slice(a.length - suffix, a.length - suffix + after)) emit(' ', line);
  return `${out.join('\n')}\n`;
}

/** Added and removed lines of a diff, read in place (no array of its lines: diffs can be 20 MB). */
export function diffStat(diff: string): DiffStat {
  let added = 0;
  let removed = 0;
  for (let start = 0; start < diff.length;) {
    const end = diff.indexOf('\n', start);
    const next = end === -1 ? diff.length : end + 1;
    const mark = diff[start];
    if (mark === '+' && !diff.startsWith('+++ ', start)) added++;
    else if (mark === '-' && !diff.startsWith('--- ', start)) removed++;
    start = next;
  }
  return { added, removed };
}
