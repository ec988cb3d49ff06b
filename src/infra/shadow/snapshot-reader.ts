/**
 * Plan mode's RepoReader: one tree of the shadow repository (a snapshot or a checkpoint), read
 * from git's objects only. It never reads the working tree, so nothing changes under the model
 * while it reads, files the user's .gitignore leaves out are not there at all, and a symlink is
 * an entry whose blob is its target's text: it is never followed, inside the repository or out.
 *
 * - The listing is one `git ls-tree -r -l -z` (paths, modes, sizes, blob ids), read once.
 * - Blobs come through one `git cat-file --batch` kept running (scratch/object-reader.ts): the
 *   repository map reads thousands of files, and a git per file would cost 5-50 ms each.
 * - Search is `git grep` against the tree (snapshot-search.ts).
 *
 * Left out of the listing, and so missing to every read and search:
 * - submodules (gitlinks, mode 160000): their content is another repository, not in this tree
 *   (aide's own snapshots capture nested repositories as files, so only a tree made another way
 *   has them);
 * - paths whose bytes are not UTF-8: the model could only name them by a decoded, different
 *   name. They are counted in `unreadableNames`.
 */
import type {
  RepoFile,
  RepoRead,
  RepoReader,
  SearchOutcome,
  SearchRequest,
} from '../../core/ports/repo-reader.js';
import type { ShadowGit } from './git.js';
import { ObjectReader, objectsOnly } from './scratch/object-reader.js';
import { searchTree } from './snapshot-search.js';

/** The tree's entries as the reader keeps them. */
interface Listing {
  files: RepoFile[];
  byPath: Map<string, RepoFile>;
  /** Every folder that holds a listed file. */
  folders: Set<string>;
  unreadableNames: number;
  submodules: string[];
}

const KINDS: Readonly<Record<string, RepoFile['kind']>> = {
  '100644': 'file',
  '100664': 'file',
  '100755': 'executable',
  '120000': 'symlink',
};

/** Parses `ls-tree -r -l -z`: "<mode> <type> <id> <size>\t<path>\0" per entry. */
function parseListing(stdout: Buffer): Listing {
  const listing: Listing = {
    files: [],
    byPath: new Map(),
    folders: new Set(),
    unreadableNames: 0,
    submodules: [],
  };
  let at = 0;
  while (at < stdout.length) {
    const end = stdout.indexOf(0, at);
    const record = stdout.subarray(at, end === -1 ? stdout.length : end);
    at = end === -1 ? stdout.length : end + 1;
    const tab = record.indexOf(0x09);
    if (tab === -1) continue;
    const [mode = '', , blob = '', size = ''] = record.toString('latin1', 0, tab).split(/ +/);
    const pathBytes = record.subarray(tab + 1);
    const path = pathBytes.toString('utf8');
    if (!Buffer.from(path, 'utf8').equals(pathBytes)) {
      listing.unreadableNames++;
      continue;
    }
    if (mode === '160000') {
      listing.submodules.push(path);
      continue;
    }
    const file: RepoFile = { path, bytes: Number(size), kind: KINDS[mode] ?? 'file', blob };
    listing.files.push(file);
    listing.byPath.set(path, file);
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1))
      listing.folders.add(path.slice(0, slash));
  }
  // ls-tree lists in git's order (bytes, a folder's entries where `name/` sorts); the port promises path order.
  listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return listing;
}

/** A RepoReader over one tree of the shadow repository. Build it with openSnapshotReader. */
export class SnapshotReader implements RepoReader {
  private listing: Promise<Listing> | undefined;
  private readonly objects: ObjectReader;

  constructor(
    private readonly git: ShadowGit,
    /** The tree's full id. */
    readonly id: string,
  ) {
    this.objects = new ObjectReader(git);
  }

  private entries(): Promise<Listing> {
    this.listing ??= this.git
      .run(['ls-tree', '-r', '-l', '-z', '--full-tree', this.id], objectsOnly(this.git))
      .then((result) => parseListing(result.stdout));
    return this.listing;
  }

  async listFiles(): Promise<RepoFile[]> {
    return [...(await this.entries()).files];
  }

  /** How many entries were left out because their names are not UTF-8. */
  async unreadableNames(): Promise<number> {
    return (await this.entries()).unreadableNames;
  }

  /** Submodules (gitlinks) of the tree, left out of the listing. */
  async submodules(): Promise<string[]> {
    return [...(await this.entries()).submodules];
  }

  async readFile(path: string): Promise<RepoRead> {
    const listing = await this.entries();
    const file = listing.byPath.get(path);
    if (file === undefined)
      return listing.folders.has(path) || path === ''
        ? { ok: false, reason: 'directory' }
        : { ok: false, reason: 'missing' };
    const bytes = await this.blob(file.blob);
    if (file.kind === 'symlink') return { ok: false, reason: 'symlink', target: bytes.toString('utf8') };
    return { ok: true, bytes };
  }

  private async blob(id: string): Promise<Buffer> {
    const object = await this.objects.read(id);
    if (object?.type !== 'blob')
      throw new Error(`blob ${id} of snapshot ${this.id} is missing from the shadow repository`);
    return object.content;
  }

  async search(request: SearchRequest): Promise<SearchOutcome> {
    const listing = await this.entries();
    const readable = (path: string) => {
      const kind = listing.byPath.get(path)?.kind;
      return kind === 'file' || kind === 'executable';
    };
    const isFile = request.path !== undefined && listing.byPath.has(request.path);
    return searchTree(this.git, this.id, request, readable, isFile);
  }

  /** Ends the `cat-file` process (an idle one never keeps aide running, so this is for tidiness). */
  close(): void {
    this.objects.close();
  }
}

/**
 * A reader over `treeish` (a tree, or a commit such as a checkpoint: its tree is read) of the
 * shadow repository of `source` (a ShadowStore, a ShadowReader, or its ShadowGit). The lead's
 * `aide plan` takes the snapshot under the store's lock (`store.snapshot()`), then builds this
 * with its `tree`. Throws when the shadow has no such tree.
 */
export async function openSnapshotReader(
  source: ShadowGit | { git: ShadowGit },
  treeish: string,
): Promise<SnapshotReader> {
  const git = 'git' in source ? source.git : source;
  const tree = await git.text(['rev-parse', '--verify', '--quiet', '--end-of-options', `${treeish}^{tree}`], {
    ...objectsOnly(git),
    okCodes: [1],
  });
  if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new Error(`the shadow repository has no tree ${treeish}`);
  return new SnapshotReader(git, tree);
}
