/**
 * A model step no attempt passed, shown for a person to look at: its best attempt's changes (the
 * files with their counts, then the diff), marked "failed verification — review carefully", which
 * attempt it was, where its patch is saved, and (on a terminal, where the tree showed only the
 * verdict) its failing tests and output tail. It is never written, whatever the answer or --yes.
 */
import type { StepReport } from '../../core/act-report.js';
import { colorDiff, type Style } from './style.js';
import { fileLine } from './review.js';

export const FAILED_MARK = 'failed verification — review carefully';

/** The block for a failed step's best attempt; '' for a step without one. */
export function bestAttemptText(report: StepReport, style: Style, options: { tail: boolean }): string {
  const best = report.bestAttempt;
  if (best === undefined) return '';
  const lines = [
    style.red(
      style.bold(`Step ${report.number}: ${report.title} — ${FAILED_MARK}: its best attempt is not written`),
    ),
    `attempt ${best.attempt} of the ${best.made} made (${best.score})` +
      (report.patchFile === null ? '' : `; its patch is saved in ${report.patchFile}`),
  ];
  if (report.files.length === 0) lines.push(style.dim('(it changed no file before it failed)'));
  else lines.push(...report.files.map((f) => `  ${fileLine(f, style)}`));
  const diffs = report.files.map((f) => colorDiff(f.diff.trimEnd(), style)).filter((d) => d !== '');
  const tail = options.tail && best.tail !== '' ? best.tail.split('\n').map((l) => style.dim(`│ ${l}`)) : [];
  return `${[lines.join('\n'), ...diffs, ...(tail.length === 0 ? [] : [tail.join('\n')])].join('\n\n')}\n`;
}
