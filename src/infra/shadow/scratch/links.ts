/**
 * Folders the verify commands need but snapshots leave out (ignored ones such as node_modules,
 * `link` in sandbox.json) are linked into the scratch, never copied. A link is made only where
 * the base has nothing at that path (a tracked node_modules is checked out like any other
 * folder) and its parent folder is in the base; it is never made over something already in the
 * scratch. Captures leave links out, and moves never write through them.
 *
 * A linked folder is a real folder of the scratch holding one symlink per top-level entry of
 * the workspace's folder (a scoped `@org` folder and `.bin` are single entries), not one symlink
 * for the whole folder: tools keep caches in node_modules (babel-loader, nyc, ava, eslint and
 * terser in `.cache`, Vite and Vitest in `.vite`, `.vite-temp`, `.vitest`, Astro in `.astro`),
 * and the workspace is read-only to the commands. Those cache folders are left out, so a tool
 * makes its own, writable, in the scratch, while every package still resolves from its real
 * path in the workspace, as through one symlink. `link` entries may be globs
 * ({@link resolveLinkPaths}).
 */
import { readdirSync, readlinkSync, type Dirent } from 'node:fs';
import { lstat, mkdir, readdir, rm, rmdir, stat, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { CACHE_ENTRIES, MAX_GLOB_DEPTH } from '../../../shared/links.js';
import type { ScratchLink } from '../../../core/ports/scratch.js';
import type { ObjectReader } from './object-reader.js';
import { lstatOrUndefined, settled } from '../../fs/small-files.js';

/** Top-level entries of a linked folder that tools write caches into: never linked, left for the tool to make in the scratch. */
const CACHES: ReadonlySet<string> = new Set(CACHE_ENTRIES);

/** A configured link path as '/'-separated segments, or null when it cannot name a folder in the workspace. */
export function linkSegments(path: string): string[] | null {
  const segments = path.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.some((s) => s === '..' || s.toLowerCase() === '.git')) return null;
  return segments;
}

/** Whether a configured link is a glob (e.g. `packages/*\/node_modules`) rather than one path. */
export function isLinkGlob(path: string): boolean {
  return picomatch.scan(path).isGlob;
}

/**
 * The workspace folders the configured links name: literal paths as they are, globs matched
 * against the workspace's folders. The walk never enters `.git`, a node_modules, a folder whose
 * name starts with a dot, or a folder a glob matched (only the outermost match is linked: a
 * monorepo has thousands of node_modules inside node_modules), nor follows symlinks; it goes as
 * deep as the longest glob, or {@link MAX_GLOB_DEPTH} folders for a `**`. The folders are read
 * synchronously, one after another as before: each listing was a thread pool round trip that
 * waited for a core on a busy machine, a few dozen of them at every scratch a verify opens
 * (the default globs go three folders deep), for names only.
 */
export function resolveLinkPaths(workspaceRoot: string, configured: readonly string[]): Promise<string[]> {
  return settled(() => linkPathsIn(workspaceRoot, configured));
}

function linkPathsIn(workspaceRoot: string, configured: readonly string[]): string[] {
  const found = new Set<string>();
  const globs: string[] = [];
  for (const path of configured) {
    if (isLinkGlob(path)) globs.push(path.replace(/\\/g, '/').replace(/^(\.\/)+/, ''));
    else {
      const segments = linkSegments(path);
      if (segments !== null) found.add(segments.join('/'));
    }
  }
  if (globs.length === 0) return [...found];
  const matches = picomatch(globs);
  const depth = globs.some((g) => g.includes('**'))
    ? MAX_GLOB_DEPTH
    : Math.max(...globs.map((g) => g.split('/').length));
  const walk = (rel: string, level: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(rel === '' ? workspaceRoot : join(workspaceRoot, rel), { withFileTypes: true });
    } catch {
      entries = [];
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === '.git') continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (matches(path)) {
        if (linkSegments(path) !== null) found.add(path);
      } else if (entry.name !== 'node_modules' && !entry.name.startsWith('.') && level + 1 < depth) {
        walk(path, level + 1);
      }
    }
  };
  walk('', 0);
  return [...found].sort();
}

/** Which of `paths` exist in `tree`. */
async function presentInTree(
  objects: ObjectReader,
  tree: string,
  paths: readonly string[],
): Promise<Set<string>> {
  const found = await Promise.all(paths.map((path) => objects.read(`${tree}:${path}`)));
  return new Set(paths.filter((_, i) => found[i] !== null));
}

/** Whether every one of `segments` under root is a real folder (no symlink on the way). */
export function realFolderChain(root: string, segments: readonly string[]): boolean {
  let dir = root;
  for (const segment of segments) {
    dir = join(dir, segment);
    const info = lstatOrUndefined(dir);
    if (info === undefined || info.isSymbolicLink() || !info.isDirectory()) return false;
  }
  return true;
}

/**
 * Makes the link at `at`: a folder of one symlink per entry of `target` (caches left out), or,
 * when `target` is not a folder, one symlink. The folder is made here first, so nothing else
 * can be in it but what a command puts there later.
 */
async function makeLink(target: string, at: string): Promise<void> {
  const info = await stat(target).catch(() => undefined);
  if (info?.isDirectory() !== true) {
    await symlink(target, at);
    return;
  }
  await mkdir(at);
  const names = await readdir(target);
  await Promise.all(
    names.filter((name) => !CACHES.has(name)).map((name) => symlink(join(target, name), join(at, name))),
  );
}

/**
 * Removes a link aide made at `at`: a symlink is unlinked; a folder of links has its symlinks
 * unlinked, then goes with whatever a command wrote there (fs.rm never follows a symlink).
 */
export async function removeLink(at: string): Promise<void> {
  const info = await lstat(at).catch(() => undefined);
  if (info === undefined) return;
  if (!info.isDirectory()) {
    await unlink(at);
    return;
  }
  const entries = await readdir(at, { withFileTypes: true });
  await Promise.all(entries.filter((e) => e.isSymbolicLink()).map((e) => unlink(join(at, e.name))));
  await rm(at, { recursive: true, force: true });
}

/** Whether `at` holds a link aide made for `path` in an earlier sync (as the scratch remembers it). */
function isOurs(previous: readonly ScratchLink[], path: string, at: string, target: string): boolean {
  if (!previous.some((l) => l.path === path && l.linked)) return false;
  const info = lstatOrUndefined(at);
  if (info === undefined) return false;
  return info.isDirectory() || (info.isSymbolicLink() && readlinkSync(at) === target);
}

/**
 * Brings the links of a scratch in line with its base `tree`: makes the links that can be made,
 * and removes the ones that can no longer stand (those `previous` says aide made). `paths` are
 * resolved ones ({@link resolveLinkPaths}). Cheap: a few lstat calls and object reads, and a
 * symlink per entry of each folder linked.
 */
export async function syncLinks(
  objects: ObjectReader,
  workspaceRoot: string,
  scratchRoot: string,
  tree: string,
  paths: readonly string[],
  previous: readonly ScratchLink[] = [],
): Promise<ScratchLink[]> {
  const wanted = paths.flatMap((path) => {
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
    // Synchronous stats: a review's scratch has a link or two, and these were its only calls
    // that started the thread pool.
    const ours = isOurs(previous, path, at, target);
    const exists = lstatOrUndefined(target) !== undefined;
    const reason: ScratchLink['reason'] = !exists
      ? 'missing_in_workspace'
      : present.has(path)
        ? 'tracked_in_base'
        : parentPath !== '' && !present.has(parentPath)
          ? 'no_parent_in_base'
          : null;
    if (reason !== null) {
      if (ours && realFolderChain(scratchRoot, segments.slice(0, -1))) {
        await removeLink(at);
        if (reason === 'no_parent_in_base') await removeEmptyParents(scratchRoot, segments);
      }
      links.push({ path, target, linked: false, reason });
      continue;
    }
    if (ours) {
      links.push({ path, target, linked: true, reason: null });
      continue;
    }
    const free = lstatOrUndefined(at) === undefined;
    if (free && realFolderChain(scratchRoot, segments.slice(0, -1))) {
      await makeLink(target, at);
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

/**
 * `git clean` options that keep the linked folders: an exclusion pathspec does not stop `clean -X`
 * from removing a real folder it collapses to `node_modules/`, so the links are un-ignored for the
 * clean (`-e !/path`, the path's pattern characters escaped), which `-X` then leaves alone.
 */
export function linkKeepOptions(links: readonly ScratchLink[]): string[] {
  return links
    .filter((l) => l.linked)
    .flatMap((l) => ['-e', `!/${l.path.replace(/[\\*?[\]]/g, (c) => `\\${c}`).replace(/ $/, '\\ ')}`]);
}

/** Pathspecs naming the linked folders themselves (and anything a command put in their place). */
export function linkPaths(links: readonly ScratchLink[]): string[] {
  return links.filter((l) => l.linked).map((l) => `:(top,literal)${l.path}`);
}

/** Whether a tree change could affect a link: it touches the link's path or its parent folder. */
export function touchesLink(link: ScratchLink, path: string): boolean {
  const parent = link.path.includes('/') ? link.path.slice(0, link.path.lastIndexOf('/')) : '';
  return (
    path === link.path ||
    path.startsWith(`${link.path}/`) ||
    (parent !== '' && (path === parent || path.startsWith(`${parent}/`)))
  );
}
