/**
 * The restore journal, `.aide/state/restore-journal.json`: written (durably) before a restore
 * changes any file and removed after the last, so a restore killed half way is found by the
 * next run, which can finish it or undo it. It names the target, the safety checkpoint taken
 * just before, the checkpoint that undoes the whole restore, and the paths being written and
 * removed (where a killed run's temp files are, which folders it may have left empty).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { PendingRestore } from '../../core/ports/checkpoints.js';
import { AideError } from '../../shared/errors.js';
import { readJsonJournal, writeJsonDurably } from '../fs/durable-json.js';

export const JOURNAL_FILE = 'restore-journal.json';

const checkpointRef = z.object({ id: z.string().regex(/^[0-9a-f]{40,64}$/), short: z.string() });

const journalSchema = z.object({
  schema: z.literal('aide.restore-journal/1'),
  target: checkpointRef,
  safety: checkpointRef,
  undo: checkpointRef,
  pid: z.number().int(),
  startedAt: z.string(),
  /** Paths written, relative to the root (where a killed run's temp files are). */
  writes: z.array(z.string()),
  /** Paths removed, relative to the root (whose folders may be left empty). */
  removes: z.array(z.string()),
});
export type RestoreJournal = z.infer<typeof journalSchema>;

/** The journal of an interrupted restore in a workspace's state folder, or null. */
export async function readRestoreJournal(stateDir: string): Promise<RestoreJournal | null> {
  const path = join(stateDir, JOURNAL_FILE);
  return readJsonJournal(
    path,
    journalSchema,
    (problem) =>
      new AideError('restore_failed', `the restore journal ${path} is not one aide wrote (${problem})`, {
        hint: 'If no restore was interrupted, delete the file; otherwise `aide checkpoints` lists the checkpoints to restore.',
      }),
  );
}

/** Written durably (fsync, rename): it must exist before the first file changes. */
export async function writeJournal(stateDir: string, journal: RestoreJournal): Promise<void> {
  await writeJsonDurably(join(stateDir, JOURNAL_FILE), journal);
}

export async function removeJournal(stateDir: string): Promise<void> {
  await rm(join(stateDir, JOURNAL_FILE), { force: true });
}

export function pendingFromJournal(journal: RestoreJournal): PendingRestore {
  return {
    target: journal.target,
    safety: journal.safety,
    undo: journal.undo,
    startedAt: journal.startedAt,
    pid: journal.pid,
  };
}

/** The restore a crash left half done in a workspace (its journal), or null. */
export async function readPendingRestore(stateDir: string): Promise<PendingRestore | null> {
  const journal = await readRestoreJournal(stateDir);
  return journal === null ? null : pendingFromJournal(journal);
}
