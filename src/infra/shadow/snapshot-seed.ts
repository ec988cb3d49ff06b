/**
 * Seeding a snapshot's index from the user's own: git then re-hashes only files whose stat data
 * changed (LESSONS.md: 0.28 s instead of 3.9 s on babel's 27.7k files). This module decides
 * where that is safe, copies the index and drops the entries it cannot trust.
 *
 * The rule. A seeded entry whose stat data matches the file is never re-hashed: its blob is
 * taken as the file's bytes. The user's git stored that blob as `convert_to_git(bytes)` (their
 * attributes and config), while the shadow stores bytes as they are (shadow-repo.ts writes
 * `* -text -crlf -ident -filter -working-tree-encoding` into its info/attributes, git.ts forces
 * core.autocrlf=false). So an entry may be seeded exactly when that conversion left the bytes
 * alone. git's conversions on add are, in order (convert.c):
 *
 * - a clean filter (`filter=`: git-lfs stores a pointer, nbstripout rewrites notebooks) and a
 *   working-tree encoding: anything, the size kept or not. No seed wherever one is set. (One
 *   set when a file was added and removed since is not seen: git then takes the entry as
 *   clean too, until `git add --renormalize`.)
 * - CRLF → LF (`text`, `eol`, `crlf`, `text=auto`, core.autocrlf at any level of config) and
 *   `ident` (`$Id: … $` → `$Id$`): bytes are only ever removed. The index records the file's
 *   size with its stat data, so a blob of another size proves a conversion, and a blob of the
 *   same size proves there was none (the index keeps 32 bits of it: a blob over 4 GiB never
 *   matches, and is hashed again). Every regular entry is checked so (one `cat-file` of the
 *   user's blobs), whatever the attributes say now: a global `core.autocrlf=input`, or attributes
 *   changed since the file was added, leave converted blobs as stat-clean as any other. Under
 *   babel's `* text eol=lf` with LF files nothing differs and the whole index is kept; a file
 *   with CRLF in it is dropped, and the next `add` stores its bytes.
 *
 * Where most entries would be dropped (a CRLF checkout: core.autocrlf=true or core.eol=crlf in
 * the repository's config, an `eol=crlf` attribute) or `ident` is set, the seed is not taken at
 * all: it would be the naive `add -A` plus the check.
 */
import { lstatSync } from 'node:fs';
import { open, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { configPath } from '../git/user-repo.js';
import type { ShadowGit } from './git.js';
import { parseIndex, type IndexEntry } from './index-file.js';
import type { Env, Workspace } from './shadow-repo.js';

/**
 * Attributes that refuse the seed: the conversions that may keep a file's size (a filter, a
 * working-tree encoding), and those that would drop most entries (a CRLF checkout) or that
 * rewrite content on checkout (`ident`). Set, not unset (`-filter`, `!ident` are fine); a
 * mention in a comment or a path named so refuses too, which is only slower.
 */
const REFUSING_ATTRIBUTE = /(?:^|\s)(?:filter|ident|working-tree-encoding|eol=crlf)\b/m;

/** The system-wide attribute files git may read ($(prefix)/etc/gitattributes, for the usual prefixes). */
const SYSTEM_ATTRIBUTES = ['/etc/gitattributes', '/usr/local/etc/gitattributes'];

/** The user's index as read once: the bytes to copy, their times (for git's racy check), the entries. */
export interface SeedIndex {
  /** The user's index file. */
  index: string;
  /** Its bytes, as checked: these are copied, not the file again. */
  bytes: Buffer;
  /** Its times when they were read (the copy keeps them). */
  atime: Date;
  mtime: Date;
  /** Its entries, parsed from `bytes`. */
  entries: IndexEntry[];
}

/**
 * The index file's bytes and times from one open file: git replaces the index by renaming a
 * new one over it, so a stat of the path after reading could describe a newer index than the
 * bytes, and hide a racily clean entry.
 */
async function readIndexFile(path: string): Promise<Omit<SeedIndex, 'entries' | 'index'> | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const info = await handle.stat();
    return { bytes: await handle.readFile(), atime: info.atime, mtime: info.mtime };
  } finally {
    await handle.close();
  }
}

/**
 * The config files the user's git reads, as the queries of git/user-repo.ts see them (its
 * environment passes HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL and GIT_CONFIG_NOSYSTEM only).
 */
function configFiles(env: Env, commonDir: string, gitDir: string): string[] {
  const home = env['HOME'];
  const xdg = env['XDG_CONFIG_HOME'] ?? (home === undefined ? undefined : join(home, '.config'));
  const global = env['GIT_CONFIG_GLOBAL'];
  return [
    ...(global !== undefined ? [global] : []),
    ...(global === undefined && home !== undefined ? [join(home, '.gitconfig')] : []),
    ...(global === undefined && xdg !== undefined ? [join(xdg, 'git', 'config')] : []),
    ...(env['GIT_CONFIG_NOSYSTEM'] === undefined ? ['/etc/gitconfig'] : []),
    join(commonDir, 'config'),
    join(gitDir, 'config.worktree'),
  ];
}

/**
 * The user's global attributes file: core.attributesFile, or git's XDG default. git is asked
 * (a query costs 10-90 ms here) only when a config file names the setting or includes another.
 */
async function globalAttributesFile(
  workspace: Workspace,
  env: Env,
  dirs: { commonDir: string; gitDir: string },
): Promise<string | undefined> {
  const texts = await Promise.all(
    configFiles(env, dirs.commonDir, dirs.gitDir).map((file) => readFile(file, 'utf8').catch(() => '')),
  );
  if (texts.some((text) => /attributesfile|^\s*\[\s*include/im.test(text))) {
    const configured = await configPath(workspace.root, 'core.attributesFile', env);
    if (configured !== undefined) return configured;
  }
  const xdg =
    env['XDG_CONFIG_HOME'] ?? (env['HOME'] === undefined ? undefined : join(env['HOME'], '.config'));
  return xdg === undefined ? undefined : join(xdg, 'git', 'attributes');
}

/** The folders that hold an entry (the top one included), and the tracked attribute files. */
function entryFolders(entries: readonly IndexEntry[]): { folders: Set<string>; tracked: Set<string> } {
  const folders = new Set<string>(['']);
  const tracked = new Set<string>();
  let last = '';
  for (const { path } of entries) {
    if (path === '.gitattributes' || path.endsWith('/.gitattributes')) tracked.add(path);
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : path.slice(0, slash);
    // Entries are sorted: most share the folder of the one before.
    if (folder === last) continue;
    last = folder;
    for (let at = folder; at !== '' && !folders.has(at); at = at.slice(0, Math.max(0, at.lastIndexOf('/'))))
      folders.add(at);
  }
  return { folders, tracked };
}

/**
 * Whether an attribute file that applies to a seeded entry refuses the seed: the system and
 * global files, info/attributes, and `.gitattributes` in every folder that holds an entry
 * (tracked or not: git reads the work tree's). A tracked `.gitattributes` missing from the work
 * tree, which git would read from the index, refuses too.
 */
async function attributesRefuse(
  workspace: Workspace,
  env: Env,
  dirs: { commonDir: string; gitDir: string },
  entries: readonly IndexEntry[],
): Promise<boolean> {
  const global = await globalAttributesFile(workspace, env, dirs);
  const fixed = [...SYSTEM_ATTRIBUTES, ...(global === undefined ? [] : [global])];
  fixed.push(join(dirs.commonDir, 'info', 'attributes'));
  for (const text of await Promise.all(fixed.map((file) => readFile(file, 'latin1').catch(() => ''))))
    if (REFUSING_ATTRIBUTE.test(text)) return true;
  const { folders, tracked } = entryFolders(entries);
  const root = Buffer.from(`${workspace.root}/`);
  // Synchronous: a thousand lstats of cached folders take a few ms, the thread pool's round
  // trips many times that; most folders have no attribute file.
  for (const folder of folders) {
    const name = folder === '' ? '.gitattributes' : `${folder}/.gitattributes`;
    const file = Buffer.concat([root, Buffer.from(name, 'latin1')]);
    const info = lstatSync(file, { throwIfNoEntry: false });
    if (info === undefined) {
      if (tracked.has(name)) return true;
      continue;
    }
    if (REFUSING_ATTRIBUTE.test(await readFile(file, 'latin1').catch(() => ''))) return true;
  }
  return false;
}

/**
 * The user's index, read and checked, when it can seed ours: a plain index (not split, not
 * sparse, SHA-1) in a repository whose attributes and config allow it (see the module comment).
 */
export async function seedableIndex(workspace: Workspace, env: Env): Promise<SeedIndex | undefined> {
  if (workspace.user === null) return undefined;
  const { gitDir, commonDir } = workspace.user;
  const config = await readFile(join(commonDir, 'config'), 'utf8').catch(() => '');
  if (/^\s*(?:splitIndex|sparseCheckout)\s*=\s*true/im.test(config)) return undefined;
  if (/^\s*objectformat\s*=\s*(?!sha1\b)/im.test(config)) return undefined;
  if (/^\s*autocrlf\s*=\s*true\b/im.test(config) || /^\s*eol\s*=\s*crlf\b/im.test(config)) return undefined;
  const index = join(gitDir, 'index');
  const file = await readIndexFile(index);
  if (file === undefined) return undefined;
  const parsed = parseIndex(file.bytes);
  // A split index's entries are in another file; a sparse one has folders for entries.
  if (parsed === null || parsed.extensions.some((e) => e === 'link' || e === 'sdir')) return undefined;
  if (await attributesRefuse(workspace, env, { commonDir, gitDir }, parsed.entries)) return undefined;
  return { index, ...file, entries: parsed.entries };
}

/**
 * Entries of a seeded index that must be hashed afresh: assume-unchanged and skip-worktree ones
 * (they hide edits, and their stat data is stale), and regular files whose blob is not the size
 * the index recorded for the file (a conversion removed bytes: see the module comment), or
 * whose blob the shadow cannot size. One `cat-file` for the sizes.
 */
async function untrustedEntries(git: ShadowGit, entries: readonly IndexEntry[]): Promise<string[]> {
  const drop: string[] = [];
  const checked: IndexEntry[] = [];
  for (const entry of entries) {
    if (entry.assumeValid || entry.skipWorktree) drop.push(entry.path);
    else if (entry.stage === 0 && (entry.mode === '100644' || entry.mode === '100755')) checked.push(entry);
  }
  // Each id once, in the order cat-file answers: line n is the size of the n-th id.
  const line = new Map<string, number>();
  for (const { id } of checked) if (!line.has(id)) line.set(id, line.size);
  const sizes = line.size === 0 ? [] : await blobSizes(git, [...line.keys()]);
  for (const entry of checked) if (sizes[line.get(entry.id) ?? -1] !== entry.size) drop.push(entry.path);
  return drop;
}

/**
 * The sizes of objects, in order; -1 for one the shadow does not have. One `cat-file`; its
 * 50k lines are read as bytes (splitting them into strings cost more than git here).
 */
async function blobSizes(git: ShadowGit, ids: readonly string[]): Promise<number[]> {
  // --buffer: without it git flushes after every object (50k ids: 230-370 ms instead of 40-60 here).
  const out = (
    await git.run(['cat-file', '--buffer', '--batch-check=%(objectsize)'], {
      input: `${ids.join('\n')}\n`,
    })
  ).stdout;
  const sizes: number[] = [];
  let size = 0;
  let digits = true;
  for (let at = 0; at < out.length; at++) {
    const byte = out[at] ?? 0;
    if (byte === 0x0a) {
      sizes.push(digits ? size : -1);
      size = 0;
      digits = true;
    } else if (byte >= 0x30 && byte <= 0x39) size = size * 10 + byte - 0x30;
    // "<id> missing"
    else digits = false;
  }
  return sizes;
}

/** Copies the user's index into the shadow and drops the entries it cannot trust. */
export async function seedIndex(git: ShadowGit, workspace: Workspace, env: Env): Promise<boolean> {
  const seed = await seedableIndex(workspace, env);
  if (seed === undefined) return false;
  const target = git.location.indexFile;
  const temp = `${target}.seed`;
  // The bytes that were checked, not the file again: the user's git may have replaced it since.
  await writeFile(temp, seed.bytes);
  // Keep the index's own mtime: git re-hashes "racily clean" entries (changed in the same second
  // as the index was written) only while the index is no newer than they are.
  await utimes(temp, seed.atime, seed.mtime);
  await rename(temp, target);
  const drop = await untrustedEntries(git, seed.entries);
  if (drop.length > 0)
    await git.run(['update-index', '-z', '--force-remove', '--stdin'], {
      input: Buffer.from(drop.map((path) => `${path}\0`).join(''), 'latin1'),
    });
  return true;
}
