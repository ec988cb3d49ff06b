/**
 * The `.git` entries below a scratch's root, and their removal.
 *
 * git never lists an entry named `.git` (dir.c skips the name in every folder), so neither
 * `clean -ffdx` nor `add` sees one planted in a tracked folder: `src/.git/` with hooks and a
 * config (core.fsmonitor, core.hooksPath), or a `src/.git` file naming another repository. It
 * would outlive the sweep, and the next session's commands running git in `src/` would use it.
 * The sweep of a kept scratch removes every one (the root's own `.git`, the worktree's link to
 * the shadow, stays). Symbolic links are not followed: a link is an entry, not a folder here.
 *
 * A small scratch is walked in JavaScript, synchronously: a few folders cost less than starting
 * a process (a review's 200-file scratch: about 0.2 ms, against 4 ms of CPU for `find`'s spawn
 * and run). Past SMALL_WALK_FOLDERS folders, findutils' `find` does the walk where it is
 * installed: it runs beside the sweep's git processes, and at 30k files it costs a quarter of
 * the CPU of the same walk in JavaScript (which stays, for a machine without it).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, type Dirent } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders read at once: the walk runs beside the sweep's git processes. */
const PARALLEL = 16;

/**
 * Scratch-relative paths of every `.git` entry below `root` (any letter case), folders or not.
 * `smallFolders`: how many folders the synchronous walk may read (tests give 0 to have `find` walk).
 */
export async function nestedGitEntries(root: string, smallFolders = SMALL_WALK_FOLDERS): Promise<string[]> {
  return smallWalk(root, smallFolders) ?? (await foundByFind(root)) ?? walked(root);
}

/** Folders the synchronous walk reads before it gives the walk to `find` (what it read is then wasted: under 1 ms). */
const SMALL_WALK_FOLDERS = 64;

/**
 * The walk in JavaScript, synchronously, when the scratch has at most `maxFolders` folders
 * (links not followed, the root followed as `find -H` does); null when it has more.
 */
export function smallWalk(root: string, maxFolders: number): string[] | null {
  const found: string[] = [];
  const pending = [''];
  for (let read = 0; pending.length > 0; read++) {
    if (read === maxFolders) return null;
    const folder = pending.pop() ?? '';
    for (const entry of entriesOfSync(root, folder)) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.name.toLowerCase() === '.git') {
        if (folder !== '') found.push(path);
      } else if (entry.isDirectory()) pending.push(path);
    }
  }
  return found.sort();
}

const FIND = ['/usr/bin/find', '/bin/find'].find((path) => existsSync(path)) ?? null;

/** A folder gone while find reads it: the sweep's clean removed it beside the walk. */
const VANISHED = /^find: [‘'`].*[’'`]: No such file or directory$/;

/**
 * The walk by `find -H` (the root followed if it is a link, no link below it): every entry named
 * `.git` in any ASCII case, not descended into, the root's own left out as the JS walk leaves
 * them (pruned at depth 1 too, then dropped). Null without find; rejects on an error that is not
 * a folder that went.
 */
function foundByFind(root: string): Promise<string[] | null> {
  if (FIND === null) return Promise.resolve(null);
  const args = ['-H', root, '-mindepth', '1', '-iname', '.git', '-prune', '-print0'];
  return new Promise((resolve, reject) => {
    execFile(
      FIND,
      args,
      { env: { LC_ALL: 'C' }, encoding: 'utf8', maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const failures = stderr.split('\n').filter((line) => line !== '' && !VANISHED.test(line));
        if (
          error !== null &&
          (error.code === 'ENOENT' || failures.length > 0 || typeof error.code !== 'number')
        ) {
          if (error.code === 'ENOENT') resolve(null);
          else reject(new Error(`find ${args.join(' ')} failed: ${failures[0] ?? error.message}`));
          return;
        }
        const prefix = `${root.replace(/\/+$/, '')}/`;
        const paths = stdout
          .split('\0')
          .filter((path) => path.startsWith(prefix))
          .map((path) => path.slice(prefix.length))
          .filter((path) => path.includes('/'));
        resolve(paths.sort());
      },
    );
  });
}

/** The same walk in JavaScript (exported for its test). */
export async function walked(root: string): Promise<string[]> {
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

/** entriesOf, synchronously. */
function entriesOfSync(root: string, folder: string): Dirent[] {
  try {
    return readdirSync(join(root, folder), { withFileTypes: true });
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
