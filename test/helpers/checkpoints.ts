/**
 * Checkpoints for tests, taken in-process with the ShadowStore API, and a fingerprint of a
 * workspace as restore sees it (folders included, so an empty folder shows).
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ShadowStore } from '../../src/infra/shadow/shadow-store.js';
import { testEnv, testHome } from './sandbox.js';

/** Takes a checkpoint of the workspace (as `aide checkpoints save` will); returns its full id. */
export async function saveCheckpoint(
  root: string,
  options: { message?: string; maxFileBytes?: number; env?: Record<string, string> } = {},
): Promise<string> {
  const store = await ShadowStore.open(root, testEnv(testHome(), options.env), {
    maxFileBytes: options.maxFileBytes ?? 20 * 1024 * 1024,
    command: 'test',
  });
  try {
    const result = await store.checkpoint({
      reason: 'manual',
      message: options.message ?? 'test checkpoint',
    });
    return result.checkpoint.id;
  } finally {
    await store.close();
  }
}

/**
 * path → "dir", "link:<target>" or "<mode>:<sha256>" for everything under root except the
 * top-level .git and .aide/state (nested repositories' .git folders are included).
 */
export function workspaceState(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const rel = prefix === '' ? name : `${prefix}/${name}`;
      if (rel === '.git' || rel === '.aide/state') continue;
      const full = join(dir, name);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out[rel] = `link:${readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(full, rel);
      } else
        out[rel] =
          `${(stat.mode & 0o777).toString(8)}:${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  walk(root, '');
  return out;
}

/** The entries of a state whose path starts with one of the prefixes. */
export function pick(state: Record<string, string>, prefixes: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(state).filter(([path]) => prefixes.some((p) => path.startsWith(p))),
  );
}

/** The entries of a state whose path starts with none of the prefixes. */
export function omit(state: Record<string, string>, prefixes: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(state).filter(([path]) => !prefixes.some((p) => path.startsWith(p))),
  );
}
