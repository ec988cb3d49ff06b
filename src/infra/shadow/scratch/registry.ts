/**
 * Where scratches live and who owns them. Scratches live outside the workspace, so the project's
 * own tools never see them: `<tmp>/aide-scratch/<hash of user and workspace>/<session>/`. A
 * scratch whose owner is dead (a crash, kill -9, a reboot) is stale and removed the next time one
 * is opened for the workspace.
 *
 * What decides a removal is never something a verify command can write (DESIGN.md): such a
 * command runs inside a scratch, so the scratch home next to it is the last place to keep it.
 * - Which folder: only `<home>/<name>` for a name of aide's own shape (a session id), a real
 *   folder (not a symlink) whose resolved real path is a direct child of the home's. Never a
 *   path read from a file.
 * - Which symlinks go first: the configured links of that scratch, found by their place in it.
 * - The worktree's admin folder in the shadow: left to `git worktree prune`, which removes only
 *   entries under the shadow's own `worktrees/` whose folder is gone.
 * - The home itself: only once it is empty (its last scratch disposed), as the folder aide
 *   derived for this workspace and user, a real folder this user owns. `rmdir` removes no
 *   content and never follows a symlink, so a home still holding anything (a planted name, a
 *   crashed scratch) stays. The shared `aide-scratch` above it is never removed.
 * - Whose it is: an owner record `<workspace>/.aide/state/scratches/<session>.json` (pid and
 *   start time). It lives in the workspace's state because that is what the workspace lock
 *   guards (one aide at a time mutates it), sandboxed commands see the workspace read-only, and
 *   it goes with the workspace. Even where a command could write it (isolation off), a record
 *   can only say whether a scratch is in use: it names no path.
 */
import { createHash } from '../../node/lazy-builtins.js';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { validSessionId } from '../checkpoints.js';
import { STATE_DIR } from '../shadow-repo.js';
import { isLinkGlob, linkSegments, realFolderChain, removeLink } from './links.js';
import { processAlive } from '../../process/process-identity.js';
import { lstatOrUndefined, namesIn, settled } from '../../fs/small-files.js';

export const SCRATCH_ROOT = 'aide-scratch';
/** Where older aides kept owner records, inside the scratch home: removed, never read. */
const LEGACY_OWNERS = '.owners';
/** Owner records, under the workspace's `.aide/state/`. */
const RECORDS = 'scratches';

const ownerRecordSchema = z.object({
  version: z.literal(2),
  pid: z.number().int(),
  /** Boot id and start time of the owner on Linux, so a reused pid is not taken for the owner. */
  identity: z.string().nullable(),
  createdAt: z.string(),
});
export type OwnerRecord = z.infer<typeof ownerRecordSchema>;

/** The current user's id, where the platform has one (not on Windows). */
function userId(): number {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}

/** The folder holding a workspace's scratches: one per user and workspace path. */
export function scratchHome(tempRoot: string, workspaceRoot: string): string {
  const hash = createHash('sha256').update(`${userId()}\0${workspaceRoot}`).digest('hex').slice(0, 16);
  return join(tempRoot, SCRATCH_ROOT, hash);
}

/**
 * Creates the scratch home. `aide-scratch` is shared like /tmp itself (sticky, world-writable, so
 * every user can have a folder in it); each workspace folder is private to its user. Neither may
 * be a symlink someone planted, nor a folder another user controls.
 */
export function ensureScratchHome(home: string): Promise<void> {
  return settled(() => {
    const shared = dirname(home);
    mkdirSync(shared, { recursive: true });
    const sharedInfo = lstatSync(shared);
    if (sharedInfo.isDirectory() && sharedInfo.uid === userId() && (sharedInfo.mode & 0o7777) !== 0o1777)
      chmodSync(shared, 0o1777);
    const sharedOk =
      sharedInfo.isDirectory() &&
      (sharedInfo.uid === userId() || sharedInfo.uid === 0 || (sharedInfo.mode & 0o1000) !== 0);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const info = lstatSync(home);
    if (!sharedOk || !info.isDirectory() || info.uid !== userId()) {
      throw new Error(`${home} is not a private folder of this user: refusing to put scratch copies there`);
    }
  });
}

export { processIdentity } from '../../process/process-identity.js';

/** Whether the process that wrote the record is still running (a pid reused by another process does not count). */
export async function ownerAlive(record: Pick<OwnerRecord, 'pid' | 'identity'>): Promise<boolean> {
  return processAlive(record.pid, record.identity);
}

/** The folder of a workspace's owner records, from its state folder (`<root>/.aide/state`). */
export function recordsDir(stateDir: string): string {
  return join(stateDir, RECORDS);
}

/** The scratches of the workspace at `root` (aide doctor: no shadow opened, no lock taken). */
export function listWorkspaceScratches(tempRoot: string, root: string): Promise<ScratchEntry[]> {
  return listScratches(scratchHome(tempRoot, root), recordsDir(join(root, STATE_DIR)));
}

export function ownerFile(records: string, session: string): string {
  if (!validSessionId(session)) throw new Error(`"${session}" is not a session id`);
  return join(records, `${session}.json`);
}

export function writeOwner(records: string, session: string, record: OwnerRecord): Promise<void> {
  return settled(() => {
    const file = ownerFile(records, session);
    mkdirSync(records, { recursive: true });
    writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  });
}

function readOwner(file: string): OwnerRecord | null {
  try {
    const parsed = ownerRecordSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface ScratchEntry {
  session: string;
  /** `<home>/<session>`: derived from the name, never read from a record. */
  path: string;
  /** null when there is no readable owner record (a crash while it was made, or an older aide's). */
  owner: OwnerRecord | null;
  alive: boolean;
}

/** Names in `dir` that are session ids (never a dot-name, a separator or `..`). */
function sessionNames(dir: string, suffix = ''): string[] {
  return namesIn(dir)
    .filter((name) => name.endsWith(suffix))
    .map((name) => name.slice(0, name.length - suffix.length))
    .filter(validSessionId);
}

/** The scratches of a workspace (folders in its home, records in its state), with whether their owners are alive. Reads only. */
export async function listScratches(home: string, records: string): Promise<ScratchEntry[]> {
  const sessions = new Set([...sessionNames(home), ...sessionNames(records, '.json')]);
  const entries: ScratchEntry[] = [];
  for (const session of [...sessions].sort()) {
    const owner = readOwner(ownerFile(records, session));
    entries.push({
      session,
      path: join(home, session),
      owner,
      alive: owner !== null && (await ownerAlive(owner)),
    });
  }
  return entries;
}

/**
 * The scratch folder of `session` in `home`, as a real path, when it is provably one of aide's:
 * a real folder (not a symlink) directly in the home. A symlink of that name (planted: aide never
 * makes one) is removed as a link. null when there is nothing aide may remove.
 */
function provenScratch(home: string, session: string): string | null {
  if (!validSessionId(session)) return null;
  const path = join(home, session);
  const info = lstatOrUndefined(path);
  if (info?.isSymbolicLink() === true) unlinkSync(path);
  if (info === undefined || !info.isDirectory()) return null;
  let realHome: string | null = null;
  let real: string | null = null;
  try {
    realHome = realpathSync.native(home);
    real = realpathSync.native(path);
  } catch {
    return null;
  }
  if (realHome === null || real === null || dirname(real) !== realHome || basename(real) !== session)
    return null;
  return real;
}

/**
 * Removes the scratch folder of `session` from `home`, if it is provably aide's: the configured
 * links first, as links (never what they point at), where each is reached through real folders
 * of the scratch (a folder of links has its symlinks unlinked); then the folder (fs.rm never
 * follows symlinks either). `links` are the configured ones or those a scratch resolved. Returns whether it went.
 */
export async function removeScratchFolder(
  home: string,
  session: string,
  links: readonly string[],
): Promise<boolean> {
  const folder = provenScratch(home, session);
  if (folder === null) return false;
  // A glob names no one path without a walk of the scratch: its links go with the folder.
  for (const configured of links.filter((l) => !isLinkGlob(l))) {
    const segments = linkSegments(configured);
    if (segments === null || !realFolderChain(folder, segments.slice(0, -1))) continue;
    await removeLink(join(folder, ...segments));
  }
  await rm(folder, { recursive: true, force: true });
  return true;
}

/** Removes the owner records folder older aides kept in the scratch home (a real folder there only). */
export async function removeLegacyOwners(home: string): Promise<void> {
  const path = join(home, LEGACY_OWNERS);
  const info = lstatOrUndefined(path);
  if (info === undefined) return;
  if (info.isDirectory()) await rm(path, { recursive: true, force: true });
  else unlinkSync(path);
}

/**
 * Removes the scratch home once its last scratch is gone, so the temp dir does not keep an empty
 * folder per workspace ever verified (tests left thousands). The workspace lock, held by whoever
 * disposes a scratch, keeps another aide from opening one here meanwhile. Only the home aide
 * derived (never a path read from a file), only a real folder of this user's, only when empty:
 * anything in it, planted or not, keeps it.
 */
export function removeEmptyScratchHome(home: string): Promise<void> {
  return settled(() => {
    const info = lstatOrUndefined(home);
    if (info === undefined || !info.isDirectory() || info.uid !== userId()) return;
    try {
      rmdirSync(home);
    } catch (error) {
      // Not empty (kept), or gone already: neither is a failure of the run.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') throw error;
    }
  });
}
