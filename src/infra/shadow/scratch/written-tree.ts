/**
 * A scratch's capture when only aide wrote in it since its files matched a known tree (the
 * known tree plus the paths aide wrote, scratch-checkout.ts): the written files hashed as
 * `git add` hashes them (`hash-object -w --stdin-paths`, the attributes' filters applied), and
 * only the trees on their way rebuilt from the known tree (read through the scratch's
 * ObjectReader, written by one `mktree --batch`). Neither the index nor any other file is read:
 * each git process that reads or writes a 30k-file index costs ~30 ms here, so the capture's
 * cost grows with the paths written and their depth, not with the repository.
 *
 * The tree is the one `add -A` + `write-tree` would record for the same files (tested against a
 * full scan): a new file git ignores is left out, a tracked one kept; a deleted file leaves, and
 * a folder it empties with it; the execute bit is read as git reads it (core.fileMode). Anything
 * this does not model — a symlink or other non-file at a written path, a symlink or file on the
 * way to one, a submodule or nested repository, a name git would read quoted — gives null:
 * the caller scans every file then. The known-paths snapshot of the workspace (snapshot.ts,
 * checkpointWritten) builds its tree the same way, keeping ignored files.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitCallOptions, ShadowGit } from '../git.js';
import { objectId, writeLooseObject } from '../loose-objects.js';
import type { ObjectReader } from './object-reader.js';

const TREE = '40000';

/** A tree entry by its name's bytes (latin1, as ObjectReader keys them). */
interface Entry {
  mode: string;
  id: string;
}

/** The paths written, as a trie of names: `set` is what a written path holds now (null: nothing). */
interface Node {
  children: Map<string, Node>;
  set?: Entry | null;
}

/** What is at a written path now. */
type Found = { kind: 'file'; executable: boolean } | { kind: 'gone' };

/** What a written tree is built from. */
export interface WrittenTreeRequest {
  /** The tree the scratch's files matched before the writes. */
  base: string;
  /** Scratch-relative, '/'-separated paths, each checked plainly inside (no `.`, `..`, `.git`). */
  paths: readonly string[];
  /** The scratch's folder. */
  root: string;
  /** Whether git trusts the execute bit (core.fileMode); false keeps a tracked file's mode. */
  fileMode: boolean;
  /** The scratch's git options (its work tree and private index, for attributes and ignore rules). */
  options: GitCallOptions;
  /**
   * New files git ignores are taken too (a snapshot of aide's own writes keeps them, as the
   * watched paths rule says); otherwise they are left out, as `add -A` leaves them.
   */
  keepIgnored?: boolean;
  /**
   * Blobs and trees are written by aide (loose-objects.ts) instead of `hash-object` and
   * `mktree`: two git processes fewer. Only where no attribute converts a file's bytes, as in
   * the workspace's shadow (its info/attributes turns every conversion off).
   */
  direct?: boolean;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

const latin1 = (name: string) => Buffer.from(name, 'utf8').toString('latin1');

/** What lies on disk at each path, or null when something on the way is not a plain folder or file. */
async function findOnDisk(root: string, paths: readonly string[]): Promise<Map<string, Found> | null> {
  const folders = new Map<string, Promise<'dir' | 'missing' | 'other'>>();
  const folderKind = (path: string) => {
    let kind = folders.get(path);
    if (kind === undefined) {
      kind = lstat(path).then(
        (info) => (info.isDirectory() ? 'dir' : 'other'),
        (error: unknown) => (errorCode(error) === 'ENOENT' ? 'missing' : 'other'),
      );
      folders.set(path, kind);
    }
    return kind;
  };
  const found = new Map<string, Found>();
  for (const path of paths) {
    const segments = path.split('/');
    let dir = root;
    let gone = false;
    for (const segment of segments.slice(0, -1)) {
      dir = join(dir, segment);
      const kind = await folderKind(dir);
      if (kind === 'other') return null;
      if (kind === 'missing') {
        gone = true;
        break;
      }
      // A nested repository on the way: git records it otherwise (snapshot.ts grafts it).
      if ((await folderKind(join(dir, '.git'))) !== 'missing') return null;
    }
    if (gone) {
      found.set(path, { kind: 'gone' });
      continue;
    }
    const info = await lstat(join(root, ...segments)).catch((error: unknown) =>
      errorCode(error) === 'ENOENT' ? null : undefined,
    );
    if (info === undefined) return null;
    if (info === null) found.set(path, { kind: 'gone' });
    else if (info.isFile()) found.set(path, { kind: 'file', executable: (info.mode & 0o100) !== 0 });
    else return null;
  }
  return found;
}

/** The base tree's entry at a path (null: absent), or undefined when a non-folder is on its way. */
async function baseEntry(objects: Trees, base: string, path: string): Promise<Entry | null | undefined> {
  const segments = path.split('/');
  let tree = base;
  for (const [i, segment] of segments.entries()) {
    const entry = (await objects.tree(tree)).get(latin1(segment));
    if (entry === undefined) return null;
    if (i === segments.length - 1) return { mode: entry.mode, id: entry.id };
    if (entry.mode !== TREE) return undefined;
    tree = entry.id;
  }
  return null;
}

/** The reader's trees, each read once per call (the walk down to each path and the rebuild read the same ones). */
type Trees = Pick<ObjectReader, 'tree'>;

function cachedTrees(reader: ObjectReader): Trees {
  const read = new Map<string, ReturnType<ObjectReader['tree']>>();
  return {
    tree: (id) => {
      let entries = read.get(id);
      if (entries === undefined) read.set(id, (entries = reader.tree(id)));
      return entries;
    },
  };
}

/** git's order of tree entries: by name's bytes, a folder's as if it ended in '/'. */
function sortKey(name: string, mode: string): Buffer {
  return Buffer.from(mode === TREE ? `${name}/` : name, 'latin1');
}

const TYPES: Record<string, string> = { [TREE]: 'tree', '160000': 'commit' };

/** A tree to write: its entries in git's order, and the id git will give it. */
interface NewTree {
  id: string;
  entries: Array<[string, Entry]>;
}

/** A tree object's content: each entry's mode, name and binary id, in the order given. */
function treeContent(entries: ReadonlyArray<[string, Entry]>): Buffer {
  return Buffer.concat(
    entries.flatMap(([name, e]) => [
      Buffer.from(`${e.mode} `),
      Buffer.from(name, 'latin1'),
      Buffer.from([0]),
      Buffer.from(e.id, 'hex'),
    ]),
  );
}

/** A tree's id as git computes it (SHA-1 or SHA-256 like the base). */
function treeId(entries: ReadonlyArray<[string, Entry]>, algorithm: Algorithm): string {
  return objectId('tree', treeContent(entries), algorithm);
}

type Algorithm = 'sha1' | 'sha256';

/** The tree at `tree` (null: none) with the trie's changes; null when it ends up empty (git keeps no empty folder). */
async function rebuild(
  objects: Trees,
  tree: string | null,
  node: Node,
  algorithm: Algorithm,
  out: NewTree[],
): Promise<Entry | null> {
  const entries = new Map<string, Entry>();
  if (tree !== null)
    for (const [name, e] of await objects.tree(tree)) entries.set(name, { mode: e.mode, id: e.id });
  for (const [name, child] of node.children) {
    if (child.set !== undefined) {
      if (child.set === null) entries.delete(name);
      else entries.set(name, child.set);
      continue;
    }
    const now = entries.get(name);
    const sub = await rebuild(objects, now?.mode === TREE ? now.id : null, child, algorithm, out);
    if (sub === null) entries.delete(name);
    else entries.set(name, sub);
  }
  if (entries.size === 0) return null;
  const sorted = [...entries].sort(([a, x], [b, y]) =>
    Buffer.compare(sortKey(a, x.mode), sortKey(b, y.mode)),
  );
  const id = treeId(sorted, algorithm);
  if (id !== tree) out.push({ id, entries: sorted });
  return { mode: TREE, id };
}

/** The trees in one `mktree -z --batch` (children before parents); throws if git names one otherwise. */
async function writeTrees(
  git: ShadowGit,
  trees: readonly NewTree[],
  options: GitCallOptions,
  direct: Algorithm | null,
): Promise<void> {
  if (trees.length === 0) return;
  if (direct !== null) {
    for (const tree of trees)
      await writeLooseObject(git.location.gitDir, 'tree', treeContent(tree.entries), direct);
    return;
  }
  const input = trees.flatMap((tree, i) => [
    ...(i === 0 ? [] : [Buffer.from([0])]),
    ...tree.entries.flatMap(([name, e]) => [
      Buffer.from(`${e.mode.padStart(6, '0')} ${TYPES[e.mode] ?? 'blob'} ${e.id}\t`),
      Buffer.from(name, 'latin1'),
      Buffer.from([0]),
    ]),
  ]);
  const ids = (
    await git.text(['mktree', '-z', '--batch'], { ...options, input: Buffer.concat(input) })
  ).split('\n');
  const wrong = trees.findIndex((tree, i) => ids[i] !== tree.id);
  if (wrong !== -1)
    throw new Error(
      `mktree wrote ${ids[wrong] ?? 'nothing'} where aide computed the tree ${trees[wrong]?.id}`,
    );
}

/** See the module comment: the captured tree, or null when the caller must capture another way. */
export async function writtenTree(
  git: ShadowGit,
  reader: ObjectReader,
  request: WrittenTreeRequest,
): Promise<string | null> {
  const { base, root, options } = request;
  const objects = cachedTrees(reader);
  const paths = [...new Set(request.paths)].sort();
  if (paths.length === 0) return base;
  // --stdin-paths reads lines and unquotes a leading '"'.
  if (paths.some((p) => p.includes('\n') || p.includes('\r') || p.startsWith('"'))) return null;
  // A written path that is also a folder of another one (a file become a folder) is left to the scan.
  const all = new Set(paths);
  if (paths.some((p) => p.split('/').some((_, i, s) => i > 0 && all.has(s.slice(0, i).join('/')))))
    return null;
  const onDisk = await findOnDisk(root, paths);
  if (onDisk === null) return null;
  const before = new Map<string, Entry | null>();
  for (const path of paths) {
    const entry = await baseEntry(objects, base, path);
    if (entry === undefined || entry?.mode === '160000') return null;
    before.set(path, entry);
  }
  const files = paths.filter((p) => onDisk.get(p)?.kind === 'file');
  // New files git ignores stay out, as `add -A` leaves them; tracked ones are never reported.
  const fresh = files.filter((p) => {
    const old = before.get(p) ?? null;
    return old === null || old.mode === TREE;
  });
  const ignored = new Set(
    fresh.length === 0 || request.keepIgnored === true
      ? []
      : await git.fields(['check-ignore', '-z', '--stdin'], {
          ...options,
          input: fresh.map((p) => `${p}\0`).join(''),
          okCodes: [1],
        }),
  );
  const hashed = files.filter((p) => !ignored.has(p));
  const algorithm = base.length === 64 ? 'sha256' : 'sha1';
  const direct = request.direct === true ? algorithm : null;
  const ids = await hashFiles(git, root, hashed, options, direct);
  if (ids.length !== hashed.length)
    throw new Error(`hash-object gave ${ids.length} ids for ${hashed.length} files`);
  const idOf = new Map(hashed.map((p, i) => [p, ids[i] ?? '']));
  const trie: Node = { children: new Map() };
  const place = (path: string, set: Entry | null) => {
    let node = trie;
    for (const segment of path.split('/')) {
      const key = latin1(segment);
      let next = node.children.get(key);
      if (next === undefined) node.children.set(key, (next = { children: new Map() }));
      node = next;
    }
    node.set = set;
  };
  for (const path of paths) {
    const found = onDisk.get(path);
    const old = before.get(path) ?? null;
    const id = idOf.get(path);
    if (found?.kind !== 'file') place(path, null);
    else if (id !== undefined) place(path, { mode: fileMode(found.executable, old, request.fileMode), id });
    else if (old?.mode === TREE) place(path, null);
  }
  const trees: NewTree[] = [];
  const top = await rebuild(objects, base, trie, algorithm, trees);
  if (top === null)
    return direct === null
      ? git.text(['mktree', '-z'], { ...options, input: '' })
      : writeLooseObject(git.location.gitDir, 'tree', Buffer.alloc(0), direct);
  await writeTrees(git, trees, options, direct);
  return top.id;
}

/** The written files stored as blobs: by `hash-object -w`, or by aide as they are on disk (`direct`). */
async function hashFiles(
  git: ShadowGit,
  root: string,
  paths: readonly string[],
  options: GitCallOptions,
  direct: Algorithm | null,
): Promise<string[]> {
  if (paths.length === 0) return [];
  if (direct !== null)
    return Promise.all(
      paths.map(async (p) =>
        writeLooseObject(git.location.gitDir, 'blob', await readFile(join(root, ...p.split('/'))), direct),
      ),
    );
  const input = paths.map((p) => `${p}\n`).join('');
  return (await git.text(['hash-object', '-w', '--stdin-paths'], { ...options, input })).split('\n');
}

/** A file's mode as `git add` records it: the execute bit, or with core.fileMode false the tracked mode. */
function fileMode(executable: boolean, old: Entry | null, trusted: boolean): string {
  if (trusted) return executable ? '100755' : '100644';
  return old !== null && (old.mode === '100755' || old.mode === '100644') ? old.mode : '100644';
}
