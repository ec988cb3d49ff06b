/**
 * The SessionRecorder port on the shadow repository: a verified step's tree becomes the next
 * checkpoint on `aide/<session>`, and its files are written into the workspace (write-back.ts),
 * with Ctrl-C held while the files are replaced so the workspace is wholly before or after.
 * SIGKILL cannot be held: a journal in the session's folder, written before the first file and
 * removed once state.json records the step, lets `aide act --resume` roll the write forward.
 */
import { join } from 'node:path';
import type { CheckpointRecord } from '../../core/ports/checkpoints.js';
import type { FileSystem } from '../../core/ports/files.js';
import type { ChangedFile, TreeChange } from '../../core/ports/changes.js';
import type {
  CheckpointTreeMeta,
  PendingWriteBack,
  SessionRecorder,
  WriteBackResult,
  WriteBackStep,
} from '../../core/ports/session.js';
import { sweepTempFiles } from '../fs/node-file-system.js';
import { holdSignals } from '../process/hold-signals.js';
import type { SessionFiles } from '../session/session-files.js';
import {
  readWriteBackJournal,
  removeWriteBackJournal,
  writeWriteBackJournal,
} from '../session/write-back-journal.js';
import { changedFilesBetween } from './changed-files.js';
import { createCheckpoint } from './checkpoint-commit.js';
import type { ShadowStore } from './shadow-store.js';
import { watchPaths } from './watched-paths.js';
import { planWriteBack } from './write-back.js';

export class ShadowSessionRecorder implements SessionRecorder {
  constructor(
    private readonly store: ShadowStore,
    private readonly session: string,
    private readonly files: SessionFiles,
    private readonly fs: FileSystem,
  ) {}

  async checkpointTree(tree: string, meta: CheckpointTreeMeta): Promise<CheckpointRecord> {
    const { from, ...rest } = meta;
    const { checkpoint } = await createCheckpoint(
      this.store.git,
      tree,
      {
        session: this.session,
        reason: 'step',
        ...rest,
        ...(from === undefined ? {} : { parentHint: { id: from.checkpoint, ...from } }),
      },
      this.store.checkpointTools(),
    );
    return checkpoint;
  }

  async writeBack(changes: readonly TreeChange[], step: WriteBackStep): Promise<WriteBackResult> {
    // Watched before any file changes: later snapshots hold them even if ignore rules change.
    // The plan only reads, so it is made meanwhile (its blob reader starts beside check-ignore).
    const watched = watchPaths(
      this.store.git,
      this.store.workspace.root,
      changes.map((c) => c.path),
    );
    const pending: PendingWriteBack = {
      ...step,
      pid: process.pid,
      startedAt: new Date().toISOString(),
      changes: [...changes],
    };
    return this.write(pending, true, watched);
  }

  pendingWriteBack(): Promise<PendingWriteBack | null> {
    return readWriteBackJournal(this.files.dir);
  }

  async finishWriteBack(pending: PendingWriteBack): Promise<WriteBackResult> {
    // The killed process's staged temp files sit next to the files it was writing.
    // Only below the root: the write itself is jailed by planWriteBack.
    const inside = pending.changes
      .map((c) => c.path.split('/'))
      .filter((parts) => parts[0] !== '' && !parts.includes('..'));
    await sweepTempFiles(
      inside.map((parts) => join(this.store.workspace.root, ...parts)),
      pending.pid,
    );
    return this.write({ ...pending, pid: process.pid }, false);
  }

  /** Checks every file, journals (a fresh write-back) or keeps the journal (a roll-forward), writes. */
  private async write(
    pending: PendingWriteBack,
    fresh: boolean,
    watched: Promise<unknown> = Promise.resolve(),
  ): Promise<WriteBackResult> {
    // The store's reader, shared by every step's write-back (ended when the store closes).
    const [plan] = await Promise.all([
      planWriteBack(this.store.objectReader(), this.store.workspace.root, pending.changes, this.fs),
      watched,
    ]);
    if (plan.conflicts.length > 0) return { written: 0, conflicts: plan.conflicts };
    // A roll-forward rewrites the journal with its own pid: if it is killed too, the next
    // resume sweeps this process's temp files.
    await writeWriteBackJournal(this.files.dir, pending);
    try {
      await holdSignals(() => this.fs.commit(plan.writes));
    } catch (error) {
      // The commit rolled back what it had written: the workspace is wholly before the step.
      if (fresh) await removeWriteBackJournal(this.files.dir);
      throw error;
    }
    return { written: plan.writes.length, conflicts: [] };
  }

  diff(from: string, to: string): Promise<string> {
    return this.store.diff(from, to);
  }

  changedFiles(from: string, to: string): Promise<ChangedFile[]> {
    return changedFilesBetween(this.store.git, from, to);
  }

  saveFile(name: string, content: string): Promise<string> {
    return this.files.save(name, content);
  }

  async readBlob(id: string): Promise<Uint8Array> {
    const object = await this.store.objectReader().read(id);
    if (object?.type !== 'blob') throw new Error(`${id} is not a blob of the shadow repository`);
    return object.content;
  }
}
