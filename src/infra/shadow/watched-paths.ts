/**
 * Paths aide wrote or deleted, whatever the ignore rules say (issue 10 item 3). A snapshot
 * leaves ignored files out, so before this list an `aide apply` to a git-ignored `.env` was
 * not undoable, and a reply that wrote `src/.gitignore` (`*`) next to `src/backdoor.js` hid both
 * from every later snapshot, so restore never removed them. Every path aide is about to write
 * is appended here before the write, and every snapshot captures the listed paths as they are
 * on disk (present or absent) even when ignored.
 *
 * The list only grows, so a checkpoint records its length (trailer `Aide-Watched`): a listed
 * path at or past that position was not yet watched when the checkpoint was taken, and if it
 * is ignored, its absence from that checkpoint says nothing (restore leaves it alone).
 *
 * `.aide/state/shadow.git/aide-watched`: paths relative to the workspace, NUL-terminated.
 */
import { lstat, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ShadowGit } from './git.js';

const WATCHED_FILE = 'aide-watched';

export interface WatchedPaths {
  /** In the order they were added. */
  paths: string[];
  /** Position of each path in `paths`. */
  index: Map<string, number>;
}

function file(git: ShadowGit): string {
  return join(git.location.gitDir, WATCHED_FILE);
}

/** The list; empty when nothing was ever watched. A torn last entry (no NUL) is dropped. */
export async function readWatched(git: ShadowGit): Promise<WatchedPaths> {
  const text = await readFile(file(git), 'utf8').catch(() => '');
  const parts = text.split('\0');
  parts.pop();
  const paths: string[] = [];
  const index = new Map<string, number>();
  for (const path of parts) {
    if (path === '' || index.has(path)) continue;
    index.set(path, paths.length);
    paths.push(path);
  }
  return { paths, index };
}

/** Paths a snapshot must never capture as files of the workspace. */
function capturable(path: string): boolean {
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git')) return false;
  return !path.startsWith('.aide/state/') && path !== '.aide/state';
}

/** Adds paths (relative, '/'-separated) to the list; returns the list's new length. */
export async function watchPaths(git: ShadowGit, paths: readonly string[]): Promise<number> {
  const current = await readWatched(git);
  const added = [...new Set(paths)].filter((p) => capturable(p) && !current.index.has(p));
  if (added.length === 0) return current.paths.length;
  const all = [...current.paths, ...added];
  // Whole file, then rename: a crash leaves the old list or the new one.
  await writeFile(`${file(git)}.tmp`, all.map((p) => `${p}\0`).join(''));
  await rename(`${file(git)}.tmp`, file(git));
  return all.length;
}

/**
 * Puts the listed paths into the shadow's index as they are on disk: a file or symlink is
 * (re-)hashed, a missing one is removed. A path that is now a folder is left to `add -A`.
 */
export async function captureWatched(git: ShadowGit, root: string, watched: WatchedPaths): Promise<void> {
  if (watched.paths.length === 0) return;
  const wanted: string[] = [];
  for (const path of watched.paths) {
    const info = await lstat(join(root, ...path.split('/'))).catch(() => null);
    if (info === null || info.isFile() || info.isSymbolicLink()) wanted.push(path);
  }
  if (wanted.length === 0) return;
  await git.run(['update-index', '--add', '--remove', '-z', '--stdin'], { input: wanted.map((p) => `${p}\0`).join('') });
}

/** Those of `paths` that the workspace's ignore rules ignore now (tracked or not). */
export async function ignoredNow(git: ShadowGit, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const out = await git.fields(['check-ignore', '--no-index', '-z', '--stdin'], { input: paths.map((p) => `${p}\0`).join(''), okCodes: [1] });
  return new Set(out);
}
