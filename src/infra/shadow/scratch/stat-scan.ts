/**
 * The sweep of a scratch after a command ran in it, without rewriting its private index: the
 * paths that may differ from the known tree are found as `git status` finds them, and only those
 * are read back (written-tree.ts). A full `add -A` + `write-tree` reads the 30k-entry index,
 * rewrites it after re-adding the files the last moves wrote, and has `write-tree` read and
 * write it again (~95 ms at 30k files here); these two read-only walks run side by side
 * (~40–50 ms), and the tree is rebuilt in node from the few paths they name.
 *
 * Why it is sound, given that the private index holds exactly `indexTree` (scratch-checkout.ts
 * knows no tree for it while a write of it is under way or failed, and then scans in full;
 * commands cannot reach it: it is in the shadow, which the sandbox shows read-only):
 * - a tracked path `diff-files` does not name matches its index entry by git's own stat check
 *   (size, mtime, ctime, inode, mode; a racily clean entry is compared by content), so it holds
 *   indexTree's blob. A command cannot forge that: ctime is set by the kernel on every change and
 *   cannot be set back, and git compares it (STAT_CHECK pins that);
 * - such a path also holds `files`' blob unless a move or capture since the index was written
 *   changed it: those paths (indexTree → files) are read back too, whatever their stat says;
 * - every other path the scan would record is untracked and not ignored, which `ls-files -o`
 *   lists file by file with the same ignore rules `add -A` uses.
 * Anything this does not model gives null and the caller scans every file: a nested repository
 * (listed as a folder), a symlink, folder or other non-file at a named path, a path touching a
 * linked folder, or more paths than are worth reading one by one (a racily smudged index after a
 * checkout names every file; the full scan refreshes it).
 */
import type { ScratchLink } from '../../../core/ports/scratch.js';
import { GitCommandError, type GitCallOptions, type ShadowGit } from '../git.js';
import { touchesLink } from './links.js';
import type { ObjectReader } from './object-reader.js';
import { writtenTree } from './written-tree.js';

/**
 * git's full stat check, pinned (the shadow's config is aide's alone, and global and system
 * config are off for it; this says what the soundness rests on): ctime compared, every field,
 * no entry taken as unchanged unasked.
 */
const STAT_CHECK = [
  '-c',
  'core.trustctime=true',
  '-c',
  'core.checkStat=default',
  '-c',
  'core.ignoreStat=false',
];

/**
 * In the background, one thread: git's parallel stat of the index (core.preloadIndex) starts up
 * to 20 threads, which on a small machine take every core from the step's own work (its
 * checkpoint's reads waited 40 ms at 30k files on 2 cores). Not a lower priority (nice): the
 * next step waits for this sweep, and on a machine busy with other work a niced one would wait
 * for all of it.
 */
function threads(background: boolean | undefined): string[] {
  return background === true ? ['-c', 'core.preloadIndex=false'] : [];
}

/** More named paths than this and the full scan is cheaper (and refreshes the index's stat data). */
const MAX_PATHS = 256;

/** What a stat scan starts from. */
export interface StatScanRequest {
  /** The tree the private index holds. */
  indexTree: string;
  /** The tree the files were last known to hold: the rebuild's base (every path not named holds it). */
  files: string;
  /** The scratch's folder. */
  root: string;
  links: readonly ScratchLink[];
  /** Whether git trusts the execute bit here (core.fileMode). */
  fileMode: boolean;
  /** The scratch's git options (its work tree and private index). */
  options: GitCallOptions;
  /** Begun ahead of need (Scratch.settle), while the step's own work goes on: one thread. */
  background?: boolean;
}

/** See the module comment: the tree the scratch's files hold, or null when the full scan must decide. */
export async function statScan(
  git: ShadowGit,
  objects: ObjectReader,
  request: StatScanRequest,
): Promise<string | null> {
  const { options } = request;
  const [dirty, untracked, moved] = await Promise.all([
    git.fields(
      [
        ...STAT_CHECK,
        ...threads(request.background),
        'diff-files',
        '--name-only',
        '-z',
        '--ignore-submodules=none',
      ],
      options,
    ),
    git.fields(['ls-files', '--others', '--exclude-standard', '--full-name', '-z'], options),
    objects.changes(request.indexTree, request.files),
  ]);
  const paths = new Set([...dirty, ...untracked, ...moved.map((c) => c.path)]);
  if (paths.size > MAX_PATHS) return null;
  // A folder named (a nested repository, listed as `dir/`) is recorded otherwise: the full scan decides.
  if ([...paths].some((p) => p === '' || p.endsWith('/'))) return null;
  if ([...paths].some((p) => request.links.some((l) => touchesLink(l, p)))) return null;
  // Checked as noteWritten checks aide's own paths: plainly inside, no `.`, `..` or `.git` segment.
  const plain = (p: string) =>
    p.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && s.toLowerCase() !== '.git');
  if (![...paths].every(plain)) return null;
  try {
    return await writtenTree(git, objects, {
      base: request.files,
      paths: [...paths],
      root: request.root,
      fileMode: request.fileMode,
      options,
      direct: true,
    });
  } catch (error) {
    if (error instanceof GitCommandError) return null;
    throw error;
  }
}
