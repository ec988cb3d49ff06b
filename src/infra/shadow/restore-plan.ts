/**
 * Planning a restore: the paths that differ between the current snapshot's tree and the
 * checkpoint's, each to write back, remove or leave alone (ignored now, unvouched, over the
 * size limit, something in the way), and the folders a restore emptied. restore.ts applies it.
 */
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  CheckpointRecord,
  RestoreChange,
  RestorePlan,
  RestoreSkip,
} from '../../core/ports/checkpoints.js';
import type { FileSystem, FileWrite } from '../../core/ports/files.js';
import { type ShadowGit } from './git.js';
import { diffTrees, type RawChange } from './raw-objects.js';
import { ignoredNow, type WatchedPaths } from './watched-paths.js';

export const BLOB_MODES: Record<string, RestoreChange['kind']> = {
  '100644': 'file',
  '100755': 'executable',
  '120000': 'symlink',
};

export function isGitInternal(path: string): boolean {
  return path.split('/').some((part) => part.toLowerCase() === '.git');
}

/** Parent folders of a relative path, shallowest first: a/b/c → a, a/b. */
export function parentsOf(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** A change of the plan, with the diff line it comes from. */
export interface Planned {
  change: RestoreChange;
  raw: RawChange;
  /** A write that waits for the plan's removals: a file or symlink is where its folder goes, or a folder where it goes. */
  afterRemovals: boolean;
}

export interface PlanDetail {
  /** The tree the plan was computed from; the safety checkpoint must have the same. */
  base: string;
  removals: Planned[];
  writes: Planned[];
}

export function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** Decides, with lstat, whether a write can go ahead now, after the removals, or not at all. */
export async function placeWrite(
  write: RawChange,
  root: string,
  fs: FileSystem,
  removals: ReadonlySet<string>,
  kinds: Map<string, string>,
): Promise<'now' | 'after-removals' | 'not-captured'> {
  const kindOf = async (path: string) => {
    let kind = kinds.get(path);
    if (kind === undefined) {
      kind = (await fs.lstat(join(root, path)))?.kind ?? 'missing';
      kinds.set(path, kind);
    }
    return kind;
  };
  let after = false;
  for (const parent of parentsOf(write.path)) {
    const kind = await kindOf(parent);
    if (kind === 'missing') break;
    if (kind === 'directory') continue;
    // A file or symlink where a folder must go: only one the plan removes may be replaced.
    if (!removals.has(parent)) return 'not-captured';
    after = true;
    break;
  }
  if (write.oldMode === null) {
    const kind = await kindOf(write.path);
    if (kind === 'directory') {
      // A folder where the file goes: fine once the plan's removals have emptied it.
      const prefix = `${write.path}/`;
      if (![...removals].some((r) => r.startsWith(prefix))) return 'not-captured';
      after = true;
    } else if (kind !== 'missing' && !after) {
      // On disk but not in the current snapshot: ignored or never seen, so in no checkpoint.
      return 'not-captured';
    }
  }
  return after ? 'after-removals' : 'now';
}

/** Why a path that differs must be left alone, or null when it may be restored. */
export function skipFor(
  raw: RawChange,
  skippedNow: ReadonlySet<string>,
  skippedThen: ReadonlySet<string>,
): RestoreSkip['reason'] | null {
  if (raw.undecodable) return 'name-not-utf8';
  if (isGitInternal(raw.path)) return 'git-internal';
  if (skippedNow.has(raw.path)) return 'too-large-now';
  if (skippedThen.has(raw.path)) return 'too-large-then';
  if (raw.oldMode === '160000' || raw.newMode === '160000') return 'nested-link';
  return null;
}

/**
 * Removals the target cannot vouch for: a watched path (one aide wrote, captured even when
 * ignored) that was not yet watched when the target was taken and that git ignores now. Its
 * absence from the target says only that the target left it out, not that it was not there.
 */
export async function unvouchedRemovals(
  git: ShadowGit,
  removals: readonly Planned[],
  watched: WatchedPaths,
  targetWatched: number,
): Promise<Set<string>> {
  const later = removals
    .map((r) => r.change.path)
    .filter((path) => (watched.index.get(path) ?? -1) >= targetWatched);
  return ignoredNow(git, later);
}

/** Computes what a restore from `base` (the current snapshot) to `target` changes. */
export async function planFromTrees(
  git: ShadowGit,
  fs: FileSystem,
  input: {
    root: string;
    base: string;
    target: CheckpointRecord & { tree: string; watched?: number };
    skippedNow: readonly string[];
    watched?: WatchedPaths;
  },
): Promise<{ plan: RestorePlan; detail: PlanDetail }> {
  const raw = await diffTrees(git, input.base, input.target.tree);
  const skippedNow = new Set(input.skippedNow);
  const skippedThen = new Set(input.target.skipped);
  const leftAlone = new Map<string, RestoreSkip['reason']>();
  for (const path of skippedNow) leftAlone.set(path, 'too-large-now');
  for (const path of skippedThen) if (!leftAlone.has(path)) leftAlone.set(path, 'too-large-then');
  const removals: Planned[] = [];
  const candidates: RawChange[] = [];
  for (const change of raw) {
    const reason = skipFor(change, skippedNow, skippedThen);
    if (reason !== null) leftAlone.set(change.path, reason);
    else if (change.newMode === null)
      removals.push({
        change: { path: change.path, action: 'deleted', kind: null },
        raw: change,
        afterRemovals: false,
      });
    else if (BLOB_MODES[change.newMode] === undefined) leftAlone.set(change.path, 'nested-link');
    else candidates.push(change);
  }
  if (input.watched !== undefined) {
    const unvouched = await unvouchedRemovals(git, removals, input.watched, input.target.watched ?? 0);
    for (const path of unvouched) leftAlone.set(path, 'not-captured');
    removals.splice(0, removals.length, ...removals.filter((r) => !unvouched.has(r.change.path)));
  }
  const removed = new Set(removals.map((r) => r.change.path));
  const kinds = new Map<string, string>();
  const writes: Planned[] = [];
  for (const change of candidates) {
    const place = await placeWrite(change, input.root, fs, removed, kinds);
    if (place === 'not-captured') {
      leftAlone.set(change.path, 'not-captured');
      continue;
    }
    writes.push({
      change: { path: change.path, action: change.action, kind: BLOB_MODES[change.newMode ?? ''] ?? 'file' },
      raw: change,
      afterRemovals: place === 'after-removals',
    });
  }
  removals.sort((a, b) => byPath(a.change, b.change));
  writes.sort((a, b) => byPath(a.change, b.change));
  const plan: RestorePlan = {
    target: input.target,
    changes: [...removals, ...writes].map((p) => p.change),
    leftAlone: [...leftAlone].map(([path, reason]) => ({ path, reason })).sort(byPath),
  };
  return { plan, detail: { base: input.base, removals, writes } };
}

export function previousOf(
  raw: RawChange,
  blobs: ReadonlyMap<string, Buffer>,
): Uint8Array | { symlink: string } | null {
  if (raw.oldMode === null || raw.oldBlob === null) return null;
  const bytes = blobs.get(raw.oldBlob) ?? Buffer.alloc(0);
  return raw.oldMode === '120000' ? { symlink: bytes.toString('utf8') } : bytes;
}

export function toFileWrite(root: string, planned: Planned, blobs: ReadonlyMap<string, Buffer>): FileWrite {
  const { raw } = planned;
  const path = join(root, raw.path);
  const previous = previousOf(raw, blobs);
  if (raw.newMode === null || raw.newBlob === null)
    return { kind: 'delete', path, previous: previous ?? new Uint8Array() };
  const content = blobs.get(raw.newBlob) ?? Buffer.alloc(0);
  if (raw.newMode === '120000') return { kind: 'symlink', path, target: content.toString('utf8'), previous };
  return { kind: 'write', path, content, previous, executable: raw.newMode === '100755' };
}

/**
 * Removes the folders that removing `paths` left empty, deepest first, never the root. A
 * folder that still holds anything (an ignored file, an empty folder of the user's) stays.
 */
export async function pruneEmptiedFolders(root: string, paths: readonly string[]): Promise<string[]> {
  const folders = new Set(paths.flatMap(parentsOf));
  const removed: string[] = [];
  for (const folder of [...folders].sort(
    (a, b) => b.split('/').length - a.split('/').length || byPath({ path: a }, { path: b }),
  )) {
    try {
      await rmdir(join(root, folder));
      removed.push(folder);
    } catch {
      // Not empty, not a folder, or gone: leave it.
    }
  }
  return removed.sort();
}
