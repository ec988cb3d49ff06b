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
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  CheckpointRecord,
  CheckpointRef,
  CheckpointRequest,
  CheckpointResult,
  Checkpointer,
  PendingRestore,
  RestoreChange,
  RestoreOutcome,
  RestorePlan,
  RestoreSkip,
  Restorer,
} from '../../core/ports/checkpoints.js';
import type { FileSystem, FileWrite } from '../../core/ports/files.js';
import { AideError } from '../../shared/errors.js';
import { sweepTempFiles } from '../fs/node-file-system.js';
import { damagedCheckpoint, firstMissing } from './checkpoints.js';
import { missingObject, type ShadowGit } from './git.js';
import { diffTrees, readBlobs, type RawChange } from './raw-objects.js';
import {
  readPendingRestore,
  readRestoreJournal,
  removeJournal,
  writeJournal,
  type RestoreJournal,
} from './restore-journal.js';
import type { ShadowStore } from './shadow-store.js';
import { ignoredNow, readWatched, type WatchedPaths } from './watched-paths.js';

const BLOB_MODES: Record<string, RestoreChange['kind']> = {
  '100644': 'file',
  '100755': 'executable',
  '120000': 'symlink',
};

function isGitInternal(path: string): boolean {
  return path.split('/').some((part) => part.toLowerCase() === '.git');
}

/** Parent folders of a relative path, shallowest first: a/b/c → a, a/b. */
function parentsOf(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** A change of the plan, with the diff line it comes from. */
interface Planned {
  change: RestoreChange;
  raw: RawChange;
  /** A write that waits for the plan's removals: a file or symlink is where its folder goes, or a folder where it goes. */
  afterRemovals: boolean;
}

interface PlanDetail {
  /** The tree the plan was computed from; the safety checkpoint must have the same. */
  base: string;
  removals: Planned[];
  writes: Planned[];
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Decides, with lstat, whether a write can go ahead now, after the removals, or not at all. */
async function placeWrite(
  write: RawChange,
  root: string,
  fs: FileSystem,
  removals: ReadonlySet<string>,
  kinds: Map<string, string>,
): Promise<'now' | 'after-removals' | 'not-captured'> {
  const kindOf = async (path: string) => {
    let kind = kinds.get(path);
    if (kind === undefined) {
      kind = (await fs.lstat(join(root, path)))?.kind ?? 'missing';
      kinds.set(path, kind);
    }
    return kind;
  };
  let after = false;
  for (const parent of parentsOf(write.path)) {
    const kind = await kindOf(parent);
    if (kind === 'missing') break;
    if (kind === 'directory') continue;
    // A file or symlink where a folder must go: only one the plan removes may be replaced.
    if (!removals.has(parent)) return 'not-captured';
    after = true;
    break;
  }
  if (write.oldMode === null) {
    const kind = await kindOf(write.path);
    if (kind === 'directory') {
      // A folder where the file goes: fine once the plan's removals have emptied it.
      const prefix = `${write.path}/`;
      if (![...removals].some((r) => r.startsWith(prefix))) return 'not-captured';
      after = true;
    } else if (kind !== 'missing' && !after) {
      // On disk but not in the current snapshot: ignored or never seen, so in no checkpoint.
      return 'not-captured';
    }
  }
  return after ? 'after-removals' : 'now';
}

/** Why a path that differs must be left alone, or null when it may be restored. */
function skipFor(
  raw: RawChange,
  skippedNow: ReadonlySet<string>,
  skippedThen: ReadonlySet<string>,
): RestoreSkip['reason'] | null {
  if (raw.undecodable) return 'name-not-utf8';
  if (isGitInternal(raw.path)) return 'git-internal';
  if (skippedNow.has(raw.path)) return 'too-large-now';
  if (skippedThen.has(raw.path)) return 'too-large-then';
  if (raw.oldMode === '160000' || raw.newMode === '160000') return 'nested-link';
  return null;
}

/**
 * Removals the target cannot vouch for: a watched path (one aide wrote, captured even when
 * ignored) that was not yet watched when the target was taken and that git ignores now. Its
 * absence from the target says only that the target left it out, not that it was not there.
 */
async function unvouchedRemovals(
  git: ShadowGit,
  removals: readonly Planned[],
  watched: WatchedPaths,
  targetWatched: number,
): Promise<Set<string>> {
  const later = removals
    .map((r) => r.change.path)
    .filter((path) => (watched.index.get(path) ?? -1) >= targetWatched);
  return ignoredNow(git, later);
}

/** Computes what a restore from `base` (the current snapshot) to `target` changes. */
export async function planFromTrees(
  git: ShadowGit,
  fs: FileSystem,
  input: {
    root: string;
    base: string;
    target: CheckpointRecord & { tree: string; watched?: number };
    skippedNow: readonly string[];
    watched?: WatchedPaths;
  },
): Promise<{ plan: RestorePlan; detail: PlanDetail }> {
  const raw = await diffTrees(git, input.base, input.target.tree);
  const skippedNow = new Set(input.skippedNow);
  const skippedThen = new Set(input.target.skipped);
  const leftAlone = new Map<string, RestoreSkip['reason']>();
  for (const path of skippedNow) leftAlone.set(path, 'too-large-now');
  for (const path of skippedThen) if (!leftAlone.has(path)) leftAlone.set(path, 'too-large-then');
  const removals: Planned[] = [];
  const candidates: RawChange[] = [];
  for (const change of raw) {
    const reason = skipFor(change, skippedNow, skippedThen);
    if (reason !== null) leftAlone.set(change.path, reason);
    else if (change.newMode === null)
      removals.push({
        change: { path: change.path, action: 'deleted', kind: null },
        raw: change,
        afterRemovals: false,
      });
    else if (BLOB_MODES[change.newMode] === undefined) leftAlone.set(change.path, 'nested-link');
    else candidates.push(change);
  }
  if (input.watched !== undefined) {
    const unvouched = await unvouchedRemovals(git, removals, input.watched, input.target.watched ?? 0);
    for (const path of unvouched) leftAlone.set(path, 'not-captured');
    removals.splice(0, removals.length, ...removals.filter((r) => !unvouched.has(r.change.path)));
  }
  const removed = new Set(removals.map((r) => r.change.path));
  const kinds = new Map<string, string>();
  const writes: Planned[] = [];
  for (const change of candidates) {
    const place = await placeWrite(change, input.root, fs, removed, kinds);
    if (place === 'not-captured') {
      leftAlone.set(change.path, 'not-captured');
      continue;
    }
    writes.push({
      change: { path: change.path, action: change.action, kind: BLOB_MODES[change.newMode ?? ''] ?? 'file' },
      raw: change,
      afterRemovals: place === 'after-removals',
    });
  }
  removals.sort((a, b) => byPath(a.change, b.change));
  writes.sort((a, b) => byPath(a.change, b.change));
  const plan: RestorePlan = {
    target: input.target,
    changes: [...removals, ...writes].map((p) => p.change),
    leftAlone: [...leftAlone].map(([path, reason]) => ({ path, reason })).sort(byPath),
  };
  return { plan, detail: { base: input.base, removals, writes } };
}

function previousOf(
  raw: RawChange,
  blobs: ReadonlyMap<string, Buffer>,
): Uint8Array | { symlink: string } | null {
  if (raw.oldMode === null || raw.oldBlob === null) return null;
  const bytes = blobs.get(raw.oldBlob) ?? Buffer.alloc(0);
  return raw.oldMode === '120000' ? { symlink: bytes.toString('utf8') } : bytes;
}

function toFileWrite(root: string, planned: Planned, blobs: ReadonlyMap<string, Buffer>): FileWrite {
  const { raw } = planned;
  const path = join(root, raw.path);
  const previous = previousOf(raw, blobs);
  if (raw.newMode === null || raw.newBlob === null)
    return { kind: 'delete', path, previous: previous ?? new Uint8Array() };
  const content = blobs.get(raw.newBlob) ?? Buffer.alloc(0);
  if (raw.newMode === '120000') return { kind: 'symlink', path, target: content.toString('utf8'), previous };
  return { kind: 'write', path, content, previous, executable: raw.newMode === '100755' };
}

/**
 * Removes the folders that removing `paths` left empty, deepest first, never the root. A
 * folder that still holds anything (an ignored file, an empty folder of the user's) stays.
 */
export async function pruneEmptiedFolders(root: string, paths: readonly string[]): Promise<string[]> {
  const folders = new Set(paths.flatMap(parentsOf));
  const removed: string[] = [];
  for (const folder of [...folders].sort(
    (a, b) => b.split('/').length - a.split('/').length || byPath({ path: a }, { path: b }),
  )) {
    try {
      await rmdir(join(root, folder));
      removed.push(folder);
    } catch {
      // Not empty, not a folder, or gone: leave it.
    }
  }
  return removed.sort();
}

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
