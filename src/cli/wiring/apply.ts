/**
 * What `aide apply` runs on: the workspace and its config (read before any edit: a reply that
 * rewrites config.json cannot decide what is protected), the real file system, and a
 * checkpointer that opens the shadow (and takes its lock) only when there is something to
 * write, so a dry run or a failed apply leaves no trace in the workspace.
 */
import type { AideConfig } from '../../config/config-schema.js';
import { loadWorkspaceConfig } from '../../config/load-workspace.js';
import type { Checkpointer } from '../../core/ports/checkpoints.js';
import type { FileSystem } from '../../core/ports/files.js';
import { ignoresCase } from '../../infra/fs/case-sensitivity.js';
import { NodeFileSystem } from '../../infra/fs/node-file-system.js';
import { findWorkspaceRoot } from '../../infra/git/workspace-root.js';
import { ShadowStore } from '../../infra/shadow/shadow-store.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ApplyWiring {
  root: string;
  config: AideConfig;
  /** Whether the workspace's file system ignores case (protected paths are matched so). */
  caseInsensitive: boolean;
  fs: FileSystem;
  checkpoints: Checkpointer;
  /** Releases the shadow's lock if a checkpoint opened it. */
  close(): Promise<void>;
}

export async function openApply(cwd: string, env: Env): Promise<ApplyWiring> {
  const root = await findWorkspaceRoot(cwd, env);
  const config = (await loadWorkspaceConfig(root, env)).config.value;
  const maxFileBytes = config.checkpoints.max_file_bytes;
  const caseInsensitive = await ignoresCase(root);
  let store: ShadowStore | undefined;
  return {
    root,
    config,
    caseInsensitive,
    fs: new NodeFileSystem(),
    checkpoints: {
      checkpoint: async (request) => {
        store ??= await ShadowStore.open(root, env, { maxFileBytes, command: 'apply' });
        return store.checkpoint(request);
      },
    },
    close: async () => {
      await store?.close();
    },
  };
}
