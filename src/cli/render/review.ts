/**
 * The text of a step review (aide act at a terminal): the menu with the verdict and the files
 * above it, the second question for protected files, and the diff view. Pure: the prompts and
 * the pager that show it live elsewhere.
 */
import type { ChangeAction, ChangedFile, CountedChange } from '../../core/ports/changes.js';
import type { StepReview } from '../../core/ports/approval.js';
import { plural } from '../../shared/text.js';
import { colorDiff, type Style } from './style.js';

export type ReviewChoice = 'approve' | 'diff' | 'skip' | 'abort';

/** The menu, in order: Enter on the first approves. */
export const REVIEW_CHOICES: ReadonlyArray<{ name: ReviewChoice; message: string }> = [
  { name: 'approve', message: 'Approve' },
  { name: 'diff', message: 'Show diff' },
  { name: 'skip', message: 'Skip step' },
  { name: 'abort', message: 'Abort' },
];

const ACTION_LETTER: Record<ChangeAction, string> = {
  created: 'A',
  modified: 'M',
  deleted: 'D',
  type_changed: 'T',
};

/** One changed file: `M src/calc.js +4 -0`. */
export function fileLine(file: CountedChange, style: Style): string {
  return `${ACTION_LETTER[file.action]} ${file.path} ${style.green(`+${file.added}`)} ${style.red(`-${file.removed}`)}`;
}

/** What the menu stands under: the verdict, the files, a warning per protected file. */
export function reviewHeader(review: StepReview, style: Style): string {
  const attempt =
    review.attempt === undefined
      ? ''
      : style.yellow(
          ` (attempt ${review.attempt.number} of ${review.attempt.of}: the ${review.attempt.number === 2 ? 'one' : `${review.attempt.number - 1}`} before failed verification)`,
        );
  const lines = [
    `${style.green(review.verdict)}${attempt}`,
    ...review.files.map((f) => `  ${fileLine(f, style)}`),
  ];
  for (const p of review.protectedFiles)
    lines.push(
      style.yellow(`! protected: ${p.path} (rule ${p.rule}): writing it takes a second, explicit yes`),
    );
  return lines.join('\n');
}

export function reviewQuestion(review: Pick<StepReview, 'step' | 'title'>): string {
  return `Write step ${review.step} (${review.title}) into your files?`;
}

/** The second question, after Approve, when the step changes protected files (default: no). */
export function protectedQuestion(review: StepReview): string {
  const files = review.protectedFiles.map((p) => p.path).join(', ');
  return `Write the protected ${review.protectedFiles.length === 1 ? 'file' : 'files'} ${files} too? (no skips the step)`;
}

/**
 * The answer of a yes/no prompt as people read it. enquirer's confirm shows its value as
 * `false` while it waits and `true`/`false` once answered ("(y/N) ‣ false"); this shows
 * nothing while it waits, then "yes" or "no". Called by enquirer with the prompt as `this`.
 */
export function yesNo(this: { state?: { submitted?: boolean } } | undefined, value: unknown): string {
  return this?.state?.submitted === true ? (value === true ? 'yes' : 'no') : '';
}

/** The diff view: the files with their counts, then each file's diff, colored. */
export function stepDiff(files: readonly ChangedFile[], style: Style): string {
  const head = [
    style.bold(`${plural(files.length, 'file')} changed`),
    ...files.map((f) => `  ${fileLine(f, style)}`),
  ];
  const diffs = files.map((f) => colorDiff(f.diff.trimEnd(), style));
  return `${[head.join('\n'), ...diffs].join('\n\n')}\n`;
}
