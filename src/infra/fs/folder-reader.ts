/**
 * A RepoReader over a folder on disk: the act-mode read tools see a step's scratch as it is now
 * (the model's own edits included), where Plan mode's reader sees a git tree. It never reads
 * outside the folder: symlinks are listed as symlinks and never followed, and a path through
 * one (a linked `node_modules`) is refused as that symlink.
 *
 * What it leaves out of listings and searches: `.git` (file or folder) and every `node_modules`
 * folder, at any depth (a scratch links the workspace's; walking an installed tree costs
 * seconds and says nothing about the project), and the files `ignored` names (wire the scratch's
 * `ignoredPaths`: build outputs and caches a command wrote, which a capture leaves out too). An
 * ignored file may still be read by path; `.git` never.
 *
 * Blob ids are git's (sha1 of `blob <size>\0` + bytes), so caches keyed on them (the repository
 * map's definitions) hit for files the scratch shares with the snapshot. They are remembered by
 * path, size, mtime and inode, so a second listing hashes only files that changed.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, readlink, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import type {
  RepoFile,
  RepoRead,
  RepoReader,
  SearchHit,
  SearchOutcome,
  SearchRequest,
} from '../../core/ports/repo-reader.js';

export interface FolderReaderOptions {
  /** The folder, a real (symlink-free) absolute path. */
  root: string;
  /** The reader's id (RepoReader.id), e.g. the scratch's base and a counter of edits. */
  id: string;
  /** Which of these folder-relative paths git ignores (Scratch.ignoredPaths); absent: none. */
  ignored?: (paths: readonly string[]) => Promise<ReadonlyArray<{ path: string }>>;
  /** At most this many files are listed (20,000); the walk stops there. */
  maxFiles?: number;
}

/** Folders never walked, at any depth. */
const SKIPPED = new Set(['.git', 'node_modules']);
/** Files larger than this are listed but not searched (git grep would; a model gains nothing from them). */
const MAX_SEARCH_BYTES = 4 * 1024 * 1024;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

export class FolderReader implements RepoReader {
  readonly id: string;
  private readonly blobs = new Map<string, { key: string; blob: string }>();

  constructor(private readonly options: FolderReaderOptions) {
    this.id = options.id;
  }

  async listFiles(): Promise<RepoFile[]> {
    const found: RepoFile[] = [];
    const max = this.options.maxFiles ?? 20_000;
    const walk = async (folder: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(join(this.options.root, folder), { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (found.length >= max) return;
        if (SKIPPED.has(entry.name)) continue;
        const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
        if (entry.isDirectory()) await walk(path);
        else if (entry.isFile() || entry.isSymbolicLink()) {
          const file = await this.entry(path);
          if (file !== null) found.push(file);
        }
      }
    };
    await walk('');
    const ignored = new Set(
      this.options.ignored === undefined
        ? []
        : (await this.options.ignored(found.map((f) => f.path))).map((i) => i.path),
    );
    return found.filter((f) => !ignored.has(f.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /** One listed entry: a file or a symlink (its target's text is its content, as git stores it). */
  private async entry(path: string): Promise<RepoFile | null> {
    const absolute = join(this.options.root, path);
    let stat;
    try {
      stat = await lstat(absolute);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}:${stat.mode}`;
    const known = this.blobs.get(path);
    const symlink = stat.isSymbolicLink();
    const kind = symlink ? 'symlink' : (stat.mode & 0o111) !== 0 ? 'executable' : 'file';
    if (known?.key === key) return { path, bytes: stat.size, kind, blob: known.blob };
    const bytes = symlink ? Buffer.from(await readlink(absolute), 'utf8') : await readFile(absolute);
    const blob = gitBlobId(bytes);
    this.blobs.set(path, { key, blob });
    return { path, bytes: bytes.length, kind, blob };
  }

  async readFile(path: string): Promise<RepoRead> {
    const segments = path.split('/').filter((s) => s !== '' && s !== '.');
    if (segments.length === 0) return { ok: false, reason: 'directory' };
    if (segments.some((s) => s === '..' || s.toLowerCase() === '.git'))
      return { ok: false, reason: 'missing' };
    let current = this.options.root;
    for (const [i, segment] of segments.entries()) {
      current = join(current, segment);
      let stat;
      try {
        stat = await lstat(current);
      } catch (error) {
        if (isMissing(error)) return { ok: false, reason: 'missing' };
        throw error;
      }
      if (stat.isSymbolicLink()) return { ok: false, reason: 'symlink', target: await readlink(current) };
      const last = i === segments.length - 1;
      if (!last && !stat.isDirectory()) return { ok: false, reason: 'missing' };
      if (last && stat.isDirectory()) return { ok: false, reason: 'directory' };
      if (last && !stat.isFile()) return { ok: false, reason: 'missing' };
    }
    // Every component was checked above; the real path is still compared, in case the folder changed meanwhile.
    const real = await realpath(current);
    const rel = relative(this.options.root, real);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..') return { ok: false, reason: 'missing' };
    return { ok: true, bytes: new Uint8Array(await readFile(real)) };
  }

  async search(request: SearchRequest): Promise<SearchOutcome> {
    const regex = compilePattern(request.pattern);
    if (!regex.ok) return regex;
    const under = (request.path ?? '').replace(/^\.\/?/, '').replace(/\/+$/, '');
    const glob =
      request.glob === undefined
        ? () => true
        : picomatch(request.glob, { dot: true, basename: !request.glob.includes('/') });
    const hits: SearchHit[] = [];
    let truncated = false;
    for (const file of await this.listFiles()) {
      if (file.kind === 'symlink' || file.bytes > MAX_SEARCH_BYTES) continue;
      if (under !== '' && file.path !== under && !file.path.startsWith(`${under}/`)) continue;
      if (!glob(file.path)) continue;
      const read = await this.readFile(file.path);
      if (!read.ok || read.bytes.includes(0)) continue;
      const hit = searchText(
        file.path,
        new TextDecoder().decode(read.bytes),
        regex.value,
        request.maxLinesPerFile,
      );
      if (hit === null) continue;
      if (hits.length >= request.maxFiles) {
        truncated = true;
        break;
      }
      hits.push(hit);
    }
    return { ok: true, hits, truncated };
  }
}

/** POSIX bracket classes (`[[:digit:]]`) in JavaScript's words; the rest of ERE reads the same. */
const CLASSES: Readonly<Record<string, string>> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
};

/** A search pattern (POSIX extended, as `git grep -E` reads it) as a JavaScript RegExp. */
export function compilePattern(
  pattern: string,
): { ok: true; value: RegExp } | { ok: false; reason: 'bad_pattern'; detail: string } {
  const source = pattern.replace(/\[:(\w+):\]/g, (whole, name: string) => CLASSES[name] ?? whole);
  try {
    return { ok: true, value: new RegExp(source) };
  } catch (error) {
    return {
      ok: false,
      reason: 'bad_pattern',
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}

function searchText(path: string, text: string, regex: RegExp, maxLines: number): SearchHit | null {
  const lines: SearchHit['lines'] = [];
  let count = 0;
  const all = text.split(/\r?\n/);
  // The final newline ends the last line; it does not start an empty one.
  if (all.at(-1) === '') all.pop();
  for (const [i, line] of all.entries()) {
    if (!regex.test(line)) continue;
    count++;
    if (lines.length < maxLines) lines.push({ line: i + 1, text: line });
  }
  return count === 0 ? null : { path, count, lines };
}
