/**
 * What `aide status` reads: the workspace's sessions (state.json), who holds the workspace
 * lock, and the shadow's checkpoints (to replay the restores). Read-only: no lock is taken and
 * nothing is created.
 */
import { join } from 'node:path';
import { STATE_DIR } from '../../config/files.js';
import type { CheckpointRecord } from '../../core/ports/checkpoints.js';
import { findWorkspaceRoot } from '../../infra/git/workspace-root.js';
import { listSessionStates } from '../../infra/session/session-state.js';
import { lockHolder } from '../../infra/shadow/lock.js';
import { ShadowReader } from '../../infra/shadow/shadow-store.js';
import type { ListedSession } from '../session-history.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface StatusRecords {
  /** The workspace's sessions, newest first. */
  sessions: ListedSession[];
  /** The command of the aide process holding the workspace lock; null when none holds it. */
  lockCommand(): Promise<string | null>;
  /** The newest `limit` checkpoints; none when the workspace has no shadow. */
  checkpoints(limit: number): Promise<CheckpointRecord[]>;
}

export async function readStatusRecords(cwd: string, env: Env): Promise<StatusRecords> {
  const root = await findWorkspaceRoot(cwd, env);
  const stateDir = join(root, STATE_DIR);
  return {
    sessions: await listSessionStates(stateDir),
    lockCommand: async () => (await lockHolder(stateDir))?.command ?? null,
    checkpoints: async (limit) => {
      const reader = await ShadowReader.openExisting(root, env);
      return reader === null ? [] : reader.list({ limit });
    },
  };
}
