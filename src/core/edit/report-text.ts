/**
 * The failure report's first audience: the person who wrote or asked for the edits (aide
 * act's plan author, aide apply's user). feedback.ts writes for the model ("send ALL the
 * blocks again"); this says what failed, where, and what to change, in plain lines that a
 * renderer indents and colours.
 */
import type { Closest } from './closest.js';
import type { BlockOutcome } from './plan-edits.js';
import type { ParseProblem } from './types.js';

/** Indentation and trailing white space made visible (· a space, → a tab); a tab anywhere shows as →. Columns are kept. */
export function showWhitespace(line: string): string {
  const lead = /^[ \t]*/.exec(line)?.[0].length ?? 0;
  const body = line.slice(lead).trimEnd();
  const tail = line.slice(lead + body.length);
  const mark = (text: string) => text.replace(/ /g, '·').replace(/\t/g, '→');
  return mark(line.slice(0, lead)) + body.replace(/\t/g, '→') + mark(tail);
}

/** Index of the first character where two lines differ (the shorter's length when one extends the other). */
function firstDifferingColumn(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * "first difference at line 12:" and the two lines one above the other, white space shown
 * and a caret under the first column that differs: stripped of their indentation, two lines
 * that differ only there would print the same.
 */
export function firstDifferenceLines(diff: NonNullable<Closest['firstDifference']>): string[] {
  const column = firstDifferingColumn(diff.fileLine, diff.searchLine);
  return [
    `first difference at line ${diff.fileLineNumber}:`,
    `  file:   ${showWhitespace(diff.fileLine)}`,
    `  SEARCH: ${showWhitespace(diff.searchLine)}`,
    `          ${' '.repeat(column)}^`,
  ];
}

/** The closest lines of a SEARCH that matched nowhere, numbered, at most `max` of them. */
export function closestLines(closest: Closest, max = 12): string[] {
  const width = String(closest.endLine).length;
  const out = [
    `closest lines in the file (${closest.startLine}-${closest.endLine}, ${Math.round(closest.similarity * 100)}% alike):`,
  ];
  closest.lines
    .slice(0, max)
    .forEach((line, i) => out.push(`  ${String(closest.startLine + i).padStart(width)} | ${line}`));
  if (closest.lines.length > max) out.push(`  ${' '.repeat(width)} | … ${closest.lines.length - max} more`);
  return out;
}

/**
 * Every failed block and problem of an apply, for a person. `source` names the text the line
 * numbers count in ("the step's edits", "the response").
 */
export function describeFailures(
  outcomes: readonly BlockOutcome[],
  problems: readonly ParseProblem[],
  source: string,
): string[] {
  const out: string[] = [];
  for (const problem of problems)
    out.push(`line ${problem.line} of ${source}: ${problem.message}`, `  hint: ${problem.hint}`);
  for (const outcome of outcomes) {
    if (outcome.ok) continue;
    const { failure } = outcome;
    out.push(
      `block ${outcome.index}, ${outcome.path} (line ${outcome.line} of ${source}): ${failure.message}`,
    );
    if (failure.closest !== undefined) {
      out.push(...closestLines(failure.closest).map((l) => `  ${l}`));
      const diff = failure.closest.firstDifference;
      if (diff !== undefined) out.push(...firstDifferenceLines(diff).map((l) => `  ${l}`));
    }
    out.push(`  hint: ${failure.hint}`);
  }
  return out;
}
