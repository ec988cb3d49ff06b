/**
 * The workspace a command runs in: its root, found from the cwd, and its configuration. Every
 * command starts here; the other wiring modules build what one command runs on.
 */
import type { ConfigFlags } from '../../config/flag-overrides.js';
import { loadWorkspaceConfig } from '../../config/load-workspace.js';
import { findWorkspaceRoot, locateWorkspace, type LocatedWorkspace } from '../../infra/git/workspace-root.js';

type Env = Readonly<Record<string, string | undefined>>;

export { findWorkspaceRoot, locateWorkspace, type LocatedWorkspace };

/** The workspace a command runs in, and its configuration (`flags`: --model/--endpoint, when the command has them). */
export async function openWorkspace(cwd: string, env: Env, flags: ConfigFlags = {}) {
  const root = await findWorkspaceRoot(cwd, env);
  const { config, sandbox } = await loadWorkspaceConfig(root, env, flags);
  return { root, config: config.value, sandbox: sandbox.value };
}
