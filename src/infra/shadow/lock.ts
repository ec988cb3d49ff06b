/**
 * One aide process at a time mutates a workspace: `.aide/state/lock` holds the owner's pid.
 * A lock left by a dead process (a crash, kill -9) is taken over; a live owner is named in
 * the error so the user can find it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AideError } from '../../shared/errors.js';

export interface LockRecord {
  pid: number;
  command: string;
  startedAt: string;
}

export interface WorkspaceLock {
  readonly path: string;
  /** True when a stale lock from a dead process was taken over. */
  readonly tookOver: LockRecord | null;
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readRecord(path: string): Promise<LockRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockRecord>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, command: parsed.command ?? '?', startedAt: parsed.startedAt ?? '?' } : null;
  } catch {
    return null;
  }
}

async function tryCreate(path: string, record: LockRecord): Promise<boolean> {
  try {
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(JSON.stringify(record));
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The live process holding a workspace's lock, or null (none, or a dead one's stale lock). Reads only. */
export async function lockHolder(stateDir: string): Promise<LockRecord | null> {
  const owner = await readRecord(join(stateDir, 'lock'));
  return owner !== null && alive(owner.pid) ? owner : null;
}

/** Takes the workspace lock for `command`, or throws naming the live owner. */
export async function acquireLock(stateDir: string, command: string): Promise<WorkspaceLock> {
  const path = join(stateDir, 'lock');
  await mkdir(dirname(path), { recursive: true });
  const record: LockRecord = { pid: process.pid, command, startedAt: new Date().toISOString() };
  let tookOver: LockRecord | null = null;
  if (!(await tryCreate(path, record))) {
    const owner = await readRecord(path);
    // Our own pid counts as alive: opening the same workspace twice in one process is a bug.
    if (owner !== null && alive(owner.pid)) {
      throw new AideError('workspace_locked', `another aide process is working in this workspace (pid ${owner.pid}: aide ${owner.command}, since ${owner.startedAt})`, {
        hint: `Wait for it to finish, or stop it (kill ${owner.pid}). The lock is ${path}.`,
      });
    }
    // The owner is gone: take the lock over atomically, then check that we won any race.
    const temp = `${path}.${randomBytes(4).toString('hex')}`;
    await writeFile(temp, JSON.stringify(record));
    await rename(temp, path);
    const now = await readRecord(path);
    if (now?.pid !== process.pid) {
      throw new AideError('workspace_locked', `another aide process (pid ${now?.pid ?? '?'}) took over this workspace's lock just now`, { hint: 'Try again when it has finished.' });
    }
    tookOver = owner ?? { pid: 0, command: 'unknown', startedAt: 'unknown' };
  }
  return {
    path,
    tookOver,
    release: async () => {
      const current = await readRecord(path);
      if (current?.pid === process.pid) await rm(path, { force: true });
    },
  };
}
