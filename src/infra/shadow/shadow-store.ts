/**
 * The shadow repository of one workspace, opened under the workspace lock: snapshots,
 * checkpoints, and the queries the CLI needs. Implements the core's Checkpointer port.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Checkpointer, CheckpointRequest, CheckpointResult } from '../../core/ports.js';
import {
  BRANCH_PREFIX,
  createCheckpoint,
  listCheckpoints,
  listSessions,
  newSessionId,
  resolveCheckpoint,
  showCheckpoint,
  type Checkpoint,
} from './checkpoints.js';
import { ShadowGit } from './git.js';
import { objectsOnly } from './scratch/object-reader.js';
import { acquireLock, type WorkspaceLock } from './lock.js';
import { describeWorkspace, ensureStateDir, openShadow, type Env, type Workspace } from './shadow-repo.js';
import { EMPTY_TREE, snapshot, type Snapshot } from './snapshot.js';
import { ShadowScratches, type ScratchOptions } from './scratch/worktree-scratch.js';
import { refTree, stagedTree } from './verify-source.js';

export { EMPTY_TREE };

export interface ShadowOptions {
  /** Files over this size are left out of snapshots. */
  maxFileBytes: number;
  /** The command taking the lock, for the message another aide process would see. */
  command: string;
}

export interface FileChangeSummary {
  path: string;
  /** git's status letter: A added, D deleted, M modified, T type changed. */
  status: string;
  added: number | null;
  removed: number | null;
}

export interface PruneResult {
  removed: Array<{ session: string; time: string }>;
  kept: number;
  bytesBefore: number;
  bytesAfter: number;
}

export interface ShadowStats {
  path: string;
  bytes: number;
  sessions: number;
  checkpoints: number;
  objects: number;
  /** Whether the shadow borrows the user's objects (alternates). */
  borrowsObjects: boolean;
}

async function folderBytes(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true }).catch(() => [])) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else if (entry.isFile()) total += (await stat(full).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/**
 * After taking over the lock of an aide that was killed, git's own lock files it left in the
 * shadow (a killed `git add` leaves index.lock) would make every later call fail. With the
 * workspace lock held no other aide can be using them.
 */
async function removeStaleGitLocks(gitDir: string): Promise<void> {
  const folders = [gitDir, join(gitDir, 'aide-nested'), join(gitDir, 'refs', 'heads', 'aide')];
  for (const folder of folders) {
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      if (name.endsWith('.lock')) await removeWhenIdle(join(folder, name));
    }
  }
}

/**
 * A git process of the killed aide survives it and may still be finishing (its lock file is
 * fresh): give it a few seconds to release the lock by itself before removing it.
 */
async function removeWhenIdle(lockFile: string): Promise<void> {
  const deadline = Date.now() + STALE_GIT_GRACE_MS;
  for (;;) {
    const info = await stat(lockFile).catch(() => null);
    if (info === null) return;
    if (Date.now() - info.mtimeMs > STALE_GIT_GRACE_MS || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await rm(lockFile, { force: true });
}

const STALE_GIT_GRACE_MS = 5000;

/** Read-only access to a workspace's checkpoints: no lock, nothing created. */
export class ShadowReader {
  constructor(
    readonly workspace: Workspace,
    readonly git: ShadowGit,
  ) {}

  /** The reader, or null when the workspace has no shadow repository yet. */
  static async openExisting(root: string, env: Env): Promise<ShadowReader | null> {
    const workspace = await describeWorkspace(root, env);
    const gitDir = join(workspace.stateDir, 'shadow.git');
    if (!existsSync(join(gitDir, 'HEAD'))) return null;
    return new ShadowReader(workspace, new ShadowGit({ gitDir, workTree: root, indexFile: join(gitDir, 'index') }, env));
  }

  list(options: { session?: string; limit?: number } = {}): Promise<Checkpoint[]> {
    return listCheckpoints(this.git, options);
  }

  show(ref: string): Promise<Checkpoint> {
    return showCheckpoint(this.git, ref);
  }

  /** Files that differ between two trees or commits, with line counts (null for binary files). */
  async changes(from: string, to: string): Promise<FileChangeSummary[]> {
    const status = await this.git.fields(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to], objectsOnly(this.git));
    const counts = await this.git.fields(['diff-tree', '-r', '-z', '--no-renames', '--numstat', from, to], objectsOnly(this.git));
    const lines = new Map<string, [number | null, number | null]>();
    for (const field of counts) {
      const [added = '-', removed = '-', path = ''] = field.split('\t');
      lines.set(path, [added === '-' ? null : Number(added), removed === '-' ? null : Number(removed)]);
    }
    const result: FileChangeSummary[] = [];
    for (let i = 0; i + 1 < status.length; i += 2) {
      const path = status[i + 1] ?? '';
      const [added, removed] = lines.get(path) ?? [null, null];
      result.push({ path, status: status[i] ?? '?', added, removed });
    }
    return result;
  }

  /** A unified diff between two trees or commits. */
  async diff(from: string, to: string): Promise<string> {
    return (await this.git.run(['diff', '--no-color', '--no-ext-diff', '--no-renames', from, to])).stdout.toString('utf8');
  }

  /** What a checkpoint changed: against its parent, or for a session's first, the checkpoint before it. */
  async changesOf(checkpoint: Checkpoint): Promise<FileChangeSummary[]> {
    if (checkpoint.parent !== null) return this.changes(checkpoint.parent, checkpoint.id);
    const all = await this.list({ limit: 1000 });
    const previous = all[all.findIndex((c) => c.id === checkpoint.id) + 1];
    return this.changes(previous?.tree ?? EMPTY_TREE, checkpoint.id);
  }

  resolve(ref: string): Promise<string> {
    return resolveCheckpoint(this.git, ref);
  }

  async stats(): Promise<ShadowStats> {
    const objects = await this.git.text(['count-objects', '-v']);
    const value = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(objects)?.[1] ?? 0);
    const sessions = await listSessions(this.git);
    const checkpoints = sessions.length === 0 ? 0 : Number(await this.git.text(['rev-list', '--count', `--glob=${BRANCH_PREFIX}*`]));
    return {
      path: this.git.location.gitDir,
      bytes: await folderBytes(this.git.location.gitDir),
      sessions: sessions.length,
      checkpoints,
      objects: value('count') + value('in-pack'),
      borrowsObjects: /^alternate: /m.test(objects),
    };
  }
}

export class ShadowStore extends ShadowReader implements Checkpointer {
  private constructor(
    workspace: Workspace,
    git: ShadowGit,
    private readonly lock: WorkspaceLock,
    private readonly options: ShadowOptions,
    private readonly env: Env,
  ) {
    super(workspace, git);
  }

  /** Opens (creating if needed) the workspace's shadow repository and takes the workspace lock. */
  static async open(root: string, env: Env, options: ShadowOptions): Promise<ShadowStore> {
    const workspace = await describeWorkspace(root, env);
    await ensureStateDir(workspace);
    const lock = await acquireLock(workspace.stateDir, options.command);
    try {
      if (lock.tookOver !== null) await removeStaleGitLocks(join(workspace.stateDir, 'shadow.git'));
      const git = await openShadow(workspace, env);
      return new ShadowStore(workspace, git, lock, options, env);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.lock.release();
  }

  snapshot(): Promise<Snapshot> {
    return snapshot(this.git, this.workspace, { maxFileBytes: this.options.maxFileBytes });
  }

  /** The staged content (the index git would commit) as a tree; the working tree is not read. */
  stagedTree(): Promise<string> {
    return stagedTree(this.git, this.workspace, this.env);
  }

  /** A commit of the user's repository and its tree. */
  refTree(rev: string): Promise<{ commit: string; tree: string }> {
    return refTree(this.git, this.workspace, this.env, rev);
  }

  /** Scratch checkouts of this workspace's snapshots and checkpoints. */
  scratches(options: ScratchOptions): ShadowScratches {
    return new ShadowScratches(this.git, this.workspace, options);
  }

  async checkpoint(request: CheckpointRequest): Promise<CheckpointResult> {
    const snap = await this.snapshot();
    const session = request.session ?? newSessionId(request.reason, new Date(), randomBytes(2).toString('hex'));
    const { checkpoint, created } = await createCheckpoint(this.git, snap.tree, {
      ...request,
      session,
      skipped: snap.skipped,
      filesChanged: snap.changed,
      newSession: request.session === undefined,
    });
    return { checkpoint, created, skipped: snap.skipped };
  }

  /**
   * Removes whole sessions: those beyond the newest `keep`, and those whose last checkpoint is
   * older than `olderThanDays`; the newest session always stays. Then expires their reflogs
   * and lets git collect what nothing references any more.
   */
  async prune(options: { keep?: number; olderThanDays?: number; dryRun: boolean; now: Date }): Promise<PruneResult> {
    const sessions = await listSessions(this.git);
    const cutoff = options.olderThanDays === undefined ? undefined : options.now.getTime() - options.olderThanDays * 86_400_000;
    const doomed = sessions.filter((s, i) => i > 0 && ((options.keep !== undefined && i >= options.keep) || (cutoff !== undefined && Date.parse(s.time) < cutoff)));
    const bytesBefore = await folderBytes(this.git.location.gitDir);
    if (!options.dryRun && doomed.length > 0) {
      for (const s of doomed) await this.git.run(['update-ref', '-d', `${BRANCH_PREFIX}${s.session}`, s.head]);
      await this.git.run(['reflog', 'expire', '--expire=now', '--expire-unreachable=now', '--all']);
      // gc repacks with --local: only the shadow's own objects, never copies of borrowed ones.
      await this.git.run(['gc', '--prune=now', '--quiet']);
    }
    const bytesAfter = options.dryRun ? bytesBefore : await folderBytes(this.git.location.gitDir);
    return { removed: doomed.map((s) => ({ session: s.session, time: s.time })), kept: sessions.length - doomed.length, bytesBefore, bytesAfter };
  }
}
