/**
 * What `aide restore` runs on: the shadow store (its lock held), the restorer that writes the
 * workspace through the real file system, and the sessions' records (to tell a dry run's
 * checkpoint). Opening creates nothing when the workspace has no shadow yet.
 */
import { loadWorkspaceConfig } from '../../config/load-workspace.js';
import type { CheckpointRecord, Checkpointer, Restorer } from '../../core/ports/checkpoints.js';
import { NodeFileSystem } from '../../infra/fs/node-file-system.js';
import { findWorkspaceRoot } from '../../infra/git/workspace-root.js';
import { ShadowRestorer } from '../../infra/shadow/restore.js';
import { ShadowReader, ShadowStore } from '../../infra/shadow/shadow-store.js';
import type { CliIo } from '../io.js';

export interface RestoreWiring {
  restorer: Restorer & Checkpointer;
  /** The checkpoint an id (full or abbreviated) names; throws a usage error for an unknown one. */
  show(id: string): Promise<CheckpointRecord>;
  /** Whether `session` was a dry run (`aide act --dry-run`), as its state.json says. */
  isDryRun(session: string): Promise<boolean>;
  /** Releases the shadow's lock. */
  close(): Promise<void>;
}

/** The shadow opened for a restore; null when the workspace has no checkpoints yet. */
export async function openRestore(cwd: string, io: CliIo): Promise<RestoreWiring | null> {
  const root = await findWorkspaceRoot(cwd, io.env);
  const config = await loadWorkspaceConfig(root, io.env);
  if ((await ShadowReader.openExisting(root, io.env)) === null) return null;
  const store = await ShadowStore.open(root, io.env, {
    maxFileBytes: config.config.value.checkpoints.max_file_bytes,
    command: 'restore',
  });
  return {
    restorer: new ShadowRestorer(store, new NodeFileSystem({ afterChange: io.afterWorkspaceChange })),
    show: (id) => store.show(id),
    isDryRun: async (session) => {
      const { listSessionStates } = await import('../../infra/session/session-state.js');
      return (await listSessionStates(store.workspace.stateDir)).some(
        (s) => s.session === session && s.state?.dryRun === true,
      );
    },
    close: () => store.close(),
  };
}
