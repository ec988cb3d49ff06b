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
 * findutils' `find` does the walk where it is installed: it runs beside the sweep's git
 * processes, and at 30k files it costs a quarter of the CPU of the same walk in JavaScript
 * (which stays, for a machine without it).
 */
import { execFile } from 'node:child_process';
import { existsSync, type Dirent } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders read at once: the walk runs beside the sweep's git processes. */
const PARALLEL = 16;

/** Scratch-relative paths of every `.git` entry below `root` (any letter case), folders or not. */
export async function nestedGitEntries(root: string): Promise<string[]> {
  return (await foundByFind(root)) ?? walked(root);
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

/** Removes every `.git` entry below `root`; returns their scratch-relative paths. */
export async function removeNestedGit(root: string): Promise<string[]> {
  const entries = await nestedGitEntries(root);
  for (const path of entries) await rm(join(root, path), { recursive: true, force: true });
  return entries;
}
