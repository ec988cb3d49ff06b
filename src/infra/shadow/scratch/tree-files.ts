/**
 * Moving a checkout from one tree to another by writing only the paths that differ: the trees
 * are compared with `diff-tree` (which skips identical subtrees by their ids, so the cost grows
 * with the change, not the repository), the new blobs are read in one `cat-file --batch`, and
 * the files are written here. git's own `read-tree -m -u` reads and rewrites the whole index
 * instead: 0.35 s for 3 changed files out of 50k here, against tens of milliseconds this way.
 *
 * Never writes through a symlink: every folder on the way to a path is checked to be a real
 * folder (a symlink or file in the way is removed, as git does), and a removal whose way goes
 * through a symlink is skipped, since that file was never in the checkout.
 */
import { lstat, mkdir, rm, rmdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScratchChange } from '../../../core/ports.js';
import type { GitCallOptions, ShadowGit } from '../git.js';

export interface TreeChange {
  status: 'A' | 'D' | 'M' | 'T';
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
  path: string;
}

const ABSENT_MODE = '000000';

/**
 * Options for git calls that read objects only. `diff-tree` reads the whole index even though
 * it never uses it (80 ms of its 85 ms at 50k files here); an index file that does not exist
 * costs nothing. Nothing ever creates this file.
 */
export function objectsOnly(git: ShadowGit): GitCallOptions {
  return { indexFile: join(git.location.gitDir, 'aide-no-index') };
}
const BLOB_BATCH = 500;

/** Paths that differ between two trees: `diff-tree -r --raw -z`, renames off. */
export async function treeChanges(git: ShadowGit, from: string, to: string): Promise<TreeChange[]> {
  if (from === to) return [];
  const fields = await git.fields(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-commit-id', from, to], objectsOnly(git));
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode = '', newMode = '', oldSha = '', newSha = '', status = ''] = (fields[i] ?? '').slice(1).split(' ');
    if (status !== 'A' && status !== 'D' && status !== 'M' && status !== 'T') throw new Error(`diff-tree: unexpected status "${status}"`);
    changes.push({ status, oldMode, newMode, oldSha, newSha, path: fields[i + 1] ?? '' });
  }
  return changes;
}

const STATUS = { A: 'added', D: 'deleted', M: 'modified', T: 'type_changed' } as const;

export function toScratchChange(change: TreeChange): ScratchChange {
  const before = change.oldMode !== ABSENT_MODE;
  const after = change.newMode !== ABSENT_MODE;
  return {
    path: change.path,
    status: STATUS[change.status],
    oldMode: before ? change.oldMode : null,
    newMode: after ? change.newMode : null,
    oldBlob: before ? change.oldSha : null,
    newBlob: after ? change.newSha : null,
  };
}

/**
 * Brings an index from `from` to `to` for the given changes without touching files: entries
 * get no stat data, so the next `git add` re-hashes just these paths. Removals go first, so a
 * file that becomes a folder (or the reverse) never meets itself.
 */
export async function updateIndexEntries(git: ShadowGit, changes: readonly TreeChange[], options: GitCallOptions): Promise<void> {
  if (changes.length === 0) return;
  const zero = '0'.repeat(40);
  const removals = changes.filter((c) => c.newMode === ABSENT_MODE || c.status === 'T').map((c) => `0 ${zero}\t${c.path}\0`);
  const additions = changes.filter((c) => c.newMode !== ABSENT_MODE).map((c) => `${c.newMode} ${c.newSha}\t${c.path}\0`);
  await git.run(['update-index', '-z', '--index-info'], { ...options, input: [...removals, ...additions].join('') });
}

/** The contents of blobs, by id, read in batches with `cat-file --batch`. */
export async function readBlobs(git: ShadowGit, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += BLOB_BATCH) {
    const batch = unique.slice(start, start + BLOB_BATCH);
    const out = (await git.run(['cat-file', '--batch'], { ...objectsOnly(git), input: batch.map((id) => `${id}\n`).join('') })).stdout;
    let at = 0;
    for (const id of batch) {
      const eol = out.indexOf(0x0a, at);
      const header = out.toString('utf8', at, eol).split(' ');
      if (header[1] !== 'blob' || header[2] === undefined) throw new Error(`cat-file: ${id} is ${header.slice(1).join(' ') || 'unreadable'}`);
      const size = Number(header[2]);
      blobs.set(id, out.subarray(eol + 1, eol + 1 + size));
      at = eol + 1 + size + 1;
    }
  }
  return blobs;
}

/** Refuses paths no tree of ours should hold: absolute, empty or dot segments, anything in a `.git`. */
function checkedSegments(path: string): string[] {
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git')) {
    throw new Error(`refusing to write the path "${path}" into a scratch checkout`);
  }
  return segments;
}

async function kindAt(path: string): Promise<'missing' | 'dir' | 'symlink' | 'other'> {
  try {
    const info = await lstat(path);
    return info.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'dir' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return 'missing';
    throw error;
  }
}

/** Makes every folder on the way to `segments` (all but the last) a real folder under root. */
async function realFolders(root: string, segments: readonly string[]): Promise<void> {
  let dir = root;
  for (const segment of segments.slice(0, -1)) {
    dir = join(dir, segment);
    const kind = await kindAt(dir);
    if (kind === 'dir') continue;
    if (kind !== 'missing') await unlink(dir);
    await mkdir(dir);
  }
}

/** Whether every folder on the way is a real folder (so the path is inside the checkout). */
async function insideCheckout(root: string, segments: readonly string[]): Promise<boolean> {
  let dir = root;
  for (const segment of segments.slice(0, -1)) {
    dir = join(dir, segment);
    if ((await kindAt(dir)) !== 'dir') return false;
  }
  return true;
}

/** Removes what is at a path: a file or symlink is unlinked, a folder (a gitlink's, or build output in the way) removed. */
async function clear(path: string): Promise<boolean> {
  const kind = await kindAt(path);
  if (kind === 'missing') return false;
  if (kind === 'dir') await rm(path, { recursive: true, force: true });
  else await unlink(path);
  return true;
}

/** Removes folders left empty by removals, deepest first, up to (not including) root. */
async function pruneEmpty(root: string, segments: readonly string[]): Promise<void> {
  for (let depth = segments.length - 1; depth > 0; depth--) {
    try {
      await rmdir(join(root, ...segments.slice(0, depth)));
    } catch {
      return;
    }
  }
}

async function writeEntry(path: string, mode: string, content: Buffer): Promise<void> {
  switch (mode) {
    case '120000':
      await symlink(content.toString('utf8'), path);
      return;
    case '100755':
      await writeFile(path, content, { mode: 0o777, flag: 'wx' });
      return;
    case '100644':
      await writeFile(path, content, { mode: 0o666, flag: 'wx' });
      return;
    case '160000':
      await mkdir(path);
      return;
    default:
      throw new Error(`unexpected git mode ${mode} at ${path}`);
  }
}

/** Applies tree changes to the files under root. Returns the number of paths written and removed. */
export async function applyTreeChanges(git: ShadowGit, root: string, changes: readonly TreeChange[]): Promise<{ written: number; removed: number }> {
  const depth = (c: TreeChange) => c.path.split('/').length;
  const removals = changes.filter((c) => c.status === 'D' || c.status === 'T').sort((a, b) => depth(b) - depth(a));
  const writes = changes.filter((c) => c.newMode !== ABSENT_MODE);
  let removed = 0;
  for (const change of removals) {
    const segments = checkedSegments(change.path);
    if (!(await insideCheckout(root, segments))) continue;
    if (await clear(join(root, ...segments))) removed++;
    if (change.status === 'D') await pruneEmpty(root, segments);
  }
  const blobs = await readBlobs(
    git,
    writes.filter((c) => c.newMode !== '160000').map((c) => c.newSha),
  );
  for (const change of writes) {
    const segments = checkedSegments(change.path);
    await realFolders(root, segments);
    const path = join(root, ...segments);
    await clear(path);
    await writeEntry(path, change.newMode, blobs.get(change.newSha) ?? Buffer.alloc(0));
  }
  return { written: writes.length, removed };
}
