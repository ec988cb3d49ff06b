/** Text renderings for `aide checkpoints` and its subcommands. */
import type { ChangeAction } from '../../core/ports/changes.js';
import type {
  CheckpointRecord,
  FileChangeSummary,
  PruneResult,
  ShadowStats,
} from '../../core/ports/checkpoints.js';
import { plural } from '../../shared/text.js';
import { formatBytes } from '../../shared/units.js';
import { colorDiff, type Style } from './style.js';

/** A checkpoint as it is shown: `missing` names an object the shadow no longer has (it cannot be restored). */
export type ShownCheckpoint = CheckpointRecord & { missing?: string; dryRun?: boolean };

/** "3 minutes ago", "2 days ago" — for people; JSON keeps ISO times. */
export function ago(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  const units: Array<[number, string]> = [
    [86_400 * 365, 'year'],
    [86_400 * 30, 'month'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units)
    if (seconds >= size) return `${plural(Math.floor(seconds / size), name)} ago`;
  return 'just now';
}

/** `hidden`: how many checkpoints of dry runs were left out (listed with --all). */
export function renderList(
  checkpoints: readonly ShownCheckpoint[],
  now: Date,
  style: Style,
  hidden = 0,
): string {
  const hiddenNote =
    hidden === 0
      ? ''
      : `${plural(hidden, 'checkpoint')} of dry runs not listed (files aide verified but never wrote): --all lists them.\n`;
  if (checkpoints.length === 0)
    return `No checkpoints yet. \`aide apply\` takes one before it writes; \`aide checkpoints save\` takes one now.\n${hiddenNote}`;
  const rows = checkpoints.map((c) => [
    style.bold(c.short),
    ago(c.time, now),
    c.session,
    [c.step === null ? '' : `step ${c.step}`, c.dryRun === true ? style.yellow('dry run') : '']
      .filter((t) => t !== '')
      .join(', '),
    plural(c.filesChanged, 'file'),
    c.missing === undefined
      ? c.message
      : `${c.message} ${style.red('(damaged: an object is missing, cannot be restored)')}`,
  ]);
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => stripLength(r[i] ?? ''))));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i < 5 ? pad(cell, widths[i] ?? 0) : cell))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n\n${hiddenNote}Show one: aide checkpoints show ID · compare: aide checkpoints diff ID [ID2] · undo to one: aide restore ID\n`;
}

function stripLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '').length;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stripLength(text)));
}

const ACTION_TEXT: Record<ChangeAction, string> = {
  created: 'added',
  deleted: 'deleted',
  modified: 'modified',
  type_changed: 'type changed',
};

/** aide.checkpoint/1 and aide.checkpoints.diff/1 name a change by git's status letter. */
const STATUS_LETTER: Record<ChangeAction, 'A' | 'D' | 'M' | 'T'> = {
  created: 'A',
  deleted: 'D',
  modified: 'M',
  type_changed: 'T',
};

/** The changes as the --json documents list them. */
export function changesJson(changes: readonly FileChangeSummary[]): unknown[] {
  return changes.map((c) => ({
    path: c.path,
    status: STATUS_LETTER[c.action],
    added: c.added,
    removed: c.removed,
  }));
}

export function renderShow(
  checkpoint: ShownCheckpoint,
  changes: readonly FileChangeSummary[],
  now: Date,
  style: Style,
  dryRun = false,
): string {
  const out = [
    style.bold(`checkpoint ${checkpoint.id}`),
    `time     ${checkpoint.time} (${ago(checkpoint.time, now)})`,
    `session  ${checkpoint.session}${checkpoint.step === null ? '' : `, step ${checkpoint.step}`}`,
    `reason   ${checkpoint.reason}`,
    `message  ${checkpoint.message}`,
  ];
  if (checkpoint.verdict !== null) out.push(`verdict  ${checkpoint.verdict}`);
  if (dryRun)
    out.push(
      `${style.yellow('dry run')}  an \`aide act --dry-run\` session: aide verified this in a scratch copy and never wrote it to your files`,
    );
  if (checkpoint.skipped.length > 0)
    out.push(
      `skipped  ${checkpoint.skipped.join(', ')} (over checkpoints.max_file_bytes; restore leaves them alone)`,
    );
  out.push('', `${plural(changes.length, 'file')} changed since the previous checkpoint:`);
  for (const change of changes.slice(0, 200)) {
    const counts =
      change.added === null
        ? 'binary'
        : `${style.green(`+${change.added}`)} ${style.red(`-${change.removed ?? 0}`)}`;
    out.push(`  ${ACTION_TEXT[change.action]}  ${change.path}  ${counts}`);
  }
  if (changes.length > 200) out.push(`  … and ${changes.length - 200} more`);
  return `${out.join('\n')}\n`;
}

export function renderDiff(diff: string, style: Style): string {
  return diff === '' ? 'No differences.\n' : `${colorDiff(diff.trimEnd(), style)}\n`;
}

export function renderStats(stats: ShadowStats): string {
  return [
    `shadow repository  ${stats.path}`,
    `size on disk       ${formatBytes(stats.bytes)}`,
    `sessions           ${stats.sessions}`,
    `checkpoints        ${stats.checkpoints}`,
    `objects            ${stats.objects}${stats.borrowsObjects ? " (unchanged files are borrowed from the repository's own objects)" : ''}`,
    '',
    'Free space with: aide checkpoints prune --keep 20   or   --older-than 30',
    '',
  ].join('\n');
}

export function renderPrune(result: PruneResult, dryRun: boolean): string {
  if (result.removed.length === 0) return `Nothing to prune: ${plural(result.kept, 'session')} kept.\n`;
  const verb = dryRun ? 'Would remove' : 'Removed';
  const lines = [
    `${verb} ${plural(result.removed.length, 'session')}; ${plural(result.kept, 'session')} kept.`,
  ];
  for (const session of result.removed.slice(0, 50))
    lines.push(`  ${session.session}  (last checkpoint ${session.time})`);
  if (!dryRun)
    lines.push(`Shadow repository: ${formatBytes(result.bytesBefore)} → ${formatBytes(result.bytesAfter)}.`);
  if (result.notCompacted !== undefined) lines.push(`Space not reclaimed: ${result.notCompacted}.`);
  return `${lines.join('\n')}\n`;
}
