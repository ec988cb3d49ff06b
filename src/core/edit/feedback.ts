/**
 * The failure report's second audience: text the agent loop sends back to the model so it
 * can retry. It says what failed and why, shows the file's real lines, and insists on
 * resending every block, because nothing was written.
 */
import type { BlockOutcome } from './plan-edits.js';
import type { ParseProblem } from './types.js';

function fence(lines: readonly string[]): string {
  const longest = Math.max(2, ...lines.map((l) => /^`+/.exec(l)?.[0].length ?? 0));
  const mark = '`'.repeat(longest + 1);
  return `${mark}\n${lines.join('\n')}\n${mark}`;
}

function blockFeedback(outcome: Extract<BlockOutcome, { ok: false }>): string {
  const { failure } = outcome;
  const parts = [
    `### Block ${outcome.index} (${outcome.path}, line ${outcome.line} of your reply): ${failure.kind}`,
    `${failure.message}.`,
    failure.hint,
  ];
  const closest = failure.closest;
  if (closest !== undefined) {
    parts.push(
      `The most similar lines in ${outcome.path} are lines ${closest.startLine}-${closest.endLine}:`,
      fence(closest.lines),
    );
    const diff = closest.firstDifference;
    if (diff !== undefined) {
      // Quoted whole (JSON escapes a tab as \t): trimmed, lines that differ only in indentation read the same.
      parts.push(
        `First difference: your SEARCH has ${JSON.stringify(diff.searchLine)} where line ${diff.fileLineNumber} of the file has ${JSON.stringify(diff.fileLine)}.`,
      );
    }
  }
  return parts.join('\n');
}

/** Feedback for the model; empty when everything applied. */
export function feedbackForModel(
  outcomes: readonly BlockOutcome[],
  problems: readonly ParseProblem[],
  blockCount: number,
): string {
  const failed = outcomes.filter((o): o is Extract<BlockOutcome, { ok: false }> => !o.ok);
  if (failed.length === 0 && problems.length === 0) {
    return blockCount === 0
      ? 'Your reply contained no edits. Write SEARCH/REPLACE blocks to change files.'
      : '';
  }
  const parts: string[] = [];
  if (blockCount === 0 && problems.length === 0)
    return 'Your reply contained no edits. Write SEARCH/REPLACE blocks to change files.';
  parts.push(
    `None of your edits were applied: ${failed.length + problems.length} of them could not be used, and aide applies all of them or none.`,
    'Fix the ones below and send ALL the blocks again, including those that did apply.',
  );
  for (const problem of problems)
    parts.push(`### Line ${problem.line} of your reply\n${problem.message}.\n${problem.hint}`);
  for (const outcome of failed) parts.push(blockFeedback(outcome));
  const applied = outcomes.filter((o) => o.ok).map((o) => o.index);
  if (applied.length > 0)
    parts.push(`Blocks ${applied.join(', ')} matched, but were not written because of the failures above.`);
  return parts.join('\n\n');
}
