/**
 * The shadow repository of one workspace, opened under the workspace lock: snapshots,
 * checkpoints, and the queries the CLI needs. Implements the core's Checkpointer port.
 */
import type { Checkpointer, CheckpointRequest, CheckpointResult } from '../../core/ports.js';
import { createCheckpoint, listCheckpoints, showCheckpoint, type Checkpoint } from './checkpoints.js';
import type { ShadowGit } from './git.js';
import { acquireLock, type WorkspaceLock } from './lock.js';
import { describeWorkspace, ensureStateDir, openShadow, type Env, type Workspace } from './shadow-repo.js';
import { snapshot, type Snapshot } from './snapshot.js';

export interface ShadowOptions {
  /** Files over this size are left out of snapshots. */
  maxFileBytes: number;
  /** The command taking the lock, for the message another aide process would see. */
  command: string;
}

export class ShadowStore implements Checkpointer {
  private constructor(
    readonly workspace: Workspace,
    readonly git: ShadowGit,
    private readonly lock: WorkspaceLock,
    private readonly options: ShadowOptions,
  ) {}

  /** Opens (creating if needed) the workspace's shadow repository and takes the workspace lock. */
  static async open(root: string, env: Env, options: ShadowOptions): Promise<ShadowStore> {
    const workspace = await describeWorkspace(root, env);
    await ensureStateDir(workspace);
    const lock = await acquireLock(workspace.stateDir, options.command);
    try {
      const git = await openShadow(workspace, env);
      return new ShadowStore(workspace, git, lock, options);
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

  async checkpoint(request: CheckpointRequest): Promise<CheckpointResult> {
    const snap = await this.snapshot();
    const { checkpoint, created } = await createCheckpoint(this.git, snap.tree, { ...request, skipped: snap.skipped });
    return { checkpoint, created, skipped: snap.skipped };
  }

  list(options: { session?: string; limit?: number } = {}): Promise<Checkpoint[]> {
    return listCheckpoints(this.git, options);
  }

  show(ref: string): Promise<Checkpoint> {
    return showCheckpoint(this.git, ref);
  }
}
