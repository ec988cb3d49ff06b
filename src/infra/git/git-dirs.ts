/**
 * Every git dir aide knows about for a workspace, to keep read-only for verify commands: the
 * workspace's own git dir, a linked worktree's common dir (the main repository's real `.git`,
 * reachable from the shadow through its alternates), every alternates target, and the shadow.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { gitDirs, type Env } from './user-repo.js';

/** The object folders an objects folder borrows from (objects/info/alternates), followed a few levels deep. */
function alternates(objects: string, seen: Set<string>, depth: number): void {
  if (depth > 5 || seen.has(objects)) return;
  seen.add(objects);
  let text = '';
  try {
    text = readFileSync(join(objects, 'info', 'alternates'), 'utf8');
  } catch {
    return;
  }
  for (const entry of text.split('\n')) {
    const path = entry.trim();
    if (path === '' || path.startsWith('#')) continue;
    alternates(isAbsolute(path) ? path : resolve(objects, path), seen, depth + 1);
  }
}

/** Absolute real paths, existing ones only. `known`: the workspace's git dir and common dir, when told already. */
export async function knownGitDirs(
  root: string,
  shadowDir: string,
  env: Env,
  known?: readonly string[],
): Promise<string[]> {
  const dirs = [...new Set(known ?? (await gitDirs(root, env))), shadowDir];
  const objects = new Set<string>();
  for (const dir of dirs) alternates(join(dir, 'objects'), objects, 0);
  const found = new Set<string>();
  for (const path of [...dirs, ...objects]) {
    if (!existsSync(path)) continue;
    found.add(realpathSync(path));
  }
  return [...found];
}
