/**
 * Where scratches live and who owns them. Outside the workspace, so the project's own tools
 * never see them: `<tmp>/aide-scratch/<hash of user and workspace>/<session>/`, each with an
 * owner record `.owners/<session>.json` beside it naming the process that made it (session ids
 * never start with a dot). A scratch whose
 * owner is dead (a crash, kill -9, a reboot) is stale and removed the next time one is opened for
 * the workspace.
 */
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { processAlive } from '../../process/process-identity.js';

export { processIdentity } from '../../process/process-identity.js';

export const SCRATCH_ROOT = 'aide-scratch';
const OWNERS = '.owners';

export interface OwnerRecord {
  version: 1;
  pid: number;
  /** Boot id and start time of the owner on Linux, so a reused pid is not taken for the owner. */
  identity: string | null;
  session: string;
  workspace: string;
  /** The scratch folder. */
  path: string;
  /** The worktree's administrative folder in the shadow (`shadow.git/worktrees/<name>`), once made. */
  adminDir: string | null;
  /** Symlinks made in the scratch (absolute paths): removed as links before anything else. */
  links: string[];
  createdAt: string;
}

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
export async function ensureScratchHome(home: string): Promise<void> {
  const shared = dirname(home);
  await mkdir(shared, { recursive: true });
  const sharedInfo = await lstat(shared);
  if (sharedInfo.isDirectory() && sharedInfo.uid === userId() && (sharedInfo.mode & 0o7777) !== 0o1777) await chmod(shared, 0o1777);
  const sharedOk = sharedInfo.isDirectory() && (sharedInfo.uid === userId() || sharedInfo.uid === 0 || (sharedInfo.mode & 0o1000) !== 0);
  await mkdir(home, { recursive: true, mode: 0o700 });
  const info = await lstat(home);
  if (!sharedOk || !info.isDirectory() || info.uid !== userId()) {
    throw new Error(`${home} is not a private folder of this user: refusing to put scratch copies there`);
  }
}

/** Whether the process that wrote the record is still running (a pid reused by another process does not count). */
export async function ownerAlive(record: Pick<OwnerRecord, 'pid' | 'identity'>): Promise<boolean> {
  return processAlive(record.pid, record.identity);
}

export function ownerFile(home: string, session: string): string {
  return join(home, OWNERS, `${session}.json`);
}

export async function writeOwner(home: string, record: OwnerRecord): Promise<void> {
  const file = ownerFile(home, record.session);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
}

async function readOwner(file: string): Promise<OwnerRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<OwnerRecord>;
    if (typeof parsed.pid !== 'number' || typeof parsed.session !== 'string' || typeof parsed.path !== 'string') return null;
    return {
      version: 1,
      pid: parsed.pid,
      identity: typeof parsed.identity === 'string' ? parsed.identity : null,
      session: parsed.session,
      workspace: typeof parsed.workspace === 'string' ? parsed.workspace : '?',
      path: parsed.path,
      adminDir: typeof parsed.adminDir === 'string' ? parsed.adminDir : null,
      links: Array.isArray(parsed.links) ? parsed.links.filter((l): l is string => typeof l === 'string') : [],
      createdAt: typeof parsed.createdAt === 'string' ? parsed.createdAt : '?',
    };
  } catch {
    return null;
  }
}

export interface ScratchEntry {
  session: string;
  path: string;
  /** null when the folder has no readable owner record (a crash while it was being made). */
  owner: OwnerRecord | null;
  alive: boolean;
}

/** The scratches of a workspace, with whether their owners are alive. Reads only. */
export async function listScratches(home: string): Promise<ScratchEntry[]> {
  const folders = await readdir(home).catch(() => [] as string[]);
  const records = await readdir(join(home, OWNERS)).catch(() => [] as string[]);
  const sessions = new Set(folders.filter((name) => !name.startsWith('.')));
  for (const name of records) if (name.endsWith('.json')) sessions.add(name.slice(0, -'.json'.length));
  const entries: ScratchEntry[] = [];
  for (const session of [...sessions].sort()) {
    const owner = await readOwner(ownerFile(home, session));
    entries.push({ session, path: owner?.path ?? join(home, session), owner, alive: owner !== null && (await ownerAlive(owner)) });
  }
  return entries;
}

/**
 * Removes a scratch folder: its symlinks first, as links (never what they point at), then the
 * folder itself (fs.rm does not follow symlinks either).
 */
export async function removeScratchFolder(path: string, links: readonly string[]): Promise<void> {
  for (const link of links) {
    const info = await lstat(link).catch(() => undefined);
    if (info?.isSymbolicLink() === true) await unlink(link);
  }
  await rm(path, { recursive: true, force: true });
}
