/**
 * aide's CLI is one CommonJS bundle (dist/bundle/aide-cli.cjs, made by scripts/bundle.mjs), and the
 * bin (src/bin.ts) compiles it through V8's code cache (infra/code-cache/compiled-commonjs.ts says
 * why): through the user's cache, `aide/cli-code-cache.bin` in the user's cache folder, written at
 * exit by a run that found no cache it could use (an installed package, whose files do not carry the
 * build's times; another version of node); else through the build's, `aide-cli.cjs.cache` beside
 * the bundle, which scripts/warm-code-cache.mjs writes after running the common commands once.
 */
import type { runCli, start } from '../cli/main.js';
import { packagePath } from '../cli/package-files.js';
import { loadCommonJs, userCacheFile } from '../infra/code-cache/compiled-commonjs.js';

/** What the bundle exports (its entry is cli/main.ts). */
export interface CliModule {
  start: typeof start;
  runCli: typeof runCli;
}

/** The bundle: dist/bundle/aide-cli.cjs in aide's package. */
export function cliBundleFile(): string {
  return packagePath('dist', 'bundle', 'aide-cli.cjs');
}

/** The build's cache, beside the bundle. */
export function builtCacheFile(bundle: string): string {
  return `${bundle}.cache`;
}

/** The CLI, compiled through the first cache that fits. */
export function loadCli(env: Readonly<Record<string, string | undefined>> = process.env): CliModule {
  const file = cliBundleFile();
  return loadCommonJs({
    file,
    userCache: userCacheFile(env, 'cli-code-cache.bin'),
    builtCache: builtCacheFile(file),
    strict: true,
  }) as CliModule;
}
