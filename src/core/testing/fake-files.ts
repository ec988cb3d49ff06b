/**
 * The shadow repository, a file system and a scratch copy, in memory, for unit tests of the act
 * flows (the real ones are tested against real git in infra/shadow). One FakeShadow holds the
 * trees, checkpoints and blobs that the scratch and the recorder share; files are text.
 */
import type { FileStat, FileSystem, FileWrite, WriteContent } from '../ports/files.js';
import type { IgnoredPath, Scratch, ScratchCapture, ScratchMove } from '../ports/scratch.js';
import type { ChangedFile, TreeChange } from '../ports/changes.js';

/** Files by path: a tree's content. */
export type Files = ReadonlyMap<string, string>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** All of a write's bytes in one array, its pieces joined (a piece may end inside a character). */
function bytesOf(content: WriteContent): Uint8Array {
  if (content instanceof Uint8Array) return content;
  // Copied: a piece is valid only until the next one is asked for.
  const pieces = Array.from(content.chunks(), (piece) => piece.slice());
  const bytes = new Uint8Array(pieces.reduce((n, piece) => n + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}

/** Trees and checkpoints by id, and blobs by content: the shadow repository, in memory. */
export class FakeShadow {
  private readonly trees = new Map<string, Files>();
  private readonly checkpoints = new Map<string, string>();
  private readonly blobs = new Map<string, string>();
  private count = 0;

  /** Records a tree; the same files give the same id. */
  tree(files: Files): string {
    const key = JSON.stringify([...files].sort(([a], [b]) => a.localeCompare(b)));
    for (const [id, known] of this.trees)
      if (JSON.stringify([...known].sort(([a], [b]) => a.localeCompare(b))) === key) return id;
    const id = `tree${++this.count}`;
    this.trees.set(id, new Map(files));
    return id;
  }

  /** A checkpoint of a tree: a new id each time. */
  checkpoint(tree: string): string {
    const id = `ckpt${++this.count}`;
    this.checkpoints.set(id, tree);
    return id;
  }

  /** The files of a tree or checkpoint. */
  files(id: string): Files {
    const files = this.trees.get(this.checkpoints.get(id) ?? id);
    if (files === undefined) throw new Error(`no tree or checkpoint ${id}`);
    return files;
  }

  blob(content: string): string {
    const id = `blob:${content}`;
    this.blobs.set(id, content);
    return id;
  }

  readBlob(id: string): string {
    const content = this.blobs.get(id);
    if (content === undefined) throw new Error(`no blob ${id}`);
    return content;
  }

  /** The changes from one set of files to another, as a scratch capture lists them. */
  changes(from: Files, to: Files): TreeChange[] {
    const paths = [...new Set([...from.keys(), ...to.keys()])].sort();
    return paths.flatMap((path): TreeChange[] => {
      const before = from.get(path);
      const after = to.get(path);
      if (before === after) return [];
      return [
        {
          path,
          action: before === undefined ? 'created' : after === undefined ? 'deleted' : 'modified',
          oldMode: before === undefined ? null : '100644',
          newMode: after === undefined ? null : '100644',
          oldBlob: before === undefined ? null : this.blob(before),
          newBlob: after === undefined ? null : this.blob(after),
        },
      ];
    });
  }

  /** A `git diff`-shaped text between two trees or checkpoints: whole files removed and added. */
  diff(from: string, to: string): string {
    return this.changedFiles(from, to)
      .map((change) => change.diff)
      .join('');
  }

  /** The files that differ between two trees or checkpoints, each with its counts and its diff. */
  changedFiles(from: string, to: string): ChangedFile[] {
    const a = this.files(from);
    const b = this.files(to);
    return this.changes(a, b).map(({ path, action }) => {
      const before = a.get(path);
      const after = b.get(path);
      const mode =
        action === 'created'
          ? 'new file mode 100644\n'
          : action === 'deleted'
            ? 'deleted file mode 100644\n'
            : '';
      const lines = (text: string | undefined) =>
        text === undefined ? [] : text.replace(/\n$/, '').split('\n');
      const removed = lines(before);
      const added = lines(after);
      const diff =
        `diff --git a/${path} b/${path}\n${mode}` +
        `--- ${before === undefined ? '/dev/null' : `a/${path}`}\n` +
        `+++ ${after === undefined ? '/dev/null' : `b/${path}`}\n@@ @@\n` +
        removed.map((l) => `-${l}\n`).join('') +
        added.map((l) => `+${l}\n`).join('');
      return { path, action, added: added.length, removed: removed.length, diff };
    });
  }
}

/** A file system of text files under absolute paths; folders are implied by the files in them. */
export class MemoryFileSystem implements FileSystem {
  readonly files = new Map<string, string>();

  readFile(path: string): Promise<Uint8Array | null> {
    const text = this.files.get(path);
    return Promise.resolve(text === undefined ? null : encoder.encode(text));
  }

  lstat(path: string): Promise<FileStat | null> {
    if (this.files.has(path)) return Promise.resolve({ kind: 'file', mode: 0o644, size: 0 });
    const folder = [...this.files.keys()].some((p) => p.startsWith(`${path}/`));
    return Promise.resolve(folder ? { kind: 'directory', mode: 0o755, size: 0 } : null);
  }

  async realpath(path: string): Promise<string | null> {
    return (await this.lstat(path)) === null ? null : path;
  }

  commit(changes: readonly FileWrite[]): Promise<void> {
    for (const change of changes) {
      if (change.kind === 'write') this.files.set(change.path, decoder.decode(bytesOf(change.content)));
      else if (change.kind === 'delete') this.files.delete(change.path);
      else throw new Error('the memory file system holds no symlinks');
    }
    return Promise.resolve();
  }

  /** The files under `root`, by relative path. */
  under(root: string): Map<string, string> {
    return new Map(
      [...this.files]
        .filter(([p]) => p.startsWith(`${root}/`))
        .map(([p, t]) => [p.slice(root.length + 1), t]),
    );
  }
}

/** A scratch copy in a MemoryFileSystem under /scratch; `ignored` paths are left out of a capture. */
export class FakeScratch implements Scratch {
  readonly path = '/scratch';
  readonly links = [];
  readonly fs = new MemoryFileSystem();
  /** Scratch-relative path → the ignore rule that leaves it out of a capture. */
  readonly ignored = new Map<string, string>();
  moves: string[] = [];
  /** For each settle() call, how many moves had been made by then. */
  settles: number[] = [];
  disposed = false;

  constructor(
    private readonly shadow: FakeShadow,
    readonly session: string,
    public base: string,
  ) {
    this.load(base);
  }

  moveTo(target: string): Promise<ScratchMove> {
    const from = this.base;
    this.moves.push(target);
    this.load(target);
    return Promise.resolve({ from, to: target, written: 0, removed: 0, swept: false });
  }

  settle(): Promise<void> {
    this.settles.push(this.moves.length);
    return Promise.resolve();
  }

  capture(): Promise<ScratchCapture> {
    const files = new Map([...this.fs.under(this.path)].filter(([p]) => !this.ignored.has(p)));
    const tree = this.shadow.tree(files);
    return Promise.resolve({
      base: this.base,
      tree,
      changes: this.shadow.changes(this.shadow.files(this.base), files),
    });
  }

  async changedFiles(capture?: ScratchCapture): Promise<ChangedFile[]> {
    const taken = capture ?? (await this.capture());
    return this.shadow.changedFiles(taken.base, taken.tree);
  }

  ignoredPaths(paths: readonly string[]): Promise<IgnoredPath[]> {
    return Promise.resolve(
      paths.flatMap((path) => {
        const rule = this.ignored.get(path);
        return rule === undefined ? [] : [{ path, rule }];
      }),
    );
  }

  async diff(capture?: ScratchCapture): Promise<string> {
    const taken = capture ?? (await this.capture());
    return this.shadow.diff(taken.base, taken.tree);
  }

  dispose(): Promise<void> {
    this.disposed = true;
    return Promise.resolve();
  }

  private load(id: string): void {
    this.base = id;
    for (const path of [...this.fs.files.keys()])
      if (path.startsWith(`${this.path}/`)) this.fs.files.delete(path);
    for (const [path, text] of this.shadow.files(id)) this.fs.files.set(`${this.path}/${path}`, text);
  }
}
