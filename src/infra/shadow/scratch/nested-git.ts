/**
 * The `.git` entries below a scratch's root, and their removal.
 *
 * git never lists an entry named `.git` (dir.c skips the name in every folder), so neither
 * `clean -ffdx` nor `add` sees one planted in a tracked folder: `src/.git/` with hooks and a
 * config (core.fsmonitor, core.hooksPath), or a `src/.git` file naming another repository. It
 * would outlive the sweep, and the next session's commands running git in `src/` would use it.
 * The sweep of a kept scratch removes every one (the root's own `.git`, the worktree's link to
 * the shadow, stays). Symbolic links are not followed: a link is an entry, not a folder here.
 */
import type { Dirent } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders read at once: the walk runs beside the sweep's git processes. */
const PARALLEL = 16;

/** Scratch-relative paths of every `.git` entry below `root` (any letter case), folders or not. */
export async function nestedGitEntries(root: string): Promise<string[]> {
  const found: string[] = [];
  // One depth at a time, PARALLEL folders of it at once.
  for (let level = ['']; level.length > 0;) {
    const next: string[] = [];
    for (let at = 0; at < level.length; at += PARALLEL) {
      const batch = level.slice(at, at + PARALLEL);
      const listed = await Promise.all(batch.map((folder) => entriesOf(root, folder)));
      batch.forEach((folder, i) => {
        for (const entry of listed[i] ?? []) {
          const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
          if (entry.name.toLowerCase() === '.git') {
            if (folder !== '') found.push(path);
          } else if (entry.isDirectory()) next.push(path);
        }
      });
    }
    level = next;
  }
  return found.sort();
}

/** A folder's entries; none when it is gone or no folder (the sweep's clean runs beside the walk). */
async function entriesOf(root: string, folder: string): Promise<Dirent[]> {
  try {
    return await readdir(join(root, folder), { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/** Removes every `.git` entry below `root`; returns their scratch-relative paths. */
export async function removeNestedGit(root: string): Promise<string[]> {
  const entries = await nestedGitEntries(root);
  for (const path of entries) await rm(join(root, path), { recursive: true, force: true });
  return entries;
}
