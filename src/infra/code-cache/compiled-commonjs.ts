/**
 * A CommonJS file compiled through V8's code cache. Node 20 keeps no compiled code between runs
 * (`module.enableCompileCache` came in Node 22.1): every start parses a module's source again. With
 * a cache V8 reads back the bytecode it made last time instead. aide loads two large files this
 * way: its own CLI bundle (3 MB; src/launch/cli-bundle.ts) and the `typescript` package (9 MB, the
 * syntax guard of model edits; infra/syntax/typescript-syntax.ts).
 *
 * A cache starts with a header naming the file it was made from (size, modification time, inode)
 * and the node that made it, and one whose header does not match is never given to V8: V8 checks
 * its own version and flags, but of the source only its length, so without the header a rebuilt
 * file of the same length would run stale bytecode. The header also names the flags node was
 * started with: V8 refuses a cache made under other V8 flags, and the user's cache was the one
 * offered first, so a hook run now by a GUI's git (no NODE_OPTIONS) and now from a shell with
 * NODE_OPTIONS set had each start refuse the cache the other had just written, compile without
 * one (about 50 ms for `aide review`) and write a megabyte at exit. A cache V8 refuses anyway
 * (damaged) costs the compile time it would have saved, nothing else.
 */
import { isAscii } from 'node:buffer';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';
import { aideCacheDir } from '../../shared/cache-dir.js';

const MAGIC = 'aide code cache 1';

/** `name` in aide's folder of the user's cache; null without one. */
export function userCacheFile(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | null {
  const dir = aideCacheDir(env);
  return dir === null ? null : join(dir, name);
}

/**
 * The flags this node was started with, on its command line and in NODE_OPTIONS. Node's own flags
 * are in it too (V8 would take their caches): a cache is then made again once, never refused.
 */
function startFlags(): string {
  return [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ').trim();
}

/** The header line a cache of this file, made by this node started with these flags, starts with. */
export function cacheHeader(file: Stats): string {
  const made = {
    size: file.size,
    mtimeMs: file.mtimeMs,
    ino: file.ino,
    node: process.version,
    arch: process.arch,
    flags: startFlags(),
  };
  return `${MAGIC} ${JSON.stringify(made)}\n`;
}

/** The cached data of `cache` when its header is `header`; undefined when missing or another's. */
export function readCache(cache: string | null, header: string): Buffer | undefined {
  if (cache === null) return undefined;
  let bytes: Buffer;
  try {
    // The header first: another build's cache (the user's, written by an aide since replaced) is
    // left unread rather than read whole (more than a megabyte) at every start.
    if (!startsWith(cache, header)) return undefined;
    bytes = readFileSync(cache);
  } catch {
    return undefined;
  }
  if (bytes.length <= header.length || bytes.toString('latin1', 0, header.length) !== header)
    return undefined;
  return bytes.subarray(header.length);
}

/** Whether the file's first bytes are `header`. Throws when it cannot be read. */
function startsWith(file: string, header: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(header.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString('latin1') === header;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a cache whole or not at all (a temp file renamed into place), so a reader never sees
 * half of one. A cache that cannot be written costs the next start its compile time, nothing else.
 */
export function writeCache(cache: string, header: string, data: Buffer): void {
  const temp = `${cache}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(cache), { recursive: true });
    writeFileSync(temp, Buffer.concat([Buffer.from(header, 'latin1'), data]));
    renameSync(temp, cache);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // No folder to hold it, so no temp file either.
    }
  }
}

export interface CompiledModule {
  /** The file's `module.exports` after its top level ran. */
  exports: unknown;
  /** The compiled file: `createCachedData()` gives the cache of what ran so far. */
  script: Script;
  /** Cached data was given and V8 refused it (another V8 version or flags, a damaged cache). */
  rejected: boolean;
}

/**
 * Compiles and runs a CommonJS file's top level as Node's own loader would (the same wrapper
 * arguments, its own `require`), with `cachedData`. Strict when `strict`: aide's bundle is built
 * from ES modules, which are.
 */
export function compileCommonJs(
  file: string,
  cachedData: Buffer | undefined,
  strict = false,
): CompiledModule {
  // scripts/bundle.mjs makes aide's bundle pure ASCII: read as latin1 it is a one-byte string,
  // without UTF-8 decoding (15-25 ms of a start). Any other file is read as UTF-8.
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // One line: the file's line numbers (and its source map's) stay as they are.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${strict ? " 'use strict';" : ''} ${source}\n})`;
  const script = new Script(wrapped, {
    filename: file,
    cachedData,
    // import() of the packages left outside the bundle (web-tree-sitter) goes to Node's own loader.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const run = script.runInThisContext() as (this: unknown, ...args: unknown[]) => void;
  const module = { exports: {} as unknown };
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    script,
    rejected: cachedData !== undefined && script.cachedDataRejected === true,
  };
}

export interface CachedLoad {
  file: string;
  /** Where this process keeps its own cache of `file`, written at exit when no cache fit; null: none. */
  userCache: string | null;
  /** A cache made ahead of time (the build's), tried after the user's. */
  builtCache?: string;
  strict?: boolean;
}

/**
 * `file` compiled through the first of its caches that fits; with none that V8 took, the user's
 * cache is written when this process exits (with everything compiled by then).
 */
export function loadCommonJs(load: CachedLoad): unknown {
  const header = cacheHeader(statSync(load.file));
  const cachedData =
    readCache(load.userCache, header) ??
    (load.builtCache === undefined ? undefined : readCache(load.builtCache, header));
  const compiled = compileCommonJs(load.file, cachedData, load.strict);
  const userCache = load.userCache;
  if (userCache !== null && (cachedData === undefined || compiled.rejected)) {
    process.once('exit', () => {
      writeCache(userCache, header, compiled.script.createCachedData());
    });
  }
  return compiled.exports;
}
