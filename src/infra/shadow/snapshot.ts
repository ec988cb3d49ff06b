/**
 * Snapshots: the workspace as the user sees it (tracked files with their uncommitted edits,
 * untracked files that are not ignored, deletions) written as a tree in the shadow repository.
 *
 * Fast on big repositories: the shadow's index starts as a copy of the user's index, so git
 * re-hashes only files whose stat data changed (LESSONS.md: 0.28 s instead of 3.9 s on
 * babel's 27.7k files), and later snapshots reuse the shadow's own index.
 *
 * Nested repositories and submodules are captured as ordinary files: their trees are built
 * with a separate index and grafted in, without renaming or writing anything inside them
 * (peers renamed nested `.git` folders aside and broke users' repositories when they crashed).
 */
import { copyFile, lstat, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { GitCommandError, missingObject, type ShadowGit } from './git.js';
import { diffTrees, type RawChange } from './raw-objects.js';
import { objectsOnly } from './scratch/object-reader.js';
import type { Workspace } from './shadow-repo.js';
import { ownBorrowedObjects } from './own-objects.js';
import { captureWatched, repend } from './watched-paths.js';

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface SkippedFile {
  path: string;
  bytes: number;
}

export interface Snapshot {
  tree: string;
  /** Files over the size limit, left out of the snapshot. */
  skipped: SkippedFile[];
  /** Nested repositories and submodules captured as files. */
  nested: string[];
  /** Files that differ from the previous snapshot. */
  changed: number;
}

/** An entry of an index, as `ls-files -s` lists it. */
interface StageEntry {
  mode: string;
  sha: string;
  path: string;
}

const LAST_TREE_FILE = 'aide-last-snapshot';

/** Parses `git ls-files -s -z`: "mode sha stage\tpath\0". */
function parseStage(fields: string[]): StageEntry[] {
  return fields.map((field) => {
    const tab = field.indexOf('\t');
    const [mode, sha] = field.slice(0, tab).split(' ');
    return { mode: mode ?? '', sha: sha ?? '', path: field.slice(tab + 1) };
  });
}

/**
 * Attributes under which the user's blobs differ from the files whatever the files hold: a
 * filter (git-lfs: the index holds pointers), `ident`, a working-tree encoding, or a checkout
 * that writes CRLF (`eol=crlf`).
 */
const CONVERTING_ATTRIBUTE = /(?:^|\s)(?:filter|ident|working-tree-encoding|eol=crlf)\b/m;

/**
 * Attributes that only normalise CRLF to LF when a file is added (`text`, `eol=lf`, `text=auto`,
 * the older `crlf`): the blob differs from the file only when the file holds a CRLF, and then
 * the blob is shorter than the file. babel's `* text eol=lf` on an LF checkout changes nothing
 * (LESSONS.md: refusing the seed for it made babel's first snapshot 8.3× faster than naive
 * instead of 19.4×).
 */
const NORMALISING_ATTRIBUTE = /(?:^|\s)!?(?:text|eol|crlf)\b/m;

/**
 * How the user's blobs may differ from the files on disk: 'always' (autocrlf, a CRLF checkout,
 * filters, encodings: no seeding), 'crlf' (a normalising attribute: seed, then drop the entries
 * whose blob is not the file's size), or 'never'. A seeded entry whose stat matches is never
 * re-hashed, so a CRLF file would be checkpointed (and restored) as LF, an LFS file as its
 * pointer. Checks the repository's config and the top-level attribute files only.
 */
async function userBlobsMayDiffer(
  workspace: Workspace,
  config: string,
): Promise<'always' | 'crlf' | 'never'> {
  if (/^\s*autocrlf\s*=\s*true\b/im.test(config) || /^\s*eol\s*=\s*crlf\b/im.test(config)) return 'always';
  let found: 'crlf' | 'never' = /^\s*autocrlf\s*=\s*input\b/im.test(config) ? 'crlf' : 'never';
  const files = [
    join(workspace.root, '.gitattributes'),
    ...(workspace.user === null ? [] : [join(workspace.user.commonDir, 'info', 'attributes')]),
  ];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (CONVERTING_ATTRIBUTE.test(text)) return 'always';
    if (NORMALISING_ATTRIBUTE.test(text)) found = 'crlf';
  }
  return found;
}

/**
 * Whether the user's index can seed ours: a plain index, not split and not sparse, blobs as on
 * disk, or only CRLF-normalised (`normalised`: entries whose size differs are dropped after the copy).
 */
export async function seedableIndex(
  workspace: Workspace,
): Promise<{ index: string; normalised: boolean } | undefined> {
  if (workspace.user === null) return undefined;
  const index = join(workspace.user.gitDir, 'index');
  const info = await stat(index).catch(() => undefined);
  if (info === undefined) return undefined;
  const config = await readFile(join(workspace.user.commonDir, 'config'), 'utf8').catch(() => '');
  if (/^\s*(?:splitIndex|sparseCheckout)\s*=\s*true/im.test(config)) return undefined;
  const differ = await userBlobsMayDiffer(workspace, config);
  if (differ === 'always') return undefined;
  return { index, normalised: differ === 'crlf' };
}

/**
 * Paths of a seeded index whose blob is not the size the index recorded for the file: CRLF
 * normalised away when the user added it. Their stat data would match, so git would never
 * re-hash them; the size says the blob is not the file's bytes. One `ls-files` and one
 * `cat-file` over the index, paid only where a normalising attribute is set.
 */
async function normalisedEntries(git: ShadowGit): Promise<Buffer[]> {
  const out = (await git.run(['ls-files', '-s', '--debug', '-z'])).stdout;
  const entries: Array<{ sha: string; size: number; path: Buffer }> = [];
  let at = 0;
  while (at < out.length) {
    const nul = out.indexOf(0, at);
    if (nul < 0) break;
    const head = out.subarray(at, nul);
    const tab = head.indexOf(9);
    const [mode = '', sha = ''] = head.subarray(0, tab).toString('latin1').split(' ');
    // Five debug lines follow each entry: ctime, mtime, dev/ino, uid/gid, size/flags.
    let end = nul + 1;
    for (let line = 0; line < 5 && end > 0; line++) end = out.indexOf(10, end) + 1;
    if (end <= 0) end = out.length;
    const size = /size: (\d+)/.exec(out.subarray(nul + 1, end).toString('latin1'))?.[1];
    if ((mode === '100644' || mode === '100755') && size !== undefined)
      entries.push({ sha, size: Number(size), path: head.subarray(tab + 1) });
    at = end;
  }
  if (entries.length === 0) return [];
  const shas = [...new Set(entries.map((e) => e.sha))];
  const sizes = new Map<string, number>();
  const lines = (
    await git.text(['cat-file', '--batch-check=%(objectname) %(objectsize)'], {
      input: shas.map((sha) => `${sha}\n`).join(''),
    })
  ).split('\n');
  for (const line of lines) {
    const [sha = '', size = ''] = line.split(' ');
    if (/^\d+$/.test(size)) sizes.set(sha, Number(size));
  }
  // A blob the shadow cannot size (missing) is re-hashed too.
  return entries.filter((e) => sizes.get(e.sha) !== e.size).map((e) => e.path);
}

/** Copies the user's index into the shadow and clears flags that would hide edits. */
async function seedIndex(git: ShadowGit, workspace: Workspace): Promise<boolean> {
  const seedable = await seedableIndex(workspace);
  if (seedable === undefined) return false;
  const source = seedable.index;
  const target = git.location.indexFile;
  const seed = `${target}.seed`;
  await copyFile(source, seed);
  // Keep the index's own mtime: git re-hashes "racily clean" entries (changed in the same second
  // as the index was written) only while the index is no newer than they are.
  const { atime, mtime } = await stat(source);
  await utimes(seed, atime, mtime);
  await rename(seed, target);
  // assume-unchanged (lowercase tag) and skip-worktree ("S") entries hide edits, and their stat
  // data is stale: drop them from the index so the next `add` hashes them afresh.
  const flagged = (await git.fields(['ls-files', '-v', '-z']))
    .filter((f) => /^[a-z]|^S/.test(f))
    .map((f) => `${f.slice(2)}\0`);
  if (flagged.length > 0)
    await git.run(['update-index', '-z', '--force-remove', '--stdin'], { input: flagged.join('') });
  // Entries whose blob had its CRLFs normalised away: dropped, so the next `add` stores the bytes.
  const normalised = seedable.normalised ? await normalisedEntries(git) : [];
  if (normalised.length > 0)
    await git.run(['update-index', '-z', '--force-remove', '--stdin'], {
      input: Buffer.concat(normalised.flatMap((path) => [path, Buffer.from([0])])),
    });
  return true;
}

/** The tree of a nested repository's work tree, built with its own index in the shadow's objects. */
async function nestedTree(git: ShadowGit, workspace: Workspace, path: string): Promise<string> {
  const folder = join(git.location.gitDir, 'aide-nested');
  await mkdir(folder, { recursive: true });
  const indexFile = join(folder, `${createHash('sha1').update(path).digest('hex')}.index`);
  const workTree = join(workspace.root, path);
  await git.run(['add', '-A', '--', '.'], { workTree, indexFile });
  await graftNested(git, workspace, path, indexFile, await gitlinksIn(git, indexFile, workTree));
  return git.text(['write-tree'], { indexFile, workTree });
}

/** Gitlinks (mode 160000) among index entries. */
async function gitlinksIn(git: ShadowGit, indexFile: string, workTree: string): Promise<string[]> {
  return parseStage(await git.fields(['ls-files', '-s', '-z'], { indexFile, workTree }))
    .filter((e) => e.mode === '160000')
    .map((e) => e.path);
}

/** Replaces the given gitlinks in an index with the nested repositories' files. Returns their full paths. */
async function graftNested(
  git: ShadowGit,
  workspace: Workspace,
  prefix: string,
  indexFile: string,
  links: readonly string[],
): Promise<string[]> {
  const workTree = prefix === '' ? workspace.root : join(workspace.root, prefix);
  const grafted: string[] = [];
  for (const link of links) {
    const full = prefix === '' ? link : `${prefix}/${link}`;
    const tree = await nestedTree(git, workspace, full);
    await git.run(['update-index', '-z', '--force-remove', '--stdin'], {
      indexFile,
      workTree,
      input: `${link}\0`,
    });
    await git.run(['read-tree', `--prefix=${link}/`, tree], { indexFile, workTree });
    grafted.push(full);
  }
  return grafted;
}

/** Entries that differ between two trees. */
function treeChanges(git: ShadowGit, base: string, tree: string): Promise<RawChange[]> {
  return diffTrees(git, base, tree, objectsOnly(git));
}

/** Files added or changed since the base whose blobs are over the limit: put back as the base had them. */
async function dropLargeFiles(
  git: ShadowGit,
  changes: readonly RawChange[],
  limit: number,
): Promise<SkippedFile[]> {
  const blobs = changes.filter((e) => e.newMode === '100644' || e.newMode === '100755');
  if (blobs.length === 0) return [];
  const sizes = (
    await git.text(['cat-file', '--batch-check=%(objectsize)'], {
      input: blobs.map((e) => `${e.newBlob ?? ''}\n`).join(''),
    })
  ).split('\n');
  const skipped: SkippedFile[] = [];
  const restore: Buffer[] = [];
  blobs.forEach((entry, i) => {
    const bytes = Number(sizes[i]);
    if (!(bytes > limit)) return;
    skipped.push({ path: entry.path, bytes });
    // The path as git's bytes: a name that is not UTF-8 would otherwise name another file.
    const before = entry.oldMode === null ? `0 ${'0'.repeat(40)}` : `${entry.oldMode} ${entry.oldBlob ?? ''}`;
    restore.push(Buffer.from(`${before}\t`), entry.pathBytes, Buffer.from([0]));
  });
  if (restore.length > 0)
    await git.run(['update-index', '-z', '--index-info'], { input: Buffer.concat(restore) });
  return skipped;
}

export interface SnapshotOptions {
  /** Files larger than this are left out. */
  maxFileBytes: number;
}

/**
 * Writes the workspace's current state as a tree in the shadow repository. If the shadow's
 * index or its last tree names an object that is gone (content the user's gc removed before
 * checkpoints owned their objects), the index is started afresh once: a damaged checkpoint
 * must never stop the next one from being taken.
 */
export async function snapshot(
  git: ShadowGit,
  workspace: Workspace,
  options: SnapshotOptions,
): Promise<Snapshot> {
  await checkIndexOnce(git);
  let snap: Snapshot;
  try {
    snap = await snapshotOnce(git, workspace, options);
  } catch (error) {
    if (missingObject(error) === null) throw error;
    await resetSnapshotIndex(git);
    snap = await snapshotOnce(git, workspace, options);
  }
  // The index now names the user's blobs (seeded, or unchanged since): own them at once, so a
  // user's gc before the next checkpoint cannot leave the index naming a lost object.
  await ownBorrowedObjects(git);
  return snap;
}

/** Written once the shadow's index is known to name only objects the shadow owns. */
const OWNED_MARK = 'aide-owns-objects';

/**
 * A shadow written before checkpoints owned their objects may have an index naming a blob the
 * user's gc removed. write-tree does not notice (its cached trees are trusted), and every later
 * checkpoint would name the lost blob too. So, once per shadow, every blob of the index is
 * checked (one cat-file over the index), and an index naming a missing one starts afresh.
 */
async function checkIndexOnce(git: ShadowGit): Promise<void> {
  const mark = join(git.location.gitDir, OWNED_MARK);
  if (
    await stat(mark).then(
      () => true,
      () => false,
    )
  )
    return;
  const indexExists = await stat(git.location.indexFile).then(
    () => true,
    () => false,
  );
  if (indexExists) {
    const shas = parseStage(await git.fields(['ls-files', '-s', '-z']))
      .filter((e) => e.mode !== '160000')
      .map((e) => e.sha);
    const out =
      shas.length === 0
        ? ''
        : await git.text(['cat-file', '--batch-check=%(objectname)'], {
            input: [...new Set(shas)].map((sha) => `${sha}\n`).join(''),
          });
    if (/ missing$/m.test(out)) await resetSnapshotIndex(git);
  }
  await ownBorrowedObjects(git);
  await writeFile(mark, 'the index names only objects of this shadow\n');
}

async function snapshotOnce(
  git: ShadowGit,
  workspace: Workspace,
  options: SnapshotOptions,
): Promise<Snapshot> {
  const lastFile = join(git.location.gitDir, LAST_TREE_FILE);
  const indexExists = await stat(git.location.indexFile).then(
    () => true,
    () => false,
  );
  let base = indexExists ? (await readFile(lastFile, 'utf8').catch(() => '')).trim() : '';
  let firstRun = !indexExists || base === '';
  if (!indexExists && (await seedIndex(git, workspace))) {
    // Seeded from the user's index: blobs of the user's HEAD are stored already, whatever their size.
    base = workspace.user?.headTree ?? '';
    firstRun = true;
  }
  if (base === '') base = EMPTY_TREE;
  await git.run(['add', '-A', '--', ':/']);
  // Paths aide wrote are captured even when ignored (watched-paths.ts).
  await captureWatched(git, workspace.root);
  // The first run must look at every entry for gitlinks (committed submodules); after it, nested
  // repositories are ordinary folders in the index and a gitlink that appears is a change.
  const nested = firstRun
    ? await graftNested(
        git,
        workspace,
        '',
        git.location.indexFile,
        await gitlinksIn(git, git.location.indexFile, workspace.root),
      )
    : [];
  // write-tree, then compare trees: diff-tree reads objects only, so the (large) index is read
  // once less than with diff-index (bench/snapshot: a 50k-file index costs ~100 ms a read).
  let tree = await git.text(['write-tree']);
  let changes = await treeChanges(git, base, tree);
  const links = changes.filter((c) => c.newMode === '160000').map((c) => c.path);
  if (links.length > 0) {
    nested.push(...(await graftNested(git, workspace, '', git.location.indexFile, links)));
    tree = await git.text(['write-tree']);
    changes = await treeChanges(git, base, tree);
  }
  const skipped = await dropLargeFiles(git, changes, options.maxFileBytes);
  if (skipped.length > 0) tree = await git.text(['write-tree']);
  const changed = changes.length - skipped.filter((s) => changes.some((c) => c.path === s.path)).length;
  await writeFile(`${lastFile}.tmp`, `${tree}\n`);
  await rename(`${lastFile}.tmp`, lastFile);
  return { tree, skipped, nested, changed };
}

/**
 * A snapshot after aide's own writes to known paths (workspace-relative, '/'-separated): the
 * last snapshot's index with just those paths updated, then write-tree. No walk of the work
 * tree, so it costs the same at any size (the known-paths save of bench/snapshot). What else
 * changed since the last snapshot is not seen: only for paths aide wrote itself, where a full
 * snapshot was taken just before. Falls back to a full snapshot when there is no last snapshot
 * to start from or git refuses a path (one behind a symlink, a folder now).
 */
export async function snapshotPaths(
  git: ShadowGit,
  workspace: Workspace,
  paths: readonly string[],
  options: SnapshotOptions,
): Promise<Snapshot> {
  const lastFile = join(git.location.gitDir, LAST_TREE_FILE);
  const base = (await readFile(lastFile, 'utf8').catch(() => '')).trim();
  const marked = await stat(join(git.location.gitDir, OWNED_MARK)).then(
    () => true,
    () => false,
  );
  const wanted = [...new Set(paths)].filter(
    (p) =>
      p !== '' &&
      !p.split('/').some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git'),
  );
  if (base === '' || !marked || wanted.length !== paths.length) return snapshot(git, workspace, options);
  // A file over the limit takes the full snapshot's way (put back as the base had it): sizes from
  // lstat here save a cat-file per save.
  const sizes = await Promise.all(
    wanted.map((p) =>
      lstat(join(workspace.root, ...p.split('/'))).then(
        (i) => i.size,
        () => 0,
      ),
    ),
  );
  if (sizes.some((size) => size > options.maxFileBytes)) return snapshot(git, workspace, options);
  try {
    // --add --remove: new files enter, deleted ones leave; ignored ones are aide's own and kept
    // (the watched paths rule), as the full snapshot keeps them by force.
    await git.run(['update-index', '--add', '--remove', '-z', '--stdin'], {
      input: wanted.map((p) => `${p}\0`).join(''),
    });
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    return snapshot(git, workspace, options);
  }
  const tree = await git.text(['write-tree']);
  const changed = (await git.fields(['diff-tree', '-r', '-z', '--name-only', '--no-renames', base, tree]))
    .length;
  await writeFile(`${lastFile}.tmp`, `${tree}\n`);
  await rename(`${lastFile}.tmp`, lastFile);
  return { tree, skipped: [], nested: [], changed };
}

/** Forgets the shadow's index (the next snapshot starts from the user's index again). */
export async function resetSnapshotIndex(git: ShadowGit): Promise<void> {
  await rm(git.location.indexFile, { force: true });
  await rm(join(git.location.gitDir, LAST_TREE_FILE), { force: true });
  // The ignored files aide wrote were in the index by force: they must be forced in again.
  await repend(git);
}
