/**
 * A diff hunk whose added lines lost their `+`: the model wrote `-` before the old lines and
 * then the new ones bare, or with a space, so they read as context:
 *
 *      def greet(user):
 *     -    name = user.name
 *         name = user.full_name
 *          print("hi", name)
 *
 * As written, its SEARCH holds the new line, which is not in the file, and it fails. So such a
 * hunk has other readings, tried after the one as written (plan-edits.ts keeps only a reading
 * that applies, and refuses when readings that apply disagree on the place): the first 1, 2, …
 * lines after the removed ones are the added lines, the rest stays context. Only one reading
 * can match as a rule, because every other one leaves a new line in SEARCH or a gap in it.
 *
 * Limits: only a hunk with no `+` line at all and one run of `-` lines directly followed by
 * the context lines (a hunk with `+` lines has its markers), at most MAX_LOST lines taken as
 * added. An added line keeps its text as written when its indentation is an even number of
 * columns (the `+` was dropped) and loses its first character when it is odd (the `+` was
 * replaced by a space): code is indented in twos, fours or tabs.
 */
import type { EditVariant } from './types.js';

/** One line of a hunk as the diff parser took it. */
export type HunkRow =
  | { kind: 'add' | 'remove'; line: string }
  /** `text`: the line without its marker column, as the context reading has it. */
  | { kind: 'context'; line: string; text: string };

/** The most lines after the removed ones that are read as added. */
export const MAX_LOST = 20;

function addedText(line: string): string {
  const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
  const width = indent.includes('\t') ? 0 : indent.length;
  return width % 2 === 1 ? line.slice(1) : line;
}

/** The readings of a hunk whose `+` may have been lost, other than the one as written. */
export function lostPlusReadings(rows: readonly HunkRow[]): EditVariant[] {
  if (rows.some((row) => row.kind === 'add')) return [];
  const first = rows.findIndex((row) => row.kind === 'remove');
  if (first === -1) return [];
  let end = first;
  while (rows[end]?.kind === 'remove') end++;
  if (rows.slice(end).some((row) => row.kind !== 'context')) return [];
  const before = rows.slice(0, first).map(textOf);
  const removed = rows.slice(first, end).map((row) => row.line.slice(1));
  const after = rows.slice(end);
  const readings: EditVariant[] = [];
  for (let taken = 1; taken <= Math.min(after.length, MAX_LOST); taken++) {
    const added = after.slice(0, taken).map((row) => addedText(row.line));
    const context = after.slice(taken).map(textOf);
    readings.push({
      search: [...before, ...removed, ...context],
      replace: [...before, ...added, ...context],
    });
  }
  return readings;
}

function textOf(row: HunkRow): string {
  return row.kind === 'context' ? row.text : row.line.slice(1);
}
