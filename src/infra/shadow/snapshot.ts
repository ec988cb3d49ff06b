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
import { lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from '../node/lazy-builtins.js';
import { join } from 'node:path';
import { GitCommandError, missingObject, type ShadowGit } from './git.js';
import { parseIndex } from './index-file.js';
import { diffTrees, type RawChange } from './raw-objects.js';
import { ObjectReader, objectsOnly } from './scratch/object-reader.js';
import { writtenTree } from './scratch/written-tree.js';
import type { Env, Workspace } from './shadow-repo.js';
import { ownBorrowedObjects } from './own-objects.js';
import { seedIndex } from './snapshot-seed.js';
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

/**
 * Gitlinks (mode 160000) among index entries: read from the index file itself (index-file.ts;
 * `ls-files` of a 50k-entry index costs 40-170 ms here), through git when it is not a file
 * that reader knows.
 */
async function gitlinksIn(git: ShadowGit, indexFile: string, workTree: string): Promise<string[]> {
  const bytes = await readFile(indexFile).catch(() => undefined);
  const index = bytes === undefined ? null : parseIndex(bytes);
  if (index !== null && !index.extensions.includes('link'))
    return index.entries
      .filter((e) => e.mode === '160000')
      .map((e) => Buffer.from(e.path, 'latin1').toString('utf8'));
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
  /** The user's environment: a seed reads where their global attributes file is (snapshot-seed.ts). */
  env: Env;
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
  if (!indexExists && (await seedIndex(git, workspace, options.env))) {
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
 * last snapshot's tree with just those paths hashed again and the trees on their way rebuilt
 * (scratch/written-tree.ts). Neither the work tree nor the index is read, so it costs the same
 * at any size (the known-paths save of bench/snapshot). What else
 * changed since the last snapshot is not seen: only for paths aide wrote itself, where a full
 * snapshot was taken just before. Falls back to a full snapshot when there is no last snapshot
 * to start from or a path is what that does not model (one behind a symlink, a folder now, in a
 * nested repository).
 */
export async function snapshotPaths(
  git: ShadowGit,
  workspace: Workspace,
  paths: readonly string[],
  options: SnapshotOptions,
  reader?: ObjectReader,
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
  // The caller's reader, kept running between saves, saves a git process per save.
  const objects = reader ?? new ObjectReader(git);
  try {
    const fileMode = await trustsFileMode(git);
    // Ignored ones are aide's own and kept (the watched paths rule), as the full snapshot keeps
    // them by force. The index is left as it was: the next full snapshot's stat check re-hashes
    // these paths as it does every file.
    const tree = await writtenTree(git, objects, {
      base,
      paths: wanted,
      root: workspace.root,
      fileMode,
      options: {},
      keepIgnored: true,
      direct: true,
    });
    if (tree === null) return await snapshot(git, workspace, options);
    const changed = (await objects.changes(base, tree)).length;
    await writeFile(`${lastFile}.tmp`, `${tree}\n`);
    await rename(`${lastFile}.tmp`, lastFile);
    return { tree, skipped: [], nested: [], changed };
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    return await snapshot(git, workspace, options);
  } finally {
    if (reader === undefined) objects.close();
  }
}

/** core.fileMode of each shadow (unset: true), read once per process: aide alone writes its config. */
const fileModes = new Map<string, Promise<boolean>>();

function trustsFileMode(git: ShadowGit): Promise<boolean> {
  let trusted = fileModes.get(git.location.gitDir);
  if (trusted === undefined) {
    trusted = git
      .text(['config', '--bool', '--get', 'core.fileMode'], { okCodes: [1] })
      .then((value) => value !== 'false');
    fileModes.set(git.location.gitDir, trusted);
    // A failed read is not kept: the next call asks git again.
    trusted.catch(() => fileModes.delete(git.location.gitDir));
  }
  return trusted;
}

/** Forgets the shadow's index (the next snapshot starts from the user's index again). */
export async function resetSnapshotIndex(git: ShadowGit): Promise<void> {
  await rm(git.location.indexFile, { force: true });
  await rm(join(git.location.gitDir, LAST_TREE_FILE), { force: true });
  // The ignored files aide wrote were in the index by force: they must be forced in again.
  await repend(git);
}
