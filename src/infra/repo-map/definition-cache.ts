/**
 * The definitions cache: a blob's definitions never change, so they are kept between runs in one
 * JSON file under the workspace's state dir, keyed by grammar and blob id. A cache is only ever a
 * shortcut: one that is missing, corrupt, from another version or not writable is rebuilt (or
 * skipped), never an error.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { readJsonJournal, writeJsonDurably } from '../fs/durable-json.js';

/**
 * Bumped whenever the extractors change what they write, so a cache from an older aide is
 * rebuilt instead of showing the old lines.
 */
export const EXTRACTOR_VERSION = 1;

const cacheFileSchema = z.object({
  version: z.number(),
  entries: z.record(z.string(), z.array(z.string())),
});

/** Cached definitions by key (`grammar:blob`), loaded once, written back when they changed. */
export class DefinitionCache {
  private entries = new Map<string, readonly string[]>();
  /** Keys asked for or added in this run: they are kept first when the cache is cut to size. */
  private readonly seen = new Set<string>();
  private dirty = false;

  private constructor(
    private readonly path: string | undefined,
    private readonly maxEntries: number,
  ) {}

  /** The cache stored at `path` (none: a cache for this process only), at most `maxEntries` kept. */
  static async open(path: string | undefined, maxEntries: number): Promise<DefinitionCache> {
    const cache = new DefinitionCache(path, maxEntries);
    if (path === undefined) return cache;
    try {
      const stored = await readJsonJournal(path, cacheFileSchema, (problem) => new Error(problem));
      if (stored !== null && stored.version === EXTRACTOR_VERSION)
        cache.entries = new Map(Object.entries(stored.entries));
    } catch {
      // Corrupt or unreadable (a crash mid-write cannot do it: writes are atomic, but a user can).
      // It is rebuilt from the files, and the next write replaces it.
      cache.dirty = true;
    }
    return cache;
  }

  get(key: string): readonly string[] | undefined {
    const found = this.entries.get(key);
    if (found !== undefined) this.seen.add(key);
    return found;
  }

  set(key: string, lines: readonly string[]): void {
    this.entries.set(key, lines);
    this.seen.add(key);
    this.dirty = true;
  }

  /**
   * Writes the cache back when it changed: this run's entries first, then older ones (another
   * branch's files) up to the cap. A cache that cannot be written costs time on the next run,
   * not a result, so the failure is dropped.
   */
  async save(): Promise<void> {
    if (this.path === undefined || !this.dirty) return;
    const kept: Record<string, readonly string[]> = {};
    let count = 0;
    const keep = (key: string, lines: readonly string[] | undefined) => {
      if (lines === undefined || count >= this.maxEntries || Object.hasOwn(kept, key)) return;
      kept[key] = lines;
      count++;
    };
    for (const key of [...this.seen].sort()) keep(key, this.entries.get(key));
    for (const [key, lines] of this.entries) keep(key, lines);
    this.entries = new Map(Object.entries(kept));
    try {
      await mkdir(dirname(this.path), { recursive: true });
      await writeJsonDurably(this.path, { version: EXTRACTOR_VERSION, entries: kept });
      this.dirty = false;
    } catch {
      // Not writable (a read-only checkout, a full disk): the next run parses again.
    }
  }
}
