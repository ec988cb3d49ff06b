/**
 * Folders the verify commands need but snapshots leave out (ignored ones such as node_modules,
 * `link` in sandbox.json) are symlinked into the scratch, never copied. A link is made only
 * where the base has nothing at that path (a tracked node_modules is checked out like any
 * other folder) and its parent folder is in the base; it is never made over something already
 * in the scratch. Captures leave links out, and moves never write through them.
 */
import { lstat, readlink, rmdir, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScratchLink } from '../../../core/ports.js';
import type { ObjectReader } from './object-reader.js';

/** A configured link path as '/'-separated segments, or null when it cannot name a folder in the workspace. */
export function linkSegments(path: string): string[] | null {
  const segments = path.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.some((s) => s === '..' || s.toLowerCase() === '.git')) return null;
  return segments;
}

/** Which of `paths` exist in `tree`. */
async function presentInTree(objects: ObjectReader, tree: string, paths: readonly string[]): Promise<Set<string>> {
  const found = await Promise.all(paths.map((path) => objects.read(`${tree}:${path}`)));
  return new Set(paths.filter((_, i) => found[i] !== null));
}

/** Whether every one of `segments` under root is a real folder (no symlink on the way). */
export async function realFolderChain(root: string, segments: readonly string[]): Promise<boolean> {
  let dir = root;
  for (const segment of segments) {
    dir = join(dir, segment);
    const info = await lstat(dir).catch(() => undefined);
    if (info === undefined || info.isSymbolicLink() || !info.isDirectory()) return false;
  }
  return true;
}

async function isLinkTo(path: string, target: string): Promise<boolean> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isSymbolicLink() === true && (await readlink(path)) === target;
}

/**
 * Brings the links of a scratch in line with its base `tree`: makes the links that can be made,
 * and removes (as links) the ones that can no longer stand. Cheap: a few lstat calls and object reads.
 */
export async function syncLinks(objects: ObjectReader, workspaceRoot: string, scratchRoot: string, tree: string, configured: readonly string[]): Promise<ScratchLink[]> {
  const wanted = configured.flatMap((path) => {
    const segments = linkSegments(path);
    return segments === null ? [] : [{ path: segments.join('/'), segments }];
  });
  const parents = wanted.filter((w) => w.segments.length > 1).map((w) => w.segments.slice(0, -1).join('/'));
  const present = await presentInTree(objects, tree, [...wanted.map((w) => w.path), ...parents]);
  const links: ScratchLink[] = [];
  for (const { path, segments } of wanted) {
    const target = join(workspaceRoot, ...segments);
    const at = join(scratchRoot, ...segments);
    const parentPath = segments.slice(0, -1).join('/');
    const ours = await isLinkTo(at, target);
    const exists = (await lstat(target).catch(() => undefined)) !== undefined;
    const reason: ScratchLink['reason'] = !exists
      ? 'missing_in_workspace'
      : present.has(path)
        ? 'tracked_in_base'
        : parentPath !== '' && !present.has(parentPath)
          ? 'no_parent_in_base'
          : null;
    if (reason !== null) {
      if (ours) {
        await unlink(at);
        if (reason === 'no_parent_in_base') await removeEmptyParents(scratchRoot, segments);
      }
      links.push({ path, target, linked: false, reason });
      continue;
    }
    if (ours) {
      links.push({ path, target, linked: true, reason: null });
      continue;
    }
    const free = (await lstat(at).catch(() => undefined)) === undefined;
    if (free && (await realFolderChain(scratchRoot, segments.slice(0, -1)))) {
      await symlink(target, at);
      links.push({ path, target, linked: true, reason: null });
    } else {
      links.push({ path, target, linked: false, reason: 'occupied' });
    }
  }
  return links;
}

async function removeEmptyParents(root: string, segments: readonly string[]): Promise<void> {
  for (let depth = segments.length - 1; depth > 0; depth--) {
    try {
      await rmdir(join(root, ...segments.slice(0, depth)));
    } catch {
      return;
    }
  }
}

/**
 * Pathspecs naming the linked folders, for `git clean` to leave them alone. Never give them to
 * `git add`, even as exclusions: when a .gitignore spelled `node_modules` (no slash) ignores the
 * link, `git add` refuses a pathspec that names an ignored path ("Use -f if you really want to
 * add them") and the capture fails. A capture adds everything, then drops the links with
 * {@link linkPaths} and `git rm --cached`, which reads no ignore rules.
 */
export function linkExcludes(links: readonly ScratchLink[]): string[] {
  return links.filter((l) => l.linked).map((l) => `:(top,exclude,literal)${l.path}`);
}

/** Pathspecs naming the linked folders themselves (and anything a command put in their place). */
export function linkPaths(links: readonly ScratchLink[]): string[] {
  return links.filter((l) => l.linked).map((l) => `:(top,literal)${l.path}`);
}

/** Whether a tree change could affect a link: it touches the link's path or its parent folder. */
export function touchesLink(link: ScratchLink, path: string): boolean {
  const parent = link.path.includes('/') ? link.path.slice(0, link.path.lastIndexOf('/')) : '';
  return path === link.path || path.startsWith(`${link.path}/`) || (parent !== '' && (path === parent || path.startsWith(`${parent}/`)));
}
