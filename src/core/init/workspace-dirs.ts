/**
 * A monorepo's workspace globs (`packages/*`, `apps/**`, `tools/cli`, `!**\/test`) turned into
 * the folders they name, through a port that lists folders. Only what workspace tools accept
 * in practice: literal segments, `*` within a segment, and `**` (any depth, up to MAX_DEPTH);
 * `node_modules` and dot-folders are never entered. At most MAX_PACKAGES folders are returned.
 */

export interface DirectoryLister {
  /** The names of the folders directly inside `path` (absolute), symlinks not followed; [] when it is not a folder. */
  listDirectories(path: string): Promise<string[]>;
}

const MAX_DEPTH = 4;
const MAX_PACKAGES = 500;

function segmentPattern(segment: string): RegExp {
  const escaped = segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${escaped}$`);
}

function enterable(name: string): boolean {
  return name !== 'node_modules' && !name.startsWith('.');
}

async function expandOne(
  lister: DirectoryLister,
  root: string,
  segments: readonly string[],
  at: string,
  depth: number,
  out: Set<string>,
): Promise<void> {
  if (out.size >= MAX_PACKAGES) return;
  const [segment, ...rest] = segments;
  if (segment === undefined) {
    if (at !== '') out.add(at);
    return;
  }
  const join = (name: string) => (at === '' ? name : `${at}/${name}`);
  if (!segment.includes('*')) {
    if (segment === '.' || segment === '') return expandOne(lister, root, rest, at, depth, out);
    if (segment === '..') return;
    return expandOne(lister, root, rest, join(segment), depth, out);
  }
  const names = (await lister.listDirectories(`${root}/${at}`)).filter(enterable).sort();
  if (segment === '**') {
    await expandOne(lister, root, rest, at, depth, out);
    if (depth >= MAX_DEPTH) return;
    for (const name of names) await expandOne(lister, root, segments, join(name), depth + 1, out);
    return;
  }
  const pattern = segmentPattern(segment);
  for (const name of names)
    if (pattern.test(name)) await expandOne(lister, root, rest, join(name), depth + 1, out);
}

/** Folders relative to `root`, sorted, excluding those a `!pattern` names. */
export async function expandWorkspaces(
  lister: DirectoryLister,
  root: string,
  patterns: readonly string[],
): Promise<string[]> {
  const included = new Set<string>();
  const excluded = new Set<string>();
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const pattern = (negated ? raw.slice(1) : raw).replace(/^\.\//, '').replace(/\/+$/, '');
    if (pattern.startsWith('/')) continue;
    await expandOne(lister, root, pattern.split('/'), '', 0, negated ? excluded : included);
  }
  return [...included].filter((dir) => !excluded.has(dir)).sort();
}
