/**
 * aide's CLI is one CommonJS bundle (dist/bundle/aide-cli.cjs, made by scripts/bundle.mjs), and the
 * bin (src/bin.ts) compiles it through V8's code cache. Node 20 has no compile cache of its own
 * (`module.enableCompileCache` came in Node 22.1), and its ES module loader compiles every module
 * from its source at every start; with a cache V8 reads back the bytecode it made last time
 * instead of parsing 3 MB of JavaScript (bench/startup.ts measures the difference).
 *
 * Two caches, each tried in turn:
 * - the user's, `aide/cli-code-cache.bin` in the user's cache folder, written at exit by a run
 *   that found no cache it could use (an installed package, whose files do not carry the build's
 *   times; another version of node);
 * - the build's, `aide-cli.cjs.cache` beside the bundle, written by scripts/warm-code-cache.mjs
 *   after running the common commands once.
 *
 * A cache starts with a header naming the bundle file it was made from (size, modification time,
 * inode) and the node that made it, and one whose header does not match is never given to V8:
 * V8 checks its own version and flags, but of the source only its length, so without the header
 * a rebuilt bundle of the same length would run stale bytecode.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';
import { aideCacheDir } from '../../shared/cache-dir.js';
import type { runCli, start } from '../main.js';
import { packagePath } from '../package-files.js';

/** What the bundle exports (its entry is cli/main.ts). */
export interface CliModule {
  start: typeof start;
  runCli: typeof runCli;
}

const MAGIC = 'aide code cache 1';

/** The bundle: dist/bundle/aide-cli.cjs in aide's package. */
export function cliBundleFile(): string {
  return packagePath('dist', 'bundle', 'aide-cli.cjs');
}

/** The build's cache, beside the bundle. */
export function buildCacheFile(bundle: string): string {
  return `${bundle}.cache`;
}

/** The header line a cache of this bundle file, made by this node, starts with. */
export function cacheHeader(bundle: Stats): string {
  const made = {
    size: bundle.size,
    mtimeMs: bundle.mtimeMs,
    ino: bundle.ino,
    node: process.version,
    arch: process.arch,
  };
  return `${MAGIC} ${JSON.stringify(made)}\n`;
}

/** The cached data of `file` when its header is `header`; undefined when missing or another's. */
function readCache(file: string | null, header: string): Buffer | undefined {
  if (file === null) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length <= header.length || bytes.toString('latin1', 0, header.length) !== header)
    return undefined;
  return bytes.subarray(header.length);
}

/**
 * Writes a cache whole or not at all (a temp file renamed into place), so a reader never sees
 * half of one. A cache that cannot be written costs the next start its compile time, nothing else.
 */
export function writeCache(file: string, header: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, Buffer.concat([Buffer.from(header, 'latin1'), data]));
    renameSync(temp, file);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // No folder to hold it, so no temp file either.
    }
  }
}

export interface CompiledCli {
  cli: CliModule;
  /** The compiled bundle: `createCachedData()` gives the cache of what ran so far. */
  script: Script;
  /** Cached data was given and V8 refused it (another V8 version or flags). */
  rejected: boolean;
}

/** Compiles and runs the bundle's top level as Node's CommonJS loader would, with `cachedData`. */
export function compileCli(bundle: string, cachedData: Buffer | undefined): CompiledCli {
  // scripts/bundle.mjs makes the bundle pure ASCII: read as latin1 it is a one-byte string, without
  // UTF-8 decoding (15-25 ms of a start). Any other file is read as UTF-8.
  const bytes = readFileSync(bundle);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // One line: the bundle's line numbers (and its source map's) stay as they are. Strict, as the
  // ES modules it is built from are.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { 'use strict'; ${source}\n})`;
  const script = new Script(wrapped, {
    filename: bundle,
    cachedData,
    // import() of the packages left outside the bundle (web-tree-sitter) goes to Node's own loader.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const run = script.runInThisContext() as (this: unknown, ...args: unknown[]) => void;
  const module = { exports: {} };
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return {
    cli: module.exports as CliModule,
    script,
    rejected: cachedData !== undefined && script.cachedDataRejected === true,
  };
}

/**
 * The CLI, compiled through the first cache that fits; with none, the user's cache is written
 * when this process exits.
 */
export function loadCli(env: Readonly<Record<string, string | undefined>> = process.env): CliModule {
  const bundle = cliBundleFile();
  const header = cacheHeader(statSync(bundle));
  const cacheDir = aideCacheDir(env);
  const userCache = cacheDir === null ? null : join(cacheDir, 'cli-code-cache.bin');
  const cachedData = readCache(userCache, header) ?? readCache(buildCacheFile(bundle), header);
  const compiled = compileCli(bundle, cachedData);
  if (userCache !== null && (cachedData === undefined || compiled.rejected)) {
    process.once('exit', () => {
      writeCache(userCache, header, compiled.script.createCachedData());
    });
  }
  return compiled.cli;
}
