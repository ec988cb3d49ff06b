/**
 * Paths aide wrote or deleted, whatever the ignore rules say (issue 10 item 3). A snapshot
 * leaves ignored files out, so before this list an `aide apply` to a git-ignored `.env` was
 * not undoable, and a reply that wrote `src/.gitignore` (`*`) next to `src/backdoor.js` hid both
 * from every later snapshot, so restore never removed them.
 *
 * Two files in the shadow's git dir, paths relative to the workspace, NUL-terminated:
 * - `aide-watched`: every path aide was about to write, in order, never shortened. A checkpoint
 *   records its length (trailer `Aide-Watched`): a listed path at or past that position was
 *   not yet watched when the checkpoint was taken, so if git ignores it, its absence from that
 *   checkpoint says nothing (restore leaves it alone).
 * - `aide-watch-pending`: the paths a snapshot must still put into the shadow's index by force:
 *   those that were ignored or missing when watched. Once in the index a path stays tracked
 *   whatever the ignore rules say, and one that is not ignored is tracked by `git add -A`, so
 *   an ordinary apply (tracked files) costs no extra git call that reads the index.
 */
import { lstat, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_DIR } from '../../config/files.js';
import type { ShadowGit } from './git.js';

const WATCHED_FILE = 'aide-watched';
const PENDING_FILE = 'aide-watch-pending';

export interface WatchedPaths {
  /** In the order they were added. */
  paths: string[];
  /** Position of each path in `paths`. */
  index: Map<string, number>;
}

/** A NUL-terminated list; a torn last entry (no NUL) is dropped, duplicates too. */
async function readList(git: ShadowGit, name: string): Promise<string[]> {
  const parts = (await readFile(join(git.location.gitDir, name), 'utf8').catch(() => '')).split('\0');
  parts.pop();
  return [...new Set(parts.filter((p) => p !== ''))];
}

/** Whole file, then rename: a crash leaves the old list or the new one. */
async function writeList(git: ShadowGit, name: string, paths: readonly string[]): Promise<void> {
  const file = join(git.location.gitDir, name);
  await writeFile(`${file}.tmp`, paths.map((p) => `${p}\0`).join(''));
  await rename(`${file}.tmp`, file);
}

export async function readWatched(git: ShadowGit): Promise<WatchedPaths> {
  const paths = await readList(git, WATCHED_FILE);
  return { paths, index: new Map(paths.map((p, i) => [p, i])) };
}

/** Paths a snapshot must never capture as files of the workspace. */
function capturable(path: string): boolean {
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git')) return false;
  return !path.startsWith(`${STATE_DIR}/`) && path !== STATE_DIR;
}

type Kind = 'file' | 'missing' | 'other';

async function kindOf(root: string, path: string): Promise<Kind> {
  const info = await lstat(join(root, ...path.split('/'))).catch(() => null);
  if (info === null) return 'missing';
  return info.isFile() || info.isSymbolicLink() ? 'file' : 'other';
}

/**
 * Paths looked at this many at a time: all at once, an apply of 2,000 new files had 2,000 lstat
 * requests in flight (and again for the pending list at the snapshot), about 18 MB of process
 * memory at its peak for each (bench/apply-memory), where a batch costs the same time.
 */
const LSTAT_BATCH = 32;

async function kindsOf(root: string, paths: readonly string[]): Promise<Kind[]> {
  const kinds: Kind[] = [];
  for (let i = 0; i < paths.length; i += LSTAT_BATCH)
    kinds.push(...(await Promise.all(paths.slice(i, i + LSTAT_BATCH).map((p) => kindOf(root, p)))));
  return kinds;
}

/**
 * Watches paths (relative, '/'-separated) that are about to be written or deleted. Returns
 * those git ignores now.
 */
export async function watchPaths(
  git: ShadowGit,
  root: string,
  paths: readonly string[],
): Promise<Set<string>> {
  const wanted = [...new Set(paths)].filter(capturable);
  if (wanted.length === 0) return new Set();
  const ignored = await ignoredNow(git, wanted);
  const watched = await readWatched(git);
  const added = wanted.filter((p) => !watched.index.has(p));
  if (added.length > 0) await writeList(git, WATCHED_FILE, [...watched.paths, ...added]);
  const pending = new Set(await readList(git, PENDING_FILE));
  const before = pending.size;
  const kinds = await kindsOf(root, wanted);
  wanted.forEach((path, i) => {
    if (ignored.has(path) || kinds[i] === 'missing') pending.add(path);
  });
  if (pending.size !== before) await writeList(git, PENDING_FILE, [...pending]);
  return ignored;
}

/**
 * Puts the pending paths that exist now into the shadow's index, by force where git ignores
 * them; a missing one stays pending (a file about to be created), a folder is left to `add -A`.
 * Costs a file read when nothing is pending.
 */
export async function captureWatched(git: ShadowGit, root: string): Promise<void> {
  const pending = await readList(git, PENDING_FILE);
  if (pending.length === 0) return;
  const kinds = await kindsOf(root, pending);
  const present = pending.filter((_, i) => kinds[i] === 'file');
  const ignored = [...(await ignoredNow(git, present))];
  if (ignored.length > 0)
    await git.run(['update-index', '--add', '--remove', '-z', '--stdin'], {
      input: ignored.map((p) => `${p}\0`).join(''),
    });
  const still = pending.filter((_, i) => kinds[i] === 'missing');
  if (still.length !== pending.length) await writeList(git, PENDING_FILE, still);
}

/** After the shadow's index is started afresh: every watched path is pending again. */
export async function repend(git: ShadowGit): Promise<void> {
  const watched = await readList(git, WATCHED_FILE);
  if (watched.length > 0) await writeList(git, PENDING_FILE, watched);
}

/** Those of `paths` that the workspace's ignore rules ignore now (tracked or not). */
export async function ignoredNow(git: ShadowGit, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const out = await git.fields(['check-ignore', '--no-index', '-z', '--stdin'], {
    input: paths.map((p) => `${p}\0`).join(''),
    okCodes: [1],
  });
  return new Set(out);
}
