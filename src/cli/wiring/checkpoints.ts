/**
 * What `aide checkpoints` runs on: a reader of the shadow (no lock, creates nothing), the store
 * opened for writing (lock held) when a subcommand takes, compares with the working tree or
 * prunes, and the sessions' and restores' records the listing is told with.
 */
import { loadWorkspaceConfig } from '../../config/load-workspace.js';
import type { PendingRestore } from '../../core/ports/checkpoints.js';
import { findWorkspaceRoot } from '../../infra/git/workspace-root.js';
import { EMPTY_TREE, ShadowReader, ShadowStore } from '../../infra/shadow/shadow-store.js';

type Env = Readonly<Record<string, string | undefined>>;

export type { Checkpoint } from '../../infra/shadow/checkpoints.js';
/** The shadow read only, as the subcommands use it: list, show, compare checkpoints. */
export type CheckpointReader = Pick<
  ShadowReader,
  'workspace' | 'list' | 'show' | 'resolve' | 'changes' | 'changesOf' | 'diff' | 'stats'
>;
/** The shadow opened for writing (its lock held): take a checkpoint, snapshot the working tree, prune. */
export type CheckpointStore = Pick<ShadowStore, 'checkpoint' | 'snapshot' | 'prune' | 'removeKeptScratch'>;
export { EMPTY_TREE };
export { tempRoot } from './temp-root.js';

/** The workspace's shadow to read; null when it has none yet. */
export async function openReader(cwd: string, env: Env): Promise<CheckpointReader | null> {
  return ShadowReader.openExisting(await findWorkspaceRoot(cwd, env), env);
}

/** Opens the shadow for writing (lock held) and always closes it. */
export async function withStore<T>(
  cwd: string,
  env: Env,
  command: string,
  use: (store: CheckpointStore) => Promise<T>,
): Promise<T> {
  const root = await findWorkspaceRoot(cwd, env);
  const maxFileBytes = (await loadWorkspaceConfig(root, env)).config.value.checkpoints.max_file_bytes;
  const store = await ShadowStore.open(root, env, { maxFileBytes, command });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/**
 * The sessions that were dry runs (`aide act --dry-run`): their checkpoints record what aide
 * verified in a scratch copy and never wrote, a state the files never had. Known from each
 * session's state.json, never from anything in the shadow a verify command could have written.
 */
export async function dryRunSessions(stateDir: string): Promise<ReadonlySet<string>> {
  const { listSessionStates } = await import('../../infra/session/session-state.js');
  const sessions = await listSessionStates(stateDir);
  return new Set(sessions.filter((s) => s.state?.dryRun === true).map((s) => s.session));
}

/** A restore killed half way, or null. */
export async function pendingRestore(stateDir: string): Promise<PendingRestore | null> {
  const { readPendingRestore } = await import('../../infra/shadow/restore-journal.js');
  return readPendingRestore(stateDir);
}
