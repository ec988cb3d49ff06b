/**
 * Restoring the workspace's files to a checkpoint, transactionally.
 *
 * The plan compares the current snapshot's tree with the checkpoint's (`diff-tree`): every
 * path that differs is written back or removed, except what the shadow did not capture.
 * Ignored files and files aide never saw are not in the current tree, so nothing removes
 * them, and a write never lands on something that is on disk but not in the current tree
 * (an ignored file, or a symlink in the way): its content would be in no checkpoint. Files
 * over the size limit, now or when the checkpoint was taken, are left alone too. Peers
 * restored with `git clean` + `reset --hard` and deleted exactly those (Roo #6209, Cline
 * #14367).
 *
 * Applying: a journal naming the target and the safety checkpoint goes to
 * `.aide/state/restore-journal.json` before any file changes and is removed after the last;
 * the files are written through the FileSystem port's atomic commit (rolled back as a whole
 * if one write fails). A run killed half way leaves the journal: the next `aide restore`
 * reports it, removes the temp files it left, and running the same restore again finishes it.
 */
import { join } from 'node:path';
import type {
  CheckpointRecord,
  CheckpointRef,
  CheckpointRequest,
  CheckpointResult,
  Checkpointer,
  PendingRestore,
  RestoreOutcome,
  RestorePlan,
  Restorer,
} from '../../core/ports/checkpoints.js';
import type { FileSystem } from '../../core/ports/files.js';
import { AideError } from '../../shared/errors.js';
import { sweepTempFiles } from '../fs/node-file-system.js';
import { damagedCheckpoint, firstMissing } from './checkpoints.js';
import { missingObject } from './git.js';
import { readBlobs } from './raw-objects.js';
import {
  readPendingRestore,
  readRestoreJournal,
  removeJournal,
  writeJournal,
  type RestoreJournal,
} from './restore-journal.js';
import { planFromTrees, toFileWrite, pruneEmptiedFolders, type PlanDetail } from './restore-plan.js';
import type { ShadowStore } from './shadow-store.js';
import { readWatched } from './watched-paths.js';

function ref(checkpoint: { id: string; short: string }): CheckpointRef {
  return { id: checkpoint.id, short: checkpoint.short };
}

/** The restore side of a workspace's shadow repository, over an open ShadowStore (which holds the lock). */
export class ShadowRestorer implements Restorer, Checkpointer {
  private readonly details = new WeakMap<RestorePlan, PlanDetail>();

  constructor(
    private readonly store: ShadowStore,
    private readonly fs: FileSystem,
  ) {}

  private get root(): string {
    return this.store.workspace.root;
  }

  private get stateDir(): string {
    return this.store.workspace.stateDir;
  }

  pendingRestore(): Promise<PendingRestore | null> {
    return readPendingRestore(this.stateDir);
  }

  async recover(pending: PendingRestore): Promise<number> {
    const journal = await readRestoreJournal(this.stateDir);
    if (journal === null || journal.safety.id !== pending.safety.id) return 0;
    return (
      await sweepTempFiles(
        journal.writes.map((p) => join(this.root, p)),
        journal.pid,
      )
    ).length;
  }

  /** The plan; a checkpoint whose trees or blobs are gone is a clear error before anything is written. */
  async planRestore(target: string): Promise<RestorePlan> {
    const checkpoint = await this.store.show(target);
    if (checkpoint.missing !== undefined) throw damagedCheckpoint(checkpoint, checkpoint.missing);
    const current = await this.store.snapshot();
    try {
      const { plan, detail } = await planFromTrees(this.store.git, this.fs, {
        root: this.root,
        base: current.tree,
        target: checkpoint,
        skippedNow: current.skipped.map((s) => s.path),
        watched: await readWatched(this.store.git),
      });
      const blobs = [...detail.removals, ...detail.writes].flatMap((p) =>
        [p.raw.oldBlob, p.raw.newBlob].filter((sha) => sha !== null),
      );
      const missing = await firstMissing(this.store.git, blobs);
      if (missing !== null) throw damagedCheckpoint(checkpoint, missing);
      this.details.set(plan, detail);
      return plan;
    } catch (error) {
      const missing = missingObject(error);
      throw missing === null ? error : damagedCheckpoint(checkpoint, missing);
    }
  }

  checkpoint(request: CheckpointRequest): Promise<CheckpointResult> {
    return this.store.checkpoint(request);
  }

  async applyRestore(
    plan: RestorePlan,
    safety: CheckpointRecord,
    pending: PendingRestore | null,
  ): Promise<RestoreOutcome> {
    const detail = this.details.get(plan);
    if (detail === undefined) throw new Error('applyRestore: the plan was not made by this restorer');
    const safetyTree = await this.store.git.text(['rev-parse', '--verify', `${safety.id}^{tree}`]);
    if (safetyTree !== detail.base) {
      throw new AideError(
        'workspace_conflict',
        'files changed in the workspace while the restore was being planned or approved; nothing was restored',
        {
          hint: `The current state is saved as checkpoint ${safety.short}. Run the restore again to see the new plan.`,
        },
      );
    }
    const all = [...detail.removals, ...detail.writes];
    const blobs = await readBlobs(
      this.store.git,
      all.flatMap((p) => [p.raw.oldBlob, p.raw.newBlob]),
    );
    const previous = await readRestoreJournal(this.stateDir);
    const removes = detail.removals.map((r) => r.raw.path);
    const journal: RestoreJournal = {
      schema: 'aide.restore-journal/1',
      target: ref(plan.target),
      safety: ref(safety),
      undo: pending !== null && pending.target.id === plan.target.id ? pending.undo : ref(safety),
      pid: process.pid,
      startedAt: new Date().toISOString(),
      writes: detail.writes.map((w) => w.raw.path),
      // An earlier interrupted run's removals too: the folders they emptied are pruned below.
      removes: [...new Set([...removes, ...(previous?.removes ?? [])])],
    };
    await writeJournal(this.stateDir, journal);
    const foldersRemoved = await this.writeFiles(detail, blobs, journal, previous);
    await removeJournal(this.stateDir);
    return { written: detail.writes.length, removed: removes.length, foldersRemoved };
  }

  /**
   * Removals and the writes they do not block in one atomic commit; then the folders emptied;
   * then the writes that needed a file or folder out of their way. Returns the folders removed.
   */
  private async writeFiles(
    detail: PlanDetail,
    blobs: ReadonlyMap<string, Buffer>,
    journal: RestoreJournal,
    previous: RestoreJournal | null,
  ): Promise<string[]> {
    const first = [...detail.removals, ...detail.writes.filter((w) => !w.afterRemovals)].map((p) =>
      toFileWrite(this.root, p, blobs),
    );
    const second = detail.writes.filter((w) => w.afterRemovals).map((p) => toFileWrite(this.root, p, blobs));
    try {
      await this.fs.commit(first);
    } catch (error) {
      // Rolled back: the workspace is as it was, so is the journal (an earlier run's, or none).
      if (previous === null) await removeJournal(this.stateDir);
      else await writeJournal(this.stateDir, previous);
      throw new AideError(
        'restore_failed',
        `restoring ${journal.target.short} failed, and every file was put back as it was: ${(error as Error).message}`,
        {
          hint: 'Fix the cause (permissions, disk space) and run the restore again.',
          cause: error,
        },
      );
    }
    const foldersRemoved = await pruneEmptiedFolders(this.root, journal.removes);
    try {
      await this.fs.commit(second);
    } catch (error) {
      throw new AideError(
        'restore_failed',
        `restoring ${journal.target.short} stopped half way: ${(error as Error).message}`,
        {
          hint: `Fix the cause and run \`aide restore ${journal.target.short}\` again to finish, or \`aide restore ${journal.undo.short}\` to go back.`,
          cause: error,
        },
      );
    }
    return foldersRemoved;
  }

  async finishPending(pending: PendingRestore): Promise<RestoreOutcome> {
    const journal = await readRestoreJournal(this.stateDir);
    if (journal === null || journal.safety.id !== pending.safety.id)
      return { written: 0, removed: 0, foldersRemoved: [] };
    const foldersRemoved = await pruneEmptiedFolders(this.root, journal.removes);
    await removeJournal(this.stateDir);
    return { written: 0, removed: 0, foldersRemoved };
  }
}
