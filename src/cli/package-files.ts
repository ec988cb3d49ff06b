/**
 * Files of aide's own package (package.json, hooks/): found from where the running code is, so
 * the same code works compiled one module per file (dist/src/…, what the in-process tests load)
 * and bundled (dist/bundle/…, the shipped CLI), whose modules sit at other depths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * Whether `dir` holds the package's own package.json: one that names a package. dist/bundle/ has
 * a package.json too, which names none and only says its .js file is CommonJS (scripts/bundle.mjs).
 */
function holdsPackage(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  return typeof (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'string';
}

/** The package's folder: the first one above this module that holds its package.json. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!holdsPackage(dir)) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`aide's package.json is not above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  root = dir;
  return dir;
}

/** The package's manifest: the fields aide reads of it. */
export interface PackageManifest {
  version?: unknown;
  engines?: { node?: unknown };
  bin?: unknown;
}

let manifest: PackageManifest | undefined;

export function packageManifest(): PackageManifest {
  manifest ??= JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as PackageManifest;
  return manifest;
}

/** A path inside the package, from its folder. */
export function packagePath(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}

/** The shipped CLI's entry point: package.json's `bin.aide`. */
export function cliEntry(): string {
  const bin = packageManifest().bin;
  const entry = typeof bin === 'string' ? bin : (bin as Record<string, unknown> | undefined)?.['aide'];
  if (typeof entry !== 'string') throw new Error("aide's package.json has no bin.aide");
  return packagePath(entry);
}
