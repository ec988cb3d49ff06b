/**
 * One `git cat-file --batch` per scratch, kept running: a move reads the trees it compares and
 * the blobs it writes through a pipe instead of starting git for each (a start costs 5 ms on a
 * quiet machine and 20-55 ms on this one under load, more than all the rest of a move).
 *
 * Trees are compared here the way `diff-tree -r` does, skipping subtrees whose ids are equal, so
 * the work grows with what changed, not with the repository.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { holdWhileBusy } from '../idle-child.js';
import { join } from 'node:path';
import type { TreeChange } from '../../../core/ports/changes.js';
import type { GitCallOptions, ShadowGit } from '../git.js';

/**
 * Options for git calls that read objects only. `diff-tree` reads the whole index even though
 * it never uses it (80 ms of its 85 ms at 50k files here); an index file that does not exist
 * costs nothing. Nothing ever creates this file.
 */
export function objectsOnly(git: ShadowGit): GitCallOptions {
  return { indexFile: join(git.location.gitDir, 'aide-no-index') };
}

export interface GitObject {
  id: string;
  type: string;
  content: Buffer;
}

interface Waiter {
  resolve(object: GitObject | null): void;
  reject(error: Error): void;
}

interface TreeEntry {
  /** The name decoded as UTF-8. */
  name: string;
  mode: string;
  id: string;
  /** False when the name's bytes are not UTF-8 (its decoded name is not the file's name). */
  utf8?: boolean;
}

const TREE_MODE = '40000';
const ABSENT: TreeEntry = { name: '', mode: '000000', id: '' };

/** One running `cat-file --batch` and what it has written that no read has taken yet. */
class BatchProcess {
  readonly waiting: Waiter[] = [];
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Header of the object whose content is still arriving. */
  private header: { id: string; type: string; size: number } | null = null;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    private readonly ended: (batch: BatchProcess) => void,
  ) {
    // Held only while a read waits (request()).
    this.hold(false);
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.drain();
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      this.fail(error);
    });
    child.on('close', (code) => {
      this.fail(new Error(`git cat-file --batch ended (exit ${code ?? 'signal'}): ${stderr.trim()}`));
    });
  }

  request(rev: string): Promise<GitObject | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.hold(true);
      this.child.stdin.write(`${rev}\n`);
    });
  }

  private hold(busy: boolean): void {
    holdWhileBusy(this.child, busy);
  }

  private fail(error: Error): void {
    this.ended(this);
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }

  /** What has arrived, as one buffer (joined at most once per object). */
  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private take(bytes: number): Buffer {
    const all = this.joined();
    const rest = all.subarray(bytes);
    this.chunks = rest.length === 0 ? [] : [rest];
    this.buffered = rest.length;
    return all.subarray(0, bytes);
  }

  private settle(waiter: Waiter, object: GitObject | null): void {
    this.waiting.shift();
    waiter.resolve(object);
    this.hold(this.waiting.length > 0);
  }

  /** Answers waiting reads, in order, from what `cat-file --batch` has written so far. */
  private drain(): void {
    for (;;) {
      const waiter = this.waiting[0];
      if (waiter === undefined) return;
      if (this.header === null) {
        const eol = this.joined().indexOf(0x0a);
        if (eol === -1) return;
        const [id = '', type = '', size] = this.take(eol + 1)
          .toString('utf8')
          .trimEnd()
          .split(' ');
        // "<rev> missing" and "<rev> ambiguous" have no size.
        if (size === undefined) {
          this.settle(waiter, null);
          continue;
        }
        this.header = { id, type, size: Number(size) };
      }
      // The content, then a newline.
      if (this.buffered < this.header.size + 1) return;
      const content = Buffer.from(this.take(this.header.size + 1).subarray(0, this.header.size));
      const { id, type } = this.header;
      this.header = null;
      this.settle(waiter, { id, type, content });
    }
  }
}

/** How many tree entries an ObjectReader keeps parsed (about 100 bytes each). */
const TREE_CACHE_ENTRIES = 100_000;

export class ObjectReader {
  private batch: BatchProcess | null = null;
  /** Trees read, by id, least recently used first; `size` counted once parsed. */
  private readonly trees = new Map<
    string,
    { entries: Promise<ReadonlyMap<string, TreeEntry>>; size: number }
  >();
  private treeEntries = 0;

  constructor(
    private readonly git: ShadowGit,
    /** How many tree entries to keep parsed (tests make it small). */
    private readonly treeCacheEntries = TREE_CACHE_ENTRIES,
    /** How git is run: objects only, unless `:path` revisions are to be read from an index. */
    private readonly options: GitCallOptions = objectsOnly(git),
  ) {}

  /** The object a revision names (`<id>`, `<rev>^{tree}`, `<tree>:<path>`, `:<path>` of the index), or null when there is none. */
  read(rev: string): Promise<GitObject | null> {
    if (/[\n\r]/.test(rev) || rev === '')
      return Promise.reject(new Error(`not a revision: ${JSON.stringify(rev)}`));
    return this.process().request(rev);
  }

  /**
   * Starts git now, before the first read is known: its start-up (a few milliseconds) then runs
   * beside the work that finds what to read. Idle, it keeps no aide process alive.
   */
  start(): void {
    this.process();
  }

  private process(): BatchProcess {
    this.batch ??= new BatchProcess(this.git.start(['cat-file', '--batch'], this.options), (ended) => {
      if (this.batch === ended) this.batch = null;
    });
    return this.batch;
  }

  /** Ends the git process once it has answered the reads already asked (it also ends when aide exits: its stdin closes). */
  close(): void {
    this.batch?.child.stdin.end();
    this.batch = null;
  }

  /** The id of the tree a revision names, or null. */
  async treeId(rev: string): Promise<string | null> {
    const object = await this.read(`${rev}^{tree}`);
    return object?.type === 'tree' ? object.id : null;
  }

  /**
   * The entries of a tree, by their names' bytes. Kept once read (an id names its content, so a
   * kept tree is never stale): a step's capture, its checkpoint's ownership walk and the next
   * step's move read the same few folders' trees, each read a round trip to git. At most
   * treeCacheEntries entries in all are kept, the least recently used given up first.
   */
  tree(id: string): Promise<ReadonlyMap<string, TreeEntry>> {
    const kept = this.trees.get(id);
    if (kept !== undefined) {
      this.trees.delete(id);
      this.trees.set(id, kept);
      return kept.entries;
    }
    const entries = this.parsedTree(id);
    const record = { entries, size: 0 };
    this.trees.set(id, record);
    entries.then(
      (parsed) => {
        if (this.trees.get(id) !== record) return;
        record.size = parsed.size;
        this.treeEntries += parsed.size;
        for (const [oldest, old] of this.trees) {
          if (this.treeEntries <= this.treeCacheEntries || oldest === id) break;
          this.trees.delete(oldest);
          this.treeEntries -= old.size;
        }
      },
      () => {
        if (this.trees.get(id) === record) this.trees.delete(id);
      },
    );
    return entries;
  }

  private async parsedTree(id: string): Promise<ReadonlyMap<string, TreeEntry>> {
    const object = await this.read(id);
    if (object?.type !== 'tree') throw new Error(`${id} is not a tree`);
    const idBytes = object.id.length / 2;
    const entries = new Map<string, TreeEntry>();
    const { content } = object;
    let at = 0;
    while (at < content.length) {
      const space = content.indexOf(0x20, at);
      const nul = content.indexOf(0, space);
      const bytes = content.subarray(space + 1, nul);
      const name = bytes.toString('utf8');
      const entry: TreeEntry = {
        name,
        mode: content.toString('latin1', at, space),
        id: content.toString('hex', nul + 1, nul + 1 + idBytes),
      };
      if (!Buffer.from(name, 'utf8').equals(bytes)) entry.utf8 = false;
      // Keyed by the raw bytes: two names that are not UTF-8 may decode alike.
      entries.set(bytes.toString('latin1'), entry);
      at = nul + 1 + idBytes;
    }
    return entries;
  }

  /** Paths that differ between two trees, like `diff-tree -r --no-renames`, sorted by path. */
  async changes(from: string, to: string): Promise<TreeChange[]> {
    const out: TreeChange[] = [];
    await this.compare(from, to, '', out);
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private async compare(
    from: string | null,
    to: string | null,
    prefix: string,
    out: TreeChange[],
  ): Promise<void> {
    if (from === to) return;
    const [before, after] = await Promise.all([
      from === null ? new Map<string, TreeEntry>() : this.tree(from),
      to === null ? new Map<string, TreeEntry>() : this.tree(to),
    ]);
    const nested: Array<Promise<void>> = [];
    for (const key of new Set([...before.keys(), ...after.keys()])) {
      const a = before.get(key);
      const b = after.get(key);
      if (a !== undefined && b !== undefined && a.id === b.id && a.mode === b.mode) continue;
      const path = `${prefix}${a?.name ?? b?.name ?? ''}`;
      // Writing a decoded name would create a different file: refuse rather than guess.
      if (a?.utf8 === false || b?.utf8 === false)
        throw new Error(`cannot move the scratch: a name in "${prefix || '/'}" is not UTF-8 (${path})`);
      const aTree = a?.mode === TREE_MODE;
      const bTree = b?.mode === TREE_MODE;
      if (aTree || bTree)
        nested.push(
          this.compare(aTree ? (a?.id ?? null) : null, bTree ? (b?.id ?? null) : null, `${path}/`, out),
        );
      const aFile = a !== undefined && !aTree ? a : undefined;
      const bFile = b !== undefined && !bTree ? b : undefined;
      if (aFile === undefined && bFile === undefined) continue;
      out.push(change(path, aFile ?? ABSENT, bFile ?? ABSENT));
    }
    await Promise.all(nested);
  }
}

function kind(mode: string): string {
  return mode === '120000' || mode === '160000' ? mode : 'file';
}

/** The change at a path, as `diff-tree --raw` would report it (ABSENT: nothing on that side). */
function change(path: string, a: TreeEntry, b: TreeEntry): TreeChange {
  const action =
    a === ABSENT
      ? 'created'
      : b === ABSENT
        ? 'deleted'
        : kind(a.mode) === kind(b.mode)
          ? 'modified'
          : 'type_changed';
  return {
    path,
    action,
    oldMode: a === ABSENT ? null : a.mode.padStart(6, '0'),
    newMode: b === ABSENT ? null : b.mode.padStart(6, '0'),
    oldBlob: a === ABSENT ? null : a.id,
    newBlob: b === ABSENT ? null : b.id,
  };
}
