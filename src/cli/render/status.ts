/** Text renderings of `aide status`: one session in full, and the short list of recent ones. */
import { plural } from '../../shared/text.js';
import type { ListedSession, SessionUndo } from '../session-history.js';
import { ago } from './checkpoints.js';
import type { Style } from './style.js';

/** state.json as far as it can be shown: a session recorded by an older aide may lack fields. */
export interface ShownState {
  session?: string;
  plan?: string;
  title?: string;
  status?: string;
  dryRun?: boolean;
  only?: number | null;
  base?: string;
  steps?: ShownStep[];
}

/** A step of state.json as status shows it; `attempts`: a model step's (absent for the others). */
interface ShownStep {
  number: number;
  status: string;
  checkpoint: string | null;
  attempts?: ReadonlyArray<{ attempt: number; passed: boolean }>;
}

/** "; 3 attempts, 2 failed" for a model step; '' for a step without attempts. */
function attemptsText(step: ShownStep): string {
  const attempts = step.attempts ?? [];
  if (attempts.length === 0) return '';
  const failed = attempts.filter((a) => !a.passed).length;
  return `; ${plural(attempts.length, 'attempt')}, ${failed} failed`;
}

/** What status says about carrying a session on. */
export interface Resumable {
  session: string;
  plan: string;
  command: string;
  /** A write-back of this session was killed half way: resuming finishes it. */
  pendingWriteBack: { step: number; files: number } | null;
}

const STATUS_TEXT: Readonly<Record<string, string>> = { not_run: 'not run' };
const KILLED = 'running when its aide process ended (killed or crashed)';
const short = (id: string) => id.slice(0, 10);

export function shownState(found: ListedSession): ShownState {
  return found.state ?? found.raw ?? {};
}

/**
 * A step state.json still calls running in a session that is no longer running (it was killed, or
 * the crash was recorded): the step never finished.
 */
const UNFINISHED = 'not finished (it was running when the session ended)';

function stepLine(step: ShownStep, undo: SessionUndo, now: Date, ended: boolean): string {
  const checkpoint = step.checkpoint === null ? '' : ` (checkpoint ${short(step.checkpoint)})`;
  const undone = undo.applied.find((a) => a.step === step.number)?.undoneBy ?? null;
  const text = ended && step.status === 'running' ? UNFINISHED : (STATUS_TEXT[step.status] ?? step.status);
  if (undone === null) return `  step ${step.number}: ${text}${checkpoint}${attemptsText(step)}`;
  return `  step ${step.number}: applied, then undone by \`aide restore ${short(undone.target)}\` ${ago(undone.time, now)}${checkpoint}; \`aide restore ${short(undone.safety)}\` puts it back`;
}

function undoLine(state: ShownState, undo: SessionUndo): string {
  if (undo.undo !== null) {
    const later =
      undo.laterWrites === 0
        ? ''
        : ` (this also takes out what ${plural(undo.laterWrites, 'later session')} wrote)`;
    return `undo this session: \`aide restore ${short(undo.undo)}\` puts the files back as they were before it${later}`;
  }
  if (state.dryRun === true) return 'nothing to undo: a dry run writes no files';
  if (undo.applied.length > 0)
    return 'nothing to undo: a restore already took out everything this session wrote';
  return 'nothing to undo: no step of this session wrote files';
}

/** One session in full: each step, how to undo what it wrote (if anything is left to undo). */
export function renderSession(found: ListedSession, killed: boolean, undo: SessionUndo, now: Date): string[] {
  const state = shownState(found);
  const status = killed ? KILLED : (state.status ?? 'unknown');
  const lines = [
    `session ${state.session ?? found.session}: ${status}${state.dryRun === true ? ' (dry run)' : ''}`,
  ];
  if (state.plan !== undefined) {
    const only = state.only === null || state.only === undefined ? '' : ` (step ${state.only} only)`;
    lines.push(`plan: ${state.plan}${state.title === undefined ? '' : ` — ${state.title}`}${only}`);
  }
  const ended = killed || state.status !== 'running';
  for (const step of state.steps ?? []) lines.push(stepLine(step, undo, now, ended));
  if (found.state !== null) lines.push(undoLine(state, undo));
  return lines;
}

export function renderResumable(resumable: Resumable, other: boolean): string[] {
  const lines: string[] = [];
  if (other) lines.push(`session ${resumable.session} (${resumable.plan}) is unfinished`);
  const write = resumable.pendingWriteBack;
  if (write !== null) {
    lines.push(
      `aide stopped while it wrote step ${write.step} into your files: some of its ${write.files} files may be written and others not`,
    );
    lines.push(`finish writing it and carry the session on with \`${resumable.command}\``);
  } else lines.push(`carry it on with \`${resumable.command}\``);
  return lines;
}

/** "2 applied, 1 failed" (a dry run: "3 verified"); counts in plan order of first appearance. */
function stepCounts(state: ShownState, undo: SessionUndo): string {
  const counts = new Map<string, number>();
  const undone = new Set(undo.applied.filter((a) => a.undoneBy !== null).map((a) => a.step));
  for (const step of state.steps ?? []) {
    const text = undone.has(step.number) ? 'undone' : (STATUS_TEXT[step.status] ?? step.status);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts].map(([text, n]) => `${n} ${text}`).join(', ');
}

export interface RecentRow {
  found: ListedSession;
  killed: boolean;
  undo: SessionUndo;
}

/** The recent sessions, one line each, newest first. */
export function renderRecent(rows: readonly RecentRow[], more: number, now: Date, style: Style): string[] {
  const cells = rows.map(({ found, killed, undo }) => {
    const state = shownState(found);
    const status = killed ? 'killed' : (state.status ?? 'unknown');
    const kind =
      state.dryRun === true
        ? 'dry run'
        : state.only === null || state.only === undefined
          ? ''
          : `step ${state.only} only`;
    return [
      found.session,
      status,
      ago(new Date(found.updated).toISOString(), now),
      [kind, stepCounts(state, undo)].filter((t) => t !== '').join(': '),
      state.plan ?? '',
    ];
  });
  const widths = [0, 1, 2, 3].map((i) => Math.max(...cells.map((c) => (c[i] ?? '').length)));
  const lines = [
    style.bold(
      'recent sessions, newest first (`aide status SESSION` shows one; a prefix of its id is enough):',
    ),
  ];
  for (const row of cells)
    lines.push(
      `  ${row
        .map((cell, i) => (i < 4 ? cell.padEnd(widths[i] ?? 0) : cell))
        .join('  ')
        .trimEnd()}`,
    );
  if (more > 0) lines.push(style.dim(`  … and ${plural(more, 'older session')}`));
  return lines;
}
