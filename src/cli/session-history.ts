/**
 * What the act sessions left in the files, told from the two records aide keeps: each
 * session's state.json (which steps it applied, and their checkpoints) and the shadow's
 * checkpoints, where every `aide restore` leaves a `restore-safety` checkpoint taken just
 * before it wrote ("before aide restore <target>"). Replaying the checkpoints in time order
 * says which applied steps a later restore took out of the files (a restore to a checkpoint
 * from before the step) and which a restore put back (a restore to a checkpoint taken while the
 * step was in). Pure: the command reads the records, this only reads them together.
 */
import type { CheckpointRecord } from '../core/ports/checkpoints.js';
import type { StoredSession } from '../core/ports/session-store.js';

/** A session as status lists it: the store's record, with what a best-effort display needs. */
export interface ListedSession extends StoredSession {
  /** The raw JSON of a state.json that did not parse as a state. */
  raw: unknown;
  /** When state.json was last written, ms since the epoch. */
  updated: number;
}

/** The restore that took a step's writes out of the files. */
export interface UndoneBy {
  /** The restore's safety checkpoint: restoring it puts the step back. */
  safety: string;
  /** The checkpoint restored. */
  target: string;
  time: string;
}

/** Where a session's writes stand now. */
export interface SessionUndo {
  /** Its applied steps (the ones that wrote files), with the restore that undid each, if any. */
  applied: Array<{ step: number; checkpoint: string; undoneBy: UndoneBy | null }>;
  /**
   * The checkpoint that puts the files back as they were before the session's first write; null
   * when nothing it wrote is still in the files (a dry run, nothing applied, or all undone).
   */
  undo: string | null;
  /** Later sessions that applied steps: restoring `undo` takes their writes out too. */
  laterWrites: number;
}

const RESTORE_MESSAGE = /^before aide restore (\S+)$/;

/** The checkpoint a restore-safety checkpoint names as its target (ids are printed abbreviated). */
function restoreTarget(
  safety: CheckpointRecord,
  byTime: readonly CheckpointRecord[],
): CheckpointRecord | undefined {
  const short = RESTORE_MESSAGE.exec(safety.message)?.[1];
  if (short === undefined) return undefined;
  const matches = byTime.filter(
    (c) => c.id.startsWith(short) && Date.parse(c.time) <= Date.parse(safety.time),
  );
  return matches.length === 1 ? matches[0] : undefined;
}

function key(session: string, step: number): string {
  return `${session}\u0000${step}`;
}

/** The applied steps of real (not dry-run) sessions, by their checkpoint id. */
function appliedSteps(sessions: readonly ListedSession[]): Map<string, string> {
  const steps = new Map<string, string>();
  for (const found of sessions) {
    const state = found.state;
    if (state === null || state.dryRun) continue;
    for (const step of state.steps)
      if (step.status === 'applied' && step.checkpoint !== null)
        steps.set(step.checkpoint, key(state.session, step.number));
  }
  return steps;
}

/** For every applied step: the restore that undid it, or null when it is in the files (as far as aide knows). */
export function replayRestores(
  sessions: readonly ListedSession[],
  checkpoints: readonly CheckpointRecord[],
): Map<string, UndoneBy | null> {
  const byTime = [...checkpoints].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const steps = appliedSteps(sessions);
  // The steps in the files after each checkpoint (a safety checkpoint: before its restore wrote).
  const inFilesAt = new Map<string, ReadonlySet<string>>();
  let inFiles = new Set<string>();
  const undone = new Map<string, UndoneBy | null>();
  for (const checkpoint of byTime) {
    const step = steps.get(checkpoint.id);
    if (step !== undefined) {
      inFiles.add(step);
      undone.set(step, null);
    }
    inFilesAt.set(checkpoint.id, new Set(inFiles));
    if (checkpoint.reason !== 'restore-safety') continue;
    const target = restoreTarget(checkpoint, byTime);
    const then = target === undefined ? undefined : inFilesAt.get(target.id);
    if (target === undefined || then === undefined) continue;
    const by: UndoneBy = { safety: checkpoint.id, target: target.id, time: checkpoint.time };
    for (const s of inFiles) if (!then.has(s)) undone.set(s, by);
    for (const s of then) undone.set(s, null);
    inFiles = new Set(then);
  }
  return undone;
}

/** Where `session`'s writes stand, given every session and the replayed restores. */
export function sessionUndo(
  found: ListedSession,
  sessions: readonly ListedSession[],
  undone: ReadonlyMap<string, UndoneBy | null>,
): SessionUndo {
  const state = found.state;
  if (state === null || state.dryRun) return { applied: [], undo: null, laterWrites: 0 };
  const applied = state.steps
    .filter((s) => s.status === 'applied' && s.checkpoint !== null)
    .map((s) => ({
      step: s.number,
      checkpoint: s.checkpoint ?? '',
      undoneBy: undone.get(key(state.session, s.number)) ?? null,
    }));
  const stillIn = applied.some((s) => s.undoneBy === null);
  const started = Date.parse(state.startedAt);
  const laterWrites = sessions.filter(
    (other) =>
      other.state !== null &&
      other.session !== state.session &&
      !other.state.dryRun &&
      Date.parse(other.state.startedAt) > started &&
      other.state.steps.some(
        (s) => s.status === 'applied' && undone.get(key(other.session, s.number)) === null,
      ),
  ).length;
  // The base is the workspace as the session found it: restoring it takes out every write since.
  return { applied, undo: stillIn ? state.base : null, laterWrites: stillIn ? laterWrites : 0 };
}

/** The session an id or a unique prefix of one names: the session, or the ids it could mean. */
export function findSession(
  sessions: readonly ListedSession[],
  id: string,
): ListedSession | readonly string[] {
  const exact = sessions.find((s) => s.session === id);
  if (exact !== undefined) return exact;
  const matches = sessions.filter((s) => s.session.startsWith(id));
  return matches.length === 1 && matches[0] !== undefined ? matches[0] : matches.map((s) => s.session);
}
