/**
 * The restore flow: put the workspace's files back as a checkpoint had them. Plan (what
 * differs), ask, take a safety checkpoint of the current state so the restore itself can be
 * undone, then write. A restore that a crash interrupted is reported first, and running the
 * same restore again finishes it. Dry runs stop after the plan.
 */
import type { AideEvent, RestoreResult } from '../events.js';
import type { Approver } from '../ports/approval.js';
import type {
  CheckpointRecord,
  CheckpointRef,
  Checkpointer,
  PendingRestore,
  RestoreChange,
  RestoreOutcome,
  RestoreSkip,
  Restorer,
} from '../ports/checkpoints.js';

export interface RestoreRequest {
  /** The checkpoint to restore: its id, full or abbreviated. */
  target: string;
  /** Plan and report, but write nothing (and take no checkpoint). */
  dryRun: boolean;
}

export interface RestoreDeps {
  restorer: Restorer;
  checkpointer: Checkpointer;
  approver: Approver;
}

export interface RestoreReport {
  result: RestoreResult;
  dryRun: boolean;
  target: CheckpointRecord;
  /** What the restore changes (or would, in a dry run or when declined). */
  changes: RestoreChange[];
  leftAlone: RestoreSkip[];
  /** An interrupted restore found at the start. */
  pending: PendingRestore | null;
  /** The checkpoint of the workspace taken just before writing. */
  safety: CheckpointRecord | null;
  /** Restoring this undoes the restore (for a finished interrupted one: the state before it began). */
  undo: CheckpointRef | null;
  written: number;
  removed: number;
  foldersRemoved: string[];
}

const NOTHING_DONE: RestoreOutcome = { written: 0, removed: 0, foldersRemoved: [] };

function ref(checkpoint: { id: string; short: string }): CheckpointRef {
  return { id: checkpoint.id, short: checkpoint.short };
}

export async function* restoreFlow(
  request: RestoreRequest,
  deps: RestoreDeps,
): AsyncGenerator<AideEvent, RestoreReport> {
  const { restorer } = deps;
  const pending = await restorer.pendingRestore();
  if (pending !== null) {
    // A killed run's temp files would otherwise be captured by the snapshot below.
    const tempFilesRemoved = request.dryRun ? 0 : await restorer.recover(pending);
    yield { type: 'restore_pending', pending, tempFilesRemoved };
  }
  const plan = await restorer.planRestore(request.target);
  yield { type: 'restore_planned', plan, dryRun: request.dryRun };
  const report = (
    result: RestoreResult,
    outcome: RestoreOutcome,
    safety: CheckpointRecord | null,
    undo: CheckpointRef | null,
  ): RestoreReport => ({
    result,
    dryRun: request.dryRun,
    target: plan.target,
    changes: plan.changes,
    leftAlone: plan.leftAlone,
    pending,
    safety,
    undo,
    ...outcome,
  });

  if (plan.changes.length === 0) {
    if (pending === null || request.dryRun) {
      yield { type: 'restore_finished', outcome: 'already-there' };
      return report('already-there', NOTHING_DONE, null, null);
    }
    // Every file was written before the crash; what is left is the journal and empty folders.
    const outcome = await restorer.finishPending(pending);
    yield { type: 'files_restored', ...outcome };
    yield { type: 'restore_finished', outcome: 'restored' };
    return report('restored', outcome, null, pending.target.id === plan.target.id ? pending.undo : null);
  }
  if (request.dryRun) {
    yield { type: 'restore_finished', outcome: 'dry-run' };
    return report('dry-run', NOTHING_DONE, null, null);
  }

  const subject = { kind: 'restore', plan } as const;
  yield { type: 'approval_requested', subject };
  const approved = (await deps.approver.confirm(subject)) === 'yes';
  yield { type: 'approval_decided', approved };
  if (!approved) {
    yield { type: 'restore_finished', outcome: 'declined' };
    return report('declined', NOTHING_DONE, null, null);
  }

  // The paths the restore writes or removes: the safety checkpoint (and every later one) holds
  // them even when ignored, so restoring it undoes this restore exactly.
  const paths = plan.changes.map((c) => c.path);
  const safety = await deps.checkpointer.checkpoint({
    reason: 'restore-safety',
    message: `before aide restore ${plan.target.short}`,
    paths,
  });
  yield { type: 'checkpoint_created', result: safety };
  const outcome = await restorer.applyRestore(plan, safety.checkpoint, pending);
  yield { type: 'files_restored', ...outcome };
  yield { type: 'restore_finished', outcome: 'restored' };
  const undo =
    pending !== null && pending.target.id === plan.target.id ? pending.undo : ref(safety.checkpoint);
  return report('restored', outcome, safety.checkpoint, undo);
}
