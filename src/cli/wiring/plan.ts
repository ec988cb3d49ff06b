/**
 * The infra adapters `aide plan` runs on: the workspace and its config (the model flags
 * applied), the model client, a snapshot of the workspace (a checkpoint: the plan's base) read
 * through a reader with no write method, the definitions index with its cache, and the plan
 * file's write. The shadow store's lock is held only while the snapshot is taken: the model's
 * turns can take minutes and must not keep `aide act` out.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { STATE_DIR } from '../../config/files.js';
import type { ConfigFlags } from '../../config/flag-overrides.js';
import { loadWorkspaceConfig } from '../../config/load-workspace.js';
import type { CheckpointRecord } from '../../core/ports/checkpoints.js';
import type { ModelClient, ModelOutcome } from '../../core/ports/model.js';
import type { DefinitionIndex, RepoReader } from '../../core/ports/repo-reader.js';
import { findWorkspaceRoot } from '../../infra/git/workspace-root.js';
import { createModelClient } from '../../infra/model/create.js';
import { TreeSitterDefinitionIndex } from '../../infra/repo-map/tree-sitter-index.js';
import { openSnapshotReader } from '../../infra/shadow/snapshot-reader.js';
import { ShadowStore } from '../../infra/shadow/shadow-store.js';
import { AideError } from '../../shared/errors.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The workspace `aide plan` runs in and its configuration, `--model`/`--endpoint` applied. */
export async function openPlanWorkspace(cwd: string, env: Env, flags: ConfigFlags) {
  const root = await findWorkspaceRoot(cwd, env);
  const { config } = await loadWorkspaceConfig(root, env, flags);
  return { root, config: config.value };
}

export type PlanModelConfig = Awaited<ReturnType<typeof openPlanWorkspace>>['config']['model'];

/** The model client; a remote endpoint without allow_remote gets none (the failure says why). */
export function planModelClient(model: PlanModelConfig, root: string, env: Env): ModelOutcome<ModelClient> {
  return createModelClient(model, { cwd: root, env });
}

/** The snapshot the model reads: a checkpoint of the workspace as it is, and a reader of its tree. */
export async function snapshotForPlan(
  root: string,
  env: Env,
  options: { maxFileBytes: number; title: string },
): Promise<{
  checkpoint: CheckpointRecord;
  skipped: Array<{ path: string; bytes: number }>;
  reader: RepoReader;
  /** Ends the reader's git processes. */
  close: () => void;
}> {
  const store = await ShadowStore.open(root, env, { maxFileBytes: options.maxFileBytes, command: 'plan' });
  try {
    const result = await store.checkpoint({ reason: 'plan', message: `aide plan: ${options.title}` });
    // The checkpoint is on a session branch: its objects stay after the lock is released.
    const reader = await openSnapshotReader(store.git, result.checkpoint.id);
    return {
      checkpoint: result.checkpoint,
      skipped: result.skipped,
      reader,
      close: () => {
        reader.close();
      },
    };
  } finally {
    await store.close();
  }
}

/** Top-level definitions per source file, cached by blob id in the state folder. */
export function definitionIndex(root: string): DefinitionIndex {
  return new TreeSitterDefinitionIndex({ cachePath: join(root, STATE_DIR, 'cache', 'definitions.json') });
}

/** A fresh fence for a wrapped tool result: 16 letters and digits. */
export function randomFence(): string {
  return randomBytes(12)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, 16);
}

/**
 * Writes the plan whole or not at all: a temp file in the same folder, then a link (which fails
 * if the file exists: never overwriting) or, with `replace`, a rename over it.
 */
export async function writePlanFile(path: string, text: string, replace: boolean): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.aide-tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  await writeFile(temp, text, { flag: 'wx' });
  try {
    if (replace) await rename(temp, path);
    else await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new AideError('usage', `${path} exists`, {
        hint: 'Give --force to replace it, or another --out.',
      });
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}
