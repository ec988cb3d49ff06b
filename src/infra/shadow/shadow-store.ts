/**
 * The shadow repository of one workspace, opened under the workspace lock: snapshots,
 * checkpoints, and the queries the CLI needs. Implements the core's Checkpointer port.
 */
import { randomBytes } from '../node/lazy-builtins.js';
import { existsSync } from 'node:fs';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  CheckpointRequest,
  CheckpointResult,
  Checkpointer,
  FileChangeSummary,
  PruneResult,
  ShadowStats,
} from '../../core/ports/checkpoints.js';
import {
  BRANCH_PREFIX,
  listSessions,
  newSessionId,
  type Checkpoint,
  type CheckpointMeta,
} from './checkpoints.js';
import { createCheckpoint, type CheckpointTools } from './checkpoint-commit.js';
import type { RepoLayout } from '../git/user-repo.js';
import { missingObject, type ShadowGit } from './git.js';
import { borrowedStores, forgetSettledDirs, ownBorrowedObjects } from './own-objects.js';
import { ObjectReader } from './scratch/object-reader.js';
import { RefUpdater } from './ref-updater.js';
import { acquireLock, type WorkspaceLock } from './lock.js';
import {
  describeWorkspace,
  ensureStateDir,
  openShadow,
  userExcludesFile,
  type Env,
  type ExcludesFile,
  type Workspace,
} from './shadow-repo.js';
import { EMPTY_TREE, snapshot, snapshotPaths, type Snapshot } from './snapshot.js';
import { ShadowScratches, type ScratchOptions } from './scratch/worktree-scratch.js';
import { refTree, stagedTree, withStagedIndex } from './verify-source.js';
import { watchPaths } from './watched-paths.js';
import { folderBytes, ShadowReader } from './shadow-reader.js';

export { EMPTY_TREE, ShadowReader };
export type { FileChangeSummary, PruneResult, ShadowStats };

export interface ShadowOptions {
  /**
   * Files over this size are left out of snapshots. A store opened without it takes none (aide
   * review's: it reads the change before the configuration that holds the limit is parsed).
   */
  maxFileBytes?: number;
  /** The command taking the lock, for the message another aide process would see. */
  command: string;
  /** The user's repository as the caller found it just now (locateWorkspace; null: none); else git is asked. */
  layout?: RepoLayout | null;
  /**
   * userExcludesFile(root) started early by the caller, so its git process ran beside other
   * work; or `keep` (aide review: shadow-repo.ts, ExcludesFile). Else git is asked here.
   */
  excludesFile?: ExcludesFile;
}

/**
 * Collects what no kept checkpoint references, keeping every object they do reference in the
 * shadow's own store. Not `git gc`: its repack passes --local, which drops an object from the
 * shadow's packs whenever the user's store has it too, and the checkpoint would depend on the
 * user's next gc again. Packs still shared with the user (the same file, linked) are kept as
 * they are (they cost no disk); what is needed from packs the user has since deleted, and
 * from loose objects, is repacked into the shadow's own pack; the rest is deleted. Returns why
 * it could not be done (a checkpoint names a missing object), or null.
 */
async function compactObjects(git: ShadowGit): Promise<string | null> {
  await ownBorrowedObjects(git);
  const packDir = join(git.location.gitDir, 'objects', 'pack');
  const shared = new Set<string>();
  for (const store of await borrowedStores(join(git.location.gitDir, 'objects'))) {
    for (const name of await readdir(join(store, 'pack')).catch(() => [] as string[]))
      if (name.endsWith('.pack')) shared.add(name);
  }
  const keeps = [...shared]
    .filter((name) => existsSync(join(packDir, name)))
    .map((name) => join(packDir, `${name.slice(0, -'.pack'.length)}.keep`));
  try {
    for (const keep of keeps) await writeFile(keep, 'aide: shared with the user repository\n');
    await git.run(['repack', '-a', '-d', '-q']);
    await git.run(['prune', '--expire=now']);
    return null;
  } catch (error) {
    const missing = missingObject(error);
    if (missing === null) throw error;
    return `object ${missing.slice(0, 10)} is missing: the checkpoint that names it cannot be restored; removing its session lets prune collect the rest`;
  } finally {
    // Loose objects linked from the user's store may be gone from the shadow now.
    await forgetSettledDirs(git.location.gitDir);
    for (const keep of keeps) await rm(keep, { force: true });
  }
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

export class ShadowStore extends ShadowReader implements Checkpointer {
  /**
   * One `cat-file --batch` for the known-paths saves and a session's write-backs, started by the
   * first that needs it and ended by close().
   */
  private objects: ObjectReader | undefined;
  /** The branch updates of its checkpoints, started by the first (checkpointTools) and ended by close(). */
  private refs: RefUpdater | undefined;
  /** Told the tree of the next checkpoint's snapshot (nextSnapshotTree). */
  private snapshotted: ((tree: string) => void) | undefined;
  /**
   * The head this store last recorded on each session's branch: the next checkpoint's parent,
   * taken without a lookup (update-ref refuses it if the branch has moved since).
   */
  private readonly heads = new Map<string, { id: string; tree: string; filesChanged: number }>();

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
    // A git process of its own, read-only: it runs while the workspace is described and locked.
    const excludesFile = options.excludesFile ?? userExcludesFile(root, env);
    const workspace = await describeWorkspace(root, env, options.layout);
    ensureStateDir(workspace);
    const lock = await acquireLock(workspace.stateDir, options.command);
    try {
      if (lock.tookOver !== null) await removeStaleGitLocks(join(workspace.stateDir, 'shadow.git'));
      const git = await openShadow(workspace, env, excludesFile);
      return new ShadowStore(workspace, git, lock, options, env);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /**
   * The store's object reader (started on first use, ended by close()): a write-back per step of
   * an act session reads its blobs through it instead of starting a `cat-file --batch` of its own.
   */
  objectReader(): ObjectReader {
    this.objects ??= new ObjectReader(this.git);
    return this.objects;
  }

  /** What this store's checkpoints use: its object reader and one `update-ref --stdin` (ref-updater.ts). */
  checkpointTools(): CheckpointTools {
    this.refs ??= new RefUpdater(this.git);
    return { objects: this.objectReader(), refs: this.refs };
  }

  async close(): Promise<void> {
    this.objects?.close();
    this.objects = undefined;
    this.refs?.close();
    this.refs = undefined;
    await this.lock.release();
  }

  /** The parent hint for a checkpoint on `session`, and a way to remember the checkpoint it made. */
  private headOf(session: string | undefined): CheckpointMeta['parentHint'] {
    return session === undefined ? undefined : this.heads.get(session);
  }

  private remember(checkpoint: Checkpoint): void {
    this.heads.set(checkpoint.session, {
      id: checkpoint.id,
      tree: checkpoint.tree,
      filesChanged: checkpoint.filesChanged,
    });
  }

  snapshot(): Promise<Snapshot> {
    return snapshot(this.git, this.workspace, { maxFileBytes: this.snapshotLimit(), env: this.env });
  }

  private snapshotLimit(): number {
    const limit = this.options.maxFileBytes;
    if (limit === undefined)
      throw new Error(`a shadow store opened for ${this.options.command} takes no snapshot`);
    return limit;
  }

  /** The staged content (the index git would commit) as a tree; the working tree is not read. */
  stagedTree(): Promise<string> {
    return stagedTree(this.git, this.workspace, this.env);
  }

  /**
   * `use` run on a copy of the staged index (null: nothing was ever staged), removed after:
   * `aide review` reads the staged change from it while its tree is written.
   */
  withStagedIndex<T>(use: (indexFile: string | null) => Promise<T>): Promise<T> {
    return withStagedIndex(this.git, this.workspace, this.env, use);
  }

  /** A commit of the user's repository and its tree. */
  refTree(rev: string): Promise<{ commit: string; tree: string }> {
    return refTree(this.git, this.workspace, this.env, rev);
  }

  /**
   * The tree of the next checkpoint's snapshot, told as soon as it is written, before its commit
   * is: act moves its kept scratch there meanwhile (ShadowScratches.prepareKept). It may never
   * come (a resumed session takes no checkpoint first).
   */
  nextSnapshotTree(): Promise<string> {
    return new Promise((resolve) => {
      this.snapshotted = (tree) => {
        this.snapshotted = undefined;
        resolve(tree);
      };
    });
  }

  /** Scratch checkouts of this workspace's snapshots and checkpoints. */
  scratches(options: ScratchOptions): ShadowScratches {
    return new ShadowScratches(this.git, this.workspace, options);
  }

  /**
   * Snapshots the workspace and records it. The request's paths (about to be written) are
   * watched first, so this snapshot and every later one holds them, ignored or not.
   */
  async checkpoint(request: CheckpointRequest): Promise<CheckpointResult> {
    const { paths = [], ...meta } = request;
    const ignored = [...(await watchPaths(this.git, this.workspace.root, paths))].sort();
    const snap = await this.snapshot();
    this.snapshotted?.(snap.tree);
    const { checkpoint, created } = await this.record(snap, meta);
    return { checkpoint, created, skipped: snap.skipped, ...(ignored.length === 0 ? {} : { ignored }) };
  }

  /**
   * A snapshot recorded as a checkpoint: on the request's session (a new one when it names none),
   * with the store's tools (an act session's first snapshot starts the ref updater its steps use).
   */
  private async record(snap: Snapshot, meta: Omit<CheckpointRequest, 'paths'>) {
    const session = meta.session ?? newSessionId(meta.reason, new Date(), randomBytes(2).toString('hex'));
    const hint = this.headOf(meta.session);
    const made = await createCheckpoint(
      this.git,
      snap.tree,
      {
        ...meta,
        session,
        skipped: snap.skipped,
        filesChanged: snap.changed,
        newSession: meta.session === undefined || meta.newSession === true,
        ...(hint === undefined ? {} : { parentHint: hint }),
      },
      this.checkpointTools(),
    );
    this.remember(made.checkpoint);
    return made;
  }

  /** Removes the workspace's kept scratch (kept-scratch.ts), unless a live process uses it. */
  removeKeptScratch(tempRoot: string): Promise<boolean> {
    return this.scratches({ tempRoot, links: [] }).removeKept();
  }

  /**
   * A checkpoint right after aide itself wrote `paths` (taken by a full checkpoint just before):
   * only those paths are read again (snapshot.ts, snapshotPaths), so it costs the same at any
   * repository size. An edit of the user's elsewhere since that checkpoint goes into the next
   * full one.
   */
  async checkpointWritten(
    paths: readonly string[],
    request: Omit<CheckpointRequest, 'paths'>,
  ): Promise<CheckpointResult> {
    const snap = await snapshotPaths(
      this.git,
      this.workspace,
      paths,
      { maxFileBytes: this.snapshotLimit(), env: this.env },
      this.objectReader(),
    );
    const { checkpoint, created } = await this.record(snap, request);
    return { checkpoint, created, skipped: snap.skipped };
  }

  /**
   * Removes whole sessions: those beyond the newest `keep`, and those whose last checkpoint is
   * older than `olderThanDays`; the newest session always stays. Then expires their reflogs
   * and lets git collect what nothing references any more.
   */
  async prune(options: {
    keep?: number;
    olderThanDays?: number;
    dryRun: boolean;
    now: Date;
  }): Promise<PruneResult> {
    const sessions = await listSessions(this.git);
    const cutoff =
      options.olderThanDays === undefined
        ? undefined
        : options.now.getTime() - options.olderThanDays * 86_400_000;
    const doomed = sessions.filter(
      (s, i) =>
        i > 0 &&
        ((options.keep !== undefined && i >= options.keep) ||
          (cutoff !== undefined && Date.parse(s.time) < cutoff)),
    );
    const bytesBefore = await folderBytes(this.git.location.gitDir);
    let notCompacted: string | null = null;
    if (!options.dryRun && doomed.length > 0) {
      this.heads.clear();
      for (const s of doomed)
        await this.git.run(['update-ref', '-d', `${BRANCH_PREFIX}${s.session}`, s.head]);
      await this.git.run(['reflog', 'expire', '--expire=now', '--expire-unreachable=now', '--all']);
      notCompacted = await compactObjects(this.git);
    }
    const bytesAfter = options.dryRun ? bytesBefore : await folderBytes(this.git.location.gitDir);
    return {
      removed: doomed.map((s) => ({ session: s.session, time: s.time })),
      kept: sessions.length - doomed.length,
      bytesBefore,
      bytesAfter,
      ...(notCompacted === null ? {} : { notCompacted }),
    };
  }
}
