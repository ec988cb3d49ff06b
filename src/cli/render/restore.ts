/** Text (streamed event by event) and JSON renderings of `aide restore`. */
import { isModelEvent, type AideEvent } from '../../core/events.js';
import type { ChangeAction } from '../../core/ports/changes.js';
import type { RestoreReport } from '../../core/flows/restore.js';
import type {
  PendingRestore,
  RestoreChange,
  RestorePlan,
  RestoreSkipReason,
} from '../../core/ports/checkpoints.js';
import { plural } from '../../shared/text.js';
import type { Style } from './style.js';

/** Longer lists are cut in text output (--json lists everything). */
const MAX_LISTED = 200;

const ACTION_MARK: Record<ChangeAction, string> = {
  created: 'A',
  modified: 'M',
  type_changed: 'M',
  deleted: 'D',
};

/** aide.restore/1 names what happens to a path with a verb of its own. */
const JSON_ACTION: Record<ChangeAction, 'create' | 'modify' | 'remove'> = {
  created: 'create',
  modified: 'modify',
  type_changed: 'modify',
  deleted: 'remove',
};

const SKIP_TEXT: Record<RestoreSkipReason, string> = {
  'too-large-now': 'over the size limit now: its current content is in no checkpoint',
  'too-large-then': 'the checkpoint left it out (over the size limit)',
  'not-captured': 'something aide never captured (an ignored file, a symlink) is there or in its way',
  'nested-link': 'a submodule link, not files',
  'git-internal': 'inside a .git folder',
  'name-not-utf8': 'its name is not UTF-8, which aide cannot write exactly',
};

function changeLine(change: RestoreChange, style: Style): string {
  const mark = ACTION_MARK[change.action];
  const colored =
    change.action === 'deleted'
      ? style.red(mark)
      : change.action === 'created'
        ? style.green(mark)
        : style.yellow(mark);
  const kind =
    change.kind === 'symlink'
      ? style.dim('  (symlink)')
      : change.kind === 'executable'
        ? style.dim('  (executable)')
        : '';
  return `    ${colored} ${change.path}${kind}`;
}

function capped(lines: string[], style: Style): string[] {
  if (lines.length <= MAX_LISTED) return lines;
  return [
    ...lines.slice(0, MAX_LISTED),
    style.dim(`    … and ${lines.length - MAX_LISTED} more (--json lists them all)`),
  ];
}

function planLines(plan: RestorePlan, style: Style): string[] {
  const { target } = plan;
  const out = [
    `aide restore: checkpoint ${style.bold(target.short)} "${target.message}" (${target.reason}, ${target.time})`,
  ];
  const removed = plan.changes.filter((c) => c.action === 'deleted').length;
  const written = plan.changes.length - removed;
  if (plan.changes.length > 0) {
    out.push(`  ${plural(written, 'file')} to write, ${removed} to remove:`);
    out.push(
      ...capped(
        plan.changes.map((c) => changeLine(c, style)),
        style,
      ),
    );
  }
  if (plan.leftAlone.length > 0) {
    out.push(`  left alone (${plural(plan.leftAlone.length, 'path')}):`);
    out.push(
      ...capped(
        plan.leftAlone.map((s) => `    ${s.path}  ${style.dim(SKIP_TEXT[s.reason])}`),
        style,
      ),
    );
  }
  return out;
}

/** Before the plan, when the checkpoint is one an `aide act --dry-run` session took. */
export function dryRunNote(short: string, style: Style): string {
  return `${style.yellow('note:')} checkpoint ${short} is from a dry run: your files never had this state; restoring it writes what that dry run verified.\n`;
}

/** What to tell the user about a restore that was interrupted (also for `aide checkpoints`). */
export function pendingRestoreLines(pending: PendingRestore, style: Style): string[] {
  return [
    `${style.yellow('note:')} a restore to checkpoint ${pending.target.short} was interrupted (started ${pending.startedAt} by pid ${pending.pid}).`,
    `  Finish it with \`aide restore ${pending.target.short}\`, or go back to before it with \`aide restore ${pending.undo.short}\`.`,
  ];
}

/** The text for one event of the restore flow, written as it happens ('' for none). */
export function renderRestoreEvent(event: AideEvent, style: Style): string {
  // A restore has no model.
  if (isModelEvent(event)) return '';
  const lines: string[] = [];
  switch (event.type) {
    case 'restore_pending':
      lines.push(...pendingRestoreLines(event.pending, style));
      if (event.tempFilesRemoved > 0)
        lines.push(`  Removed ${plural(event.tempFilesRemoved, 'temp file')} it left.`);
      break;
    case 'restore_planned':
      lines.push(...planLines(event.plan, style));
      break;
    case 'checkpoint_created':
      lines.push(`Saved the current state as checkpoint ${style.bold(event.result.checkpoint.short)}.`);
      break;
    // The approver asks the question and the summary says how it ended (renderRestoreSummary).
    case 'approval_requested':
    case 'approval_decided':
    case 'files_restored':
    case 'restore_finished':
      break;
    // Not events of a restore.
    case 'edits_parsed':
    case 'block_planned':
    case 'patch_applied':
    case 'verify_started':
    case 'command_started':
    case 'command_finished':
    case 'verify_finished':
    case 'step_started':
    case 'step_edited':
    case 'step_finished':
    case 'attempt_started':
    case 'step_agent':
    case 'attempt_finished':
    case 'session_finished':
    case 'session_resumed':
      break;
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The last lines: what happened and how to undo it. */
export function renderRestoreSummary(report: RestoreReport, style: Style): string {
  const short = report.target.short;
  const lines: string[] = [];
  switch (report.result) {
    case 'restored': {
      const folders =
        report.foldersRemoved.length === 0
          ? ''
          : `, ${plural(report.foldersRemoved.length, 'emptied folder')} removed`;
      if (report.changes.length === 0)
        lines.push(
          `${style.green('Finished')} the interrupted restore${folders === '' ? '' : ` (${folders.slice(2)})`}.`,
        );
      else
        lines.push(
          `${style.green('Restored')} checkpoint ${short}: ${plural(report.written, 'file')} written, ${report.removed} removed${folders}.`,
        );
      if (report.undo !== null) lines.push(`Undo this restore with \`aide restore ${report.undo.short}\`.`);
      break;
    }
    case 'already-there':
      lines.push(
        `Nothing to do: the workspace already matches checkpoint ${short}${report.leftAlone.length === 0 ? '' : ', apart from the paths left alone'}.`,
      );
      break;
    case 'dry-run':
      lines.push(`Dry run: nothing written. \`aide restore ${short}\` restores these files.`);
      break;
    case 'declined':
      lines.push('Not restored: nothing was changed.');
      break;
  }
  return `${lines.join('\n')}\n`;
}

/** The --json shape of `aide restore` (versioned: consumers check `schema`). */
export function restoreJson(report: RestoreReport): string {
  const changes = report.changes.map((c) => ({ path: c.path, action: JSON_ACTION[c.action], kind: c.kind }));
  return `${JSON.stringify({ schema: 'aide.restore/1', ok: report.result !== 'declined', ...report, changes }, null, 2)}\n`;
}
