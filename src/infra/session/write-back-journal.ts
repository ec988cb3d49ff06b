/**
 * The write-back journal, `.aide/state/sessions/<id>/write-back.json`: written durably before
 * the first file of a verified, approved and checkpointed step is written into the workspace,
 * and removed only after state.json records the step. Ctrl-C is held while the files are
 * replaced, but SIGKILL cannot be: a journal found later means the workspace may hold some of
 * the step's files and not others, and `aide act --resume` rolls the write-back forward.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ChangeAction } from '../../core/ports/changes.js';
import type { PendingWriteBack } from '../../core/ports/session.js';
import { AideError } from '../../shared/errors.js';
import { readJsonJournal, writeJsonDurably } from '../fs/durable-json.js';

export const WRITE_BACK_JOURNAL = 'write-back.json';

const objectId = z.string().regex(/^[0-9a-f]{40,64}$/);
const mode = z.string().regex(/^[0-7]{6}$/);

/** aide.write-back/1 spells a change's action as `status`, git's words (added, not created). */
const JOURNAL_STATUS = {
  created: 'added',
  modified: 'modified',
  deleted: 'deleted',
  type_changed: 'type_changed',
} as const satisfies Record<ChangeAction, string>;
type JournalStatus = (typeof JOURNAL_STATUS)[ChangeAction];
const JOURNAL_ACTION = Object.fromEntries(
  Object.entries(JOURNAL_STATUS).map(([action, status]) => [status, action]),
) as Record<JournalStatus, ChangeAction>;

const changeSchema = z.object({
  path: z.string().min(1),
  status: z.enum(['added', 'modified', 'deleted', 'type_changed']),
  oldMode: mode.nullable(),
  newMode: mode.nullable(),
  oldBlob: objectId.nullable(),
  newBlob: objectId.nullable(),
});

export const writeBackJournalSchema = z.object({
  schema: z.literal('aide.write-back/1'),
  /** The step being written. */
  step: z.number().int().positive(),
  /** Its checkpoint: what the workspace is being made to match. */
  checkpoint: objectId,
  /** The tree the step started from (the verified patch is from here to the checkpoint). */
  from: objectId,
  /** The step's Run output, for the templates of the steps after it. */
  output: z.string().nullable(),
  pid: z.number().int(),
  startedAt: z.string(),
  /** Every file of the step, with its blob before and after. */
  changes: z.array(changeSchema),
});
export type WriteBackJournal = z.infer<typeof writeBackJournalSchema>;

/** The journal in a session folder, or null when there is none. */
export async function readWriteBackJournal(sessionDir: string): Promise<PendingWriteBack | null> {
  const path = join(sessionDir, WRITE_BACK_JOURNAL);
  const journal = await readJsonJournal(
    path,
    writeBackJournalSchema,
    () =>
      new AideError('workspace_invalid', `the write-back journal ${path} is not one aide wrote`, {
        hint: 'If no `aide act` was killed while writing files, delete it; otherwise compare your files with `aide checkpoints diff`.',
      }),
  );
  if (journal === null) return null;
  return {
    step: journal.step,
    checkpoint: journal.checkpoint,
    from: journal.from,
    output: journal.output,
    pid: journal.pid,
    startedAt: journal.startedAt,
    changes: journal.changes.map(({ status, ...change }) => ({ ...change, action: JOURNAL_ACTION[status] })),
  };
}

/** Written durably (fsync, then rename): it must be on disk before the first file changes. */
export async function writeWriteBackJournal(sessionDir: string, pending: PendingWriteBack): Promise<void> {
  const changes = pending.changes.map(({ path, action, ...objects }) => ({
    path,
    status: JOURNAL_STATUS[action],
    ...objects,
  }));
  const journal: WriteBackJournal = { schema: 'aide.write-back/1', ...pending, changes };
  await writeJsonDurably(join(sessionDir, WRITE_BACK_JOURNAL), journal);
}

export async function removeWriteBackJournal(sessionDir: string): Promise<void> {
  await rm(join(sessionDir, WRITE_BACK_JOURNAL), { force: true });
}
