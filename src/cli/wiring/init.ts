/** What `aide init` runs on: the workspace root and the real file system. */
import type { InitDeps } from '../../core/init/init-workspace.js';
import { NodeDirectoryLister } from '../../infra/fs/list-directories.js';
import { NodeFileSystem } from '../../infra/fs/node-file-system.js';
import { findWorkspaceRoot } from '../../infra/git/workspace-root.js';

type Env = Readonly<Record<string, string | undefined>>;

export async function openInit(cwd: string, env: Env): Promise<{ root: string; deps: InitDeps }> {
  const root = await findWorkspaceRoot(cwd, env);
  return { root, deps: { fs: new NodeFileSystem(), lister: new NodeDirectoryLister() } };
}
