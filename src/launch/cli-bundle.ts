/**
 * aide's CLI is a CommonJS bundle (made by scripts/bundle.mjs) that the bin (src/bin.ts) compiles
 * through V8's code cache (infra/code-cache/compiled-commonjs.ts says why). There are two:
 * dist/bundle/aide-review.cjs for `aide review …` (what a git hook runs at every commit: the same
 * parser and help, without what only the other commands run, half the bytes to read and
 * deserialise) and dist/bundle/aide-cli.cjs for everything else. Each goes through the user's
 * cache, a file of aide's folder in the user's cache folder, written at exit by a run that found no
 * cache it could use (an installed package, whose files do not carry the build's times; another
 * version of node); else through the build's, `<bundle>.cache` beside the bundle, which
 * scripts/warm-code-cache.mjs writes after running the bundle's common commands once.
 */
import type { runCli, start } from '../cli/main.js';
import { packagePath } from '../cli/package-files.js';
import { loadCommonJs, userCacheFile } from '../infra/code-cache/compiled-commonjs.js';

/** What a bundle exports (its entry is cli/main.ts). */
export interface CliModule {
  start: typeof start;
  runCli: typeof runCli;
}

/** The two bundles: the whole CLI, and `aide review`'s. */
export type CliBundle = 'aide-cli' | 'aide-review';

/** The user's cache of each bundle, in aide's folder of the user's cache folder. */
const USER_CACHE: Record<CliBundle, string> = {
  'aide-cli': 'cli-code-cache.bin',
  'aide-review': 'review-code-cache.bin',
};

/**
 * The bundle that runs this command line: the review bundle when the command is its first word,
 * as a hook and CI write it (`aide review --staged`); any other line, a global option first
 * included, the whole CLI, which runs review too.
 */
export function bundleFor(args: readonly string[]): CliBundle {
  return args[0] === 'review' ? 'aide-review' : 'aide-cli';
}

/** The bundle's file: dist/bundle/<bundle>.cjs in aide's package. */
export function cliBundleFile(bundle: CliBundle = 'aide-cli'): string {
  return packagePath('dist', 'bundle', `${bundle}.cjs`);
}

/** The build's cache, beside the bundle. */
export function builtCacheFile(bundleFile: string): string {
  return `${bundleFile}.cache`;
}

/** The bundle's user cache file; null without a cache folder. */
export function userCliCacheFile(
  env: Readonly<Record<string, string | undefined>>,
  bundle: CliBundle,
): string | null {
  return userCacheFile(env, USER_CACHE[bundle]);
}

/** The CLI for `bundle` (default: the whole CLI), compiled through the first cache that fits. */
export function loadCli(
  env: Readonly<Record<string, string | undefined>> = process.env,
  bundle: CliBundle = 'aide-cli',
): CliModule {
  const file = cliBundleFile(bundle);
  return loadCommonJs({
    file,
    userCache: userCliCacheFile(env, bundle),
    builtCache: builtCacheFile(file),
    strict: true,
  }) as CliModule;
}
