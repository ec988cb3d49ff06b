/**
 * The repository map's definitions, read with tree-sitter (web-tree-sitter and the prebuilt WASM
 * grammars of @repomix/tree-sitter-wasms: no native build, nothing run at install time).
 *
 * Nothing loads at import: the WASM runtime on the first file that has a grammar, each grammar on
 * the first file of its language (a CLI that never builds a map pays nothing). Whatever goes wrong
 * with one file (a grammar that does not load, a read that fails, a parse that runs too long) leaves
 * that file out of the answer; the index never throws. Definitions are cached by blob id.
 */
import { readFile } from 'node:fs/promises';
import type * as WebTreeSitter from 'web-tree-sitter';
import type { Language, Parser } from 'web-tree-sitter';
import type { DefinitionIndex, RepoFile, RepoReader } from '../../core/ports/repo-reader.js';
import { DefinitionCache } from './definition-cache.js';
import { grammarPath, languageOf, type GrammarName, type LanguageSpec } from './languages.js';
import { oneLine } from './syntax.js';
import { monotonicMs } from '../../shared/monotonic.js';

export type { GrammarName } from './languages.js';

/** How the index reads, skips and caches; every field has a default. */
export interface TreeSitterIndexOptions {
  /**
   * The cache file (e.g. `<state dir>/cache/definitions.json`); its folder is created on write.
   * Omitted: definitions are kept for this index's lifetime only.
   */
  cachePath?: string;
  /** Larger files are left out unread (generated code, bundles, data): 256 KiB. */
  maxFileBytes?: number;
  /** A file with a longer line is minified or generated, and left out: 1,000 characters. */
  maxLineLength?: number;
  /** The most entries the cache file keeps (this run's first): 50,000. */
  maxCacheEntries?: number;
  /** A parse that runs longer is given up, and its file left out: 2,000 ms. */
  parseTimeoutMs?: number;
  /** Where a grammar's WASM file is: @repomix/tree-sitter-wasms's by default. */
  grammarFile?: (grammar: GrammarName) => string;
}

/** What one index has done so far, for benchmarks and for tests that count parses. */
export interface IndexStats {
  /** Files parsed with tree-sitter. */
  parsed: number;
  /** Files answered from the cache. */
  cached: number;
  /** Files with a grammar left out: too large, minified, generated, binary, unreadable or unparsable. */
  skipped: number;
}

/** The most definition lines one file contributes (a file of 500 functions is summarised, not listed). */
const MAX_LINES_PER_FILE = 60;
/** The longest one definition line gets. */
const MAX_LINE = 160;
/** Files read at once from the reader. */
const READ_BATCH = 16;
/** Go's and others' marker of a generated file (https://go.dev/s/generatedcode), and `@generated`. */
const GENERATED = /^\/\/ Code generated .* DO NOT EDIT\.$|@generated\b/m;

type Runtime = typeof WebTreeSitter;

/** A DefinitionIndex over tree-sitter's WASM grammars, with a cache by blob id. */
export class TreeSitterDefinitionIndex implements DefinitionIndex {
  /** Counters since this index was made. */
  readonly stats: IndexStats = { parsed: 0, cached: 0, skipped: 0 };
  private readonly options: Required<Omit<TreeSitterIndexOptions, 'cachePath'>> & { cachePath?: string };
  private runtime: Promise<{ runtime: Runtime; parser: Parser } | null> | undefined;
  private readonly grammars = new Map<GrammarName, Promise<Language | null>>();
  private cache: Promise<DefinitionCache> | undefined;

  constructor(options: TreeSitterIndexOptions = {}) {
    this.options = {
      maxFileBytes: 256 * 1024,
      maxLineLength: 1000,
      maxCacheEntries: 50_000,
      parseTimeoutMs: 2000,
      grammarFile: grammarPath,
      ...options,
    };
  }

  /** Each file's definitions, for the files in a language with a grammar that has any, in `files`' order. */
  async definitions(files: readonly RepoFile[], reader: RepoReader): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    const wanted = files.filter((file) => file.kind !== 'symlink' && languageOf(file.path) !== null);
    if (wanted.length === 0) return found;
    this.cache ??= DefinitionCache.open(this.options.cachePath, this.options.maxCacheEntries);
    const cache = await this.cache;
    const toParse: Array<{ file: RepoFile; language: LanguageSpec; key: string }> = [];
    for (const file of wanted) {
      const language = languageOf(file.path);
      if (language === null) continue;
      const key = `${language.grammar}:${file.blob}`;
      const hit = cache.get(key);
      if (hit !== undefined) {
        this.stats.cached++;
        if (hit.length > 0) found.set(file.path, [...hit]);
      } else if (file.bytes > this.options.maxFileBytes) this.stats.skipped++;
      else toParse.push({ file, language, key });
    }
    for (let at = 0; at < toParse.length; at += READ_BATCH) {
      const batch = toParse.slice(at, at + READ_BATCH);
      const texts = await Promise.all(batch.map(({ file }) => this.readText(reader, file.path)));
      for (const [index, item] of batch.entries()) {
        const text = texts[index] ?? null;
        const lines = text === null ? null : await this.definitionsOf(text, item.language);
        if (lines === null) {
          this.stats.skipped++;
          continue;
        }
        // A file read but not worth parsing (minified, generated) is cached as empty: it is so for good.
        cache.set(item.key, lines);
        if (lines.length > 0) found.set(item.file.path, lines);
      }
    }
    await cache.save();
    // In the files' order, whichever came from the cache: the same answer on a cold and a warm run.
    const ordered = new Map<string, string[]>();
    for (const file of wanted) {
      const lines = found.get(file.path);
      if (lines !== undefined) ordered.set(file.path, lines);
    }
    return ordered;
  }

  /** The file's text, or null when it cannot be read or is binary. */
  private async readText(reader: RepoReader, path: string): Promise<string | null> {
    try {
      const read = await reader.readFile(path);
      if (!read.ok || read.bytes.includes(0)) return null;
      return new TextDecoder('utf-8').decode(read.bytes);
    } catch {
      return null;
    }
  }

  /**
   * The definitions in `text`: [] for a minified or generated file (known for good), null when
   * this run could not tell (the grammar did not load, the parse failed or ran out of time).
   */
  private async definitionsOf(text: string, language: LanguageSpec): Promise<string[] | null> {
    if (this.isMinifiedOrGenerated(text)) return [];
    const loaded = await this.loadGrammar(language.grammar);
    const engine = await this.runtime;
    if (loaded === null || engine === null || engine === undefined) return null;
    const deadline = monotonicMs() + this.options.parseTimeoutMs;
    try {
      engine.parser.setLanguage(loaded);
      engine.parser.reset();
      const tree = engine.parser.parse(text, null, { progressCallback: () => monotonicMs() > deadline });
      if (tree === null) return null;
      this.stats.parsed++;
      try {
        return summarise(language.extract(tree.rootNode));
      } finally {
        tree.delete();
      }
    } catch {
      return null;
    }
  }

  private isMinifiedOrGenerated(text: string): boolean {
    let start = 0;
    while (start < text.length) {
      const end = text.indexOf('\n', start);
      const stop = end === -1 ? text.length : end;
      if (stop - start > this.options.maxLineLength) return true;
      start = stop + 1;
    }
    return GENERATED.test(text.slice(0, 2048));
  }

  /** The grammar, loaded once (with the runtime on first use); null when either fails to load. */
  private loadGrammar(grammar: GrammarName): Promise<Language | null> {
    let loading = this.grammars.get(grammar);
    if (loading === undefined) {
      loading = (async () => {
        this.runtime ??= loadRuntime();
        const engine = await this.runtime;
        if (engine === null) return null;
        try {
          return await engine.runtime.Language.load(await readFile(this.options.grammarFile(grammar)));
        } catch {
          return null; // a grammar built for another ABI, or a missing file: its files are left out
        }
      })();
      this.grammars.set(grammar, loading);
    }
    return loading;
  }
}

async function loadRuntime(): Promise<{ runtime: Runtime; parser: Parser } | null> {
  try {
    const runtime = await import('web-tree-sitter');
    await runtime.Parser.init();
    return { runtime, parser: new runtime.Parser() };
  } catch {
    return null;
  }
}

/** At most MAX_LINES_PER_FILE lines of at most MAX_LINE characters, then how many more there were. */
function summarise(lines: readonly string[]): string[] {
  const short = lines.map((line) => oneLine(line, MAX_LINE));
  if (short.length <= MAX_LINES_PER_FILE) return short;
  return [...short.slice(0, MAX_LINES_PER_FILE), `… ${short.length - MAX_LINES_PER_FILE} more definitions`];
}
