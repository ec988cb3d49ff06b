/**
 * Checkpoints own their objects (issue 10 item 4). The shadow borrows the user's object store
 * (alternates), so a first snapshot need not hash or copy what git already has; but what the
 * user's refs no longer keep (content that was only staged, history the user rewrote) goes at
 * the user's next `git gc --prune=now`, and every checkpoint that named it with it.
 *
 * So whenever a snapshot is taken or a checkpoint recorded, every pack and loose object of the stores the shadow
 * borrows from is hard-linked into the shadow's own store (where not linked already). A link
 * is O(1) whatever the pack's size, costs no disk while the user keeps the file too, and
 * survives the user's gc deleting its name: git never rewrites an object file in place, it
 * writes new ones and unlinks the old. Where a link cannot be made (another file system, a
 * file the user does not own under protected_hardlinks), the file is copied (a reflink where
 * the file system has them). `aide checkpoints prune` later repacks what the kept checkpoints
 * need from packs the user no longer has, and drops the rest.
 *
 * Measured here (2 cores, load 14-21): a packed repository, 0.4-2.4 ms (two links the first
 * time, two folder reads after); 3,000 loose objects, 220-900 ms the first time, 20-80 ms to
 * find nothing new afterwards (512 folder reads). Also called after every snapshot: the index
 * may name the user's staged blobs before any checkpoint does.
 */
import { constants } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { ShadowGit } from './git.js';
import { forgetOwnedCheckpoints } from './owned-checkpoints.js';

const LOOSE_DIR = /^[0-9a-f]{2}$/;
const LOOSE_NAME = /^[0-9a-f]{38}(?:[0-9a-f]{24})?$/;

/** Object dirs named by an objects/info/alternates file (relative ones are relative to that objects dir). */
async function alternatesOf(objectsDir: string): Promise<string[]> {
  const text = await readFile(join(objectsDir, 'info', 'alternates'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => (isAbsolute(line) ? line : resolve(objectsDir, line)));
}

/** Every store the shadow borrows from, alternates of alternates included (as git follows them, 5 deep). */
export async function borrowedStores(shadowObjects: string): Promise<string[]> {
  const found: string[] = [];
  let level = await alternatesOf(shadowObjects);
  for (let depth = 0; depth < 5 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (found.includes(dir) || dir === shadowObjects) continue;
      found.push(dir);
      next.push(...(await alternatesOf(dir)));
    }
    level = next;
  }
  return found;
}

export interface OwnResult {
  /** Files linked (or copied) in this call. */
  linked: number;
  copied: number;
}

/** Links `from` to `to`; copies where a link cannot be made. false when `from` is gone. */
async function linkOrCopy(from: string, to: string, result: OwnResult): Promise<boolean> {
  try {
    await link(from, to);
    result.linked++;
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return true;
    if (code === 'ENOENT') return false;
  }
  // Another file system or not ours to link: copy beside, then rename, so no half file is seen.
  const temp = `${to}.aide-tmp-${process.pid}`;
  try {
    await copyFile(from, temp, constants.COPYFILE_FICLONE);
    await rename(temp, to);
    result.copied++;
    return true;
  } catch (error) {
    await rm(temp, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

const names = (dir: string) => readdir(dir).catch(() => [] as string[]);

/**
 * Loose-object folders of a borrowed store known to hold nothing the shadow lacks, by the
 * folder's inode and modification time when every object in it was linked: a folder gains an
 * entry only by changing its mtime, so an unchanged one is skipped with one stat instead of
 * two folder reads (a store of 30k loose objects: 100–500 ms per call here, paid at every
 * checkpoint and snapshot, down to the 256 stats). Kept in the shadow's git dir for the next
 * process, which verify commands cannot write (the workspace is read-only to them); a prune,
 * which deletes loose objects from the shadow, forgets them. A folder changed within the last
 * second is not remembered: a timestamp's granularity could hide an object added right after
 * the stat.
 */
const SETTLED_FILE = 'aide-settled-objects';
const SETTLED_AFTER_MS = 1000;

interface Settled {
  /** Folder path → `<inode>:<mtime ns>` when everything in it was linked. */
  marks: Map<string, string>;
  changed: boolean;
}

/** Per shadow git dir, read once per process. */
const settledByShadow = new Map<string, Settled>();

async function settledFor(gitDir: string): Promise<Settled> {
  let settled = settledByShadow.get(gitDir);
  if (settled === undefined) {
    const text = await readFile(join(gitDir, SETTLED_FILE), 'utf8').catch(() => '');
    settled = { marks: new Map(parseSettled(text)), changed: false };
    settledByShadow.set(gitDir, settled);
  }
  return settled;
}

/** The file's folder marks; anything but the shape written below reads as none. */
function parseSettled(text: string): Array<[string, string]> {
  try {
    const parsed = JSON.parse(text) as { version?: unknown; dirs?: unknown };
    if (parsed.version !== 1 || typeof parsed.dirs !== 'object' || parsed.dirs === null) return [];
    return Object.entries(parsed.dirs).filter((e): e is [string, string] => typeof e[1] === 'string');
  } catch {
    return [];
  }
}

async function saveSettled(gitDir: string, settled: Settled): Promise<void> {
  if (!settled.changed) return;
  const file = join(gitDir, SETTLED_FILE);
  const text = JSON.stringify({ version: 1, dirs: Object.fromEntries(settled.marks) });
  await writeFile(`${file}.tmp`, `${text}\n`);
  await rename(`${file}.tmp`, file);
  settled.changed = false;
}

/** Forgets which folders were settled: after a prune deleted loose objects from the shadow. */
export async function forgetSettledDirs(gitDir: string): Promise<void> {
  settledByShadow.delete(gitDir);
  forgetOwnedCheckpoints(gitDir);
  await rm(join(gitDir, SETTLED_FILE), { force: true });
}

/** Drops what this process read of the settled folders (as a new process starts: for tests). */
export function unloadSettledDirs(): void {
  settledByShadow.clear();
  forgetOwnedCheckpoints();
}

/**
 * A pack is linked .pack first (and its optional .rev), .idx last: git finds packs by their
 * .idx, so it never sees an index without its pack. Kept-pack markers, bitmaps and cruft
 * mtimes stay behind: they describe the user's repository, not the shadow's.
 */
async function ownPacks(store: string, shadowObjects: string, result: OwnResult): Promise<void> {
  const source = join(store, 'pack');
  const target = join(shadowObjects, 'pack');
  // A pack gone between listing and linking was repacked by the user's gc: its objects are in
  // a newer pack, which the next listing shows.
  for (let attempt = 0; attempt < 3; attempt++) {
    const have = new Set(await names(target));
    let vanished = false;
    for (const name of await names(source)) {
      if (!name.endsWith('.idx') || have.has(name)) continue;
      const base = name.slice(0, -'.idx'.length);
      if (!(await linkOrCopy(join(source, `${base}.pack`), join(target, `${base}.pack`), result))) {
        vanished = true;
        continue;
      }
      await linkOrCopy(join(source, `${base}.rev`), join(target, `${base}.rev`), result);
      await linkOrCopy(join(source, name), join(target, name), result);
    }
    if (!vanished) return;
  }
}

/** One of the 256 loose-object folders: its objects the shadow lacks, linked side by side. */
async function ownLooseDir(
  store: string,
  shadowObjects: string,
  dir: string,
  result: OwnResult,
  settled: Settled,
): Promise<void> {
  const folder = join(store, dir);
  const seen = Date.now();
  const info = await stat(folder, { bigint: true }).catch(() => null);
  if (info === null) return;
  const mark = `${info.ino}:${info.mtimeNs}`;
  if (settled.marks.get(folder) === mark) return;
  const objects = (await names(folder)).filter((n) => LOOSE_NAME.test(n));
  const have = new Set(objects.length === 0 ? [] : await names(join(shadowObjects, dir)));
  const missing = objects.filter((n) => !have.has(n));
  if (missing.length > 0) {
    await mkdir(join(shadowObjects, dir), { recursive: true });
    await Promise.all(
      missing.map((name) => linkOrCopy(join(folder, name), join(shadowObjects, dir, name), result)),
    );
  }
  if (Number(info.mtimeNs / 1_000_000n) < seen - SETTLED_AFTER_MS) {
    settled.marks.set(folder, mark);
    settled.changed = true;
  }
}

/** Folders in parallel, 64 at a time: the file system's latency, not the CPU, is the cost. */
async function ownLoose(
  store: string,
  shadowObjects: string,
  result: OwnResult,
  settled: Settled,
): Promise<void> {
  const dirs = (await names(store)).filter((d) => LOOSE_DIR.test(d));
  for (let at = 0; at < dirs.length; at += 64) {
    await Promise.all(
      dirs.slice(at, at + 64).map((dir) => ownLooseDir(store, shadowObjects, dir, result, settled)),
    );
  }
}

/** Makes every object of the borrowed stores the shadow's own (see the file comment). */
export async function ownBorrowedObjects(git: ShadowGit): Promise<OwnResult> {
  const shadowObjects = join(git.location.gitDir, 'objects');
  const result: OwnResult = { linked: 0, copied: 0 };
  const settled = await settledFor(git.location.gitDir);
  for (const store of await borrowedStores(shadowObjects)) {
    await ownPacks(store, shadowObjects, result);
    await ownLoose(store, shadowObjects, result, settled);
  }
  await saveSettled(git.location.gitDir, settled);
  return result;
}
