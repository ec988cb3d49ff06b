/**
 * Whether a folder's file system ignores the case of names: then `TEST/a.js` and `test/a.js`
 * are one file, and protected-path rules must match without regard to case. Probed, not guessed
 * from the platform: macOS can have a case-sensitive APFS volume, Windows a case-sensitive
 * folder (WSL), Linux a FAT drive or an ext4 folder with casefold. The probe looks up one of the
 * folder's own entries (a workspace has at least `.git`) under its name with the case flipped
 * and compares the two: the same file means case is ignored. Only when the folder has no entry
 * with a letter in its name does the platform decide (macOS and Windows ignore case by default).
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

function flipCase(name: string): string {
  return name.replace(/\p{L}/gu, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}

async function sameFile(a: string, b: string): Promise<boolean> {
  const [first, second] = await Promise.all([
    lstat(a, { bigint: true }).catch(() => null),
    lstat(b, { bigint: true }).catch(() => null),
  ]);
  return first !== null && second !== null && first.dev === second.dev && first.ino === second.ino;
}

export async function ignoresCase(
  dir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const probe = entries.find((name) => flipCase(name) !== name);
  if (probe === undefined) return platform === 'darwin' || platform === 'win32';
  return sameFile(join(dir, probe), join(dir, flipCase(probe)));
}
