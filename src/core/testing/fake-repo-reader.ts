/**
 * An in-memory RepoReader for tests of Plan mode's tools: a snapshot given as path → content.
 * Searches with JavaScript regular expressions (close enough to `git grep -E` for the tools'
 * decisions; the real reader is tested against real git in infra/shadow/snapshot-reader.test.ts).
 */
import picomatch from 'picomatch';
import type {
  RepoFile,
  RepoRead,
  RepoReader,
  SearchHit,
  SearchOutcome,
  SearchRequest,
} from '../ports/repo-reader.js';

/** A file of the fake snapshot: its content, or a symlink and the text of its target. */
export type FakeEntry = string | Uint8Array | { symlink: string } | { executable: string };

const utf8 = new TextEncoder();

function bytesOf(entry: FakeEntry): Uint8Array {
  if (typeof entry === 'string') return utf8.encode(entry);
  if (entry instanceof Uint8Array) return entry;
  return utf8.encode('symlink' in entry ? entry.symlink : entry.executable);
}

export class FakeRepoReader implements RepoReader {
  readonly id = 'fake-tree';
  /** Every call, in order, for tests that assert what the tools asked. */
  readonly calls: Array<{ method: 'listFiles' | 'readFile' | 'search'; argument?: unknown }> = [];

  constructor(private readonly entries: Readonly<Record<string, FakeEntry>>) {}

  listFiles(): Promise<RepoFile[]> {
    this.calls.push({ method: 'listFiles' });
    const files = Object.entries(this.entries).map(([path, entry], index): RepoFile => {
      const kind =
        typeof entry === 'string' || entry instanceof Uint8Array
          ? 'file'
          : 'symlink' in entry
            ? 'symlink'
            : 'executable';
      return { path, bytes: bytesOf(entry).length, kind, blob: `blob-${index}` };
    });
    return Promise.resolve(files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
  }

  readFile(path: string): Promise<RepoRead> {
    this.calls.push({ method: 'readFile', argument: path });
    const entry = this.entries[path];
    if (entry === undefined) {
      const folder = Object.keys(this.entries).some((p) => p.startsWith(`${path}/`));
      return Promise.resolve(folder ? { ok: false, reason: 'directory' } : { ok: false, reason: 'missing' });
    }
    if (typeof entry === 'object' && 'symlink' in entry)
      return Promise.resolve({ ok: false, reason: 'symlink', target: entry.symlink });
    return Promise.resolve({ ok: true, bytes: bytesOf(entry) });
  }

  search(request: SearchRequest): Promise<SearchOutcome> {
    this.calls.push({ method: 'search', argument: request });
    let regex: RegExp;
    try {
      regex = new RegExp(request.pattern);
    } catch (error) {
      return Promise.resolve({ ok: false, reason: 'bad_pattern', detail: (error as Error).message });
    }
    const glob = request.path !== undefined && request.path in this.entries ? undefined : request.glob;
    const matchesGlob =
      glob === undefined ? () => true : picomatch(glob, { dot: true, basename: !glob.includes('/') });
    const hits: SearchHit[] = [];
    for (const [path, entry] of Object.entries(this.entries).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (typeof entry === 'object' && !(entry instanceof Uint8Array)) continue;
      if (request.path !== undefined && path !== request.path && !path.startsWith(`${request.path}/`))
        continue;
      if (!matchesGlob(path)) continue;
      const bytes = bytesOf(entry);
      if (bytes.includes(0)) continue;
      const lines = new TextDecoder().decode(bytes).split('\n');
      const matching = lines
        .map((text, index) => ({ line: index + 1, text: text.replace(/\r$/, '') }))
        .filter(({ text }) => regex.test(text));
      if (matching.length > 0)
        hits.push({ path, count: matching.length, lines: matching.slice(0, request.maxLinesPerFile) });
    }
    return Promise.resolve({
      ok: true,
      hits: hits.slice(0, request.maxFiles),
      truncated: hits.length > request.maxFiles,
    });
  }
}
