/** Text and JSON renderings of an apply report. */
import type { BlockOutcome } from '../../core/edit/plan-edits.js';
import type { ApplyReport } from '../../core/flows/apply.js';
import { firstDifferenceLines } from '../../core/edit/report-text.js';
import { plural } from '../../shared/text.js';
import { colorDiff, type Style } from './style.js';

const ACTION_MARK = { created: 'A', modified: 'M', deleted: 'D', type_changed: 'T' } as const;

function blockLabel(outcome: Extract<BlockOutcome, { ok: true }>): string {
  if (outcome.action === 'created' || outcome.action === 'deleted')
    return `block ${outcome.index} (${outcome.action})`;
  if (outcome.action === 'unchanged') return `block ${outcome.index} (no change)`;
  if (outcome.action === 'already-applied') return `block ${outcome.index} (already applied)`;
  return `block ${outcome.index} (${outcome.strategy ?? 'edit'})`;
}

/** Labels shown per file: a reply of thousands of blocks to one file made a line of thousands. */
const LABELS_SHOWN = 10;

function blockLabels(blocks: ReadonlyArray<Extract<BlockOutcome, { ok: true }>>): string {
  const shown = blocks.slice(0, LABELS_SHOWN).map(blockLabel).join(', ');
  return blocks.length > LABELS_SHOWN ? `${shown} and ${blocks.length - LABELS_SHOWN} more blocks` : shown;
}

function renderFailure(outcome: Extract<BlockOutcome, { ok: false }>, style: Style): string[] {
  const { failure } = outcome;
  const out = [
    `  ${style.red('✗')} block ${outcome.index} ${style.bold(outcome.path)} (response line ${outcome.line}): ${failure.message}`,
  ];
  const closest = failure.closest;
  if (closest !== undefined) {
    out.push(
      `      closest lines in the file (${closest.startLine}-${closest.endLine}, ${Math.round(closest.similarity * 100)}% alike):`,
    );
    const width = String(closest.endLine).length;
    closest.lines
      .slice(0, 12)
      .forEach((line, i) =>
        out.push(style.dim(`      ${String(closest.startLine + i).padStart(width)} | ${line}`)),
      );
    if (closest.lines.length > 12)
      out.push(style.dim(`      ${' '.repeat(width)} | … ${closest.lines.length - 12} more`));
    const diff = closest.firstDifference;
    if (diff !== undefined) out.push(...firstDifferenceLines(diff).map((line) => `      ${line}`));
  }
  out.push(`      ${style.yellow('hint:')} ${failure.hint}`);
  return out;
}

/** The protected files, and what became of them: refused (with the command that allows it), declined, or only named. */
function protectedLines(report: ApplyReport, style: Style): string[] {
  const lines = report.protectedFiles.map((p) => style.yellow(`  ! protected: ${p.path} (rule ${p.rule})`));
  const decision = report.protectedDecision;
  if (decision?.kind === 'refuse')
    lines.push(`  ${style.red('✗')} ${decision.reason}.`, `  ${style.yellow('hint:')} ${decision.hint}`);
  else if (decision?.kind === 'decline') lines.push('You said no to the protected files: nothing written.');
  else if (report.dryRun && lines.length > 0)
    lines.push(style.dim('  writing them takes --allow-protected or a yes at the terminal'));
  return lines;
}

export function renderApplyText(report: ApplyReport, style: Style): string {
  const out: string[] = [];
  if (report.blockCount === 0 && report.problems.length === 0) {
    out.push(`${style.red('aide apply:')} no edits found in the response; nothing written.`);
    out.push(
      '  hint: aide applies SEARCH/REPLACE blocks (<<<<<<< SEARCH … ======= … >>>>>>> REPLACE) and unified diffs.',
    );
    return `${out.join('\n')}\n`;
  }
  if (!report.ok) {
    const failed = report.blocks.filter((b) => !b.ok).length + report.problems.length;
    out.push(
      `${style.red('aide apply:')} nothing written: ${failed} of ${plural(report.blockCount + report.problems.length, 'edit')} failed.`,
    );
    for (const problem of report.problems) {
      out.push(
        `  ${style.red('✗')} response line ${problem.line}: ${problem.message}`,
        `      ${style.yellow('hint:')} ${problem.hint}`,
      );
    }
    for (const outcome of report.blocks) {
      if (outcome.ok)
        out.push(
          `  ${style.green('✓')} ${blockLabel(outcome)} ${outcome.path}: ${outcome.action === 'already-applied' ? 'already in the file' : 'would apply'}`,
        );
      else out.push(...renderFailure(outcome, style));
    }
    return `${out.join('\n')}\n`;
  }
  const done = report.blocks.filter(
    (b): b is Extract<BlockOutcome, { ok: true }> => b.ok && b.action === 'already-applied',
  );
  if (report.files.length === 0 && done.length === report.blocks.length) {
    out.push(
      `aide apply: already applied: ${done.length === 1 ? 'the edit is' : `all ${done.length} edits are`} already in the files; nothing written.`,
    );
    for (const block of done)
      out.push(
        style.dim(
          `  = block ${block.index} ${block.path}${block.range === null ? '' : ` (line ${block.range.first})`}`,
        ),
      );
    return `${out.join('\n')}\n`;
  }
  if (report.dryRun) {
    for (const file of report.files) out.push(colorDiff(file.diff.trimEnd(), style));
    if (report.files.length > 0) out.push('');
  }
  const held = report.protectedDecision !== null && report.protectedDecision.kind !== 'approve';
  const verb = report.dryRun || held ? 'would change' : 'changed';
  const note = report.dryRun
    ? ' (dry run: nothing written)'
    : held
      ? ' (nothing written: protected files)'
      : '';
  out.push(
    `aide apply: ${plural(report.blockCount, 'edit')} ${verb} ${plural(report.files.length, 'file')}${note}.`,
  );
  // Grouped once: a filter per file made a reply of 10,000 one-file blocks take 90 s.
  const blocksByPath = new Map<string, Array<Extract<BlockOutcome, { ok: true }>>>();
  for (const b of report.blocks) {
    if (!b.ok) continue;
    const list = blocksByPath.get(b.path);
    if (list === undefined) blocksByPath.set(b.path, [b]);
    else list.push(b);
  }
  for (const file of report.files) {
    const blocks = blocksByPath.get(file.path) ?? [];
    const stat = `${style.green(`+${file.added}`)} ${style.red(`-${file.removed}`)}`;
    out.push(
      `  ${ACTION_MARK[file.action]} ${style.bold(file.path)}  ${stat}  ${style.dim(blockLabels(blocks))}`,
    );
  }
  out.push(...protectedLines(report, style));
  const checkpoint = report.checkpoint;
  if (checkpoint !== null) {
    out.push(
      `Checkpoint ${style.bold(checkpoint.checkpoint.short)} holds the files as they were: undo with \`aide restore ${checkpoint.checkpoint.short}\`.`,
    );
    for (const skipped of checkpoint.skipped)
      out.push(
        style.yellow(
          `  warning: ${skipped.path} (${skipped.bytes} bytes) is over checkpoints.max_file_bytes and was not checkpointed`,
        ),
      );
    const ignored = checkpoint.ignored ?? [];
    if (ignored.length > 0) {
      const shown =
        ignored.length > 5
          ? `${ignored.slice(0, 5).join(', ')} and ${ignored.length - 5} more`
          : ignored.join(', ');
      out.push(
        style.yellow(
          `  warning: git ignores ${shown}: the checkpoint holds ${ignored.length === 1 ? 'it' : 'them'}, but \`git status\` and \`git diff\` will not show this change`,
        ),
      );
    }
  }
  const unchanged = report.blocks.filter((b) => b.ok && b.action === 'unchanged');
  if (report.files.length === 0) out.push('  (the edits leave every file as it was)');
  else if (unchanged.length > 0) out.push(style.dim(`  ${plural(unchanged.length, 'edit')} changed nothing`));
  return `${out.join('\n')}\n`;
}

/** The --json shape of `aide apply` (versioned: consumers check `schema`). */
export function applyJson(report: ApplyReport): string {
  return `${JSON.stringify({ schema: 'aide.apply/1', ...report }, null, 2)}\n`;
}
