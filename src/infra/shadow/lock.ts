/**
 * One aide process at a time mutates a workspace: `.aide/state/lock` names the owner. A lock left
 * by a dead process (a crash, kill -9, a reboot) is taken over; a live owner is named in the
 * error so the user can find it.
 *
 * Why this holds with many aides starting at once (the argument, step by step):
 *
 * 1. A lock is written complete to a file of its own (`lock.<token>.new`) and then `link()`ed to
 *    `lock`. link() is atomic and fails with EEXIST when `lock` exists, so exactly one process
 *    creates it, and no process ever reads a half-written lock of ours. (The old scheme,
 *    open(wx) then write, showed others an empty file in between; such a file, from an older
 *    aide, is treated as held while it is younger than FRESH_MS.)
 * 2. The owner is its pid plus its identity (boot id and start time, see process-identity.ts),
 *    so a pid reused by another process (pid 1 after a reboot) does not keep a dead lock alive.
 * 3. Every lock carries a random token; its `key` is that token (the inode number for an old
 *    token-less or unreadable file). Keys are never reused: a lock with key K that is gone never
 *    comes back.
 * 4. Replacing a stale lock with key K is itself a lock: only the process holding
 *    `lock.break-K` (taken by this same procedure, so a breaker that dies is itself taken over)
 *    may unlink `lock`, and only after reading it again and finding key K still there. Between
 *    that read and the unlink nobody else can remove or replace `lock`: its owner is dead (so it
 *    will not release it), every other breaker of K waits on `lock.break-K`, and link() cannot
 *    overwrite. So the unlink removes exactly the stale lock, and each stale lock is removed
 *    once. The breaker then competes with everyone else through step 1, so one process wins.
 * 5. Release unlinks `lock` only when it still holds our token. Nobody replaces a live lock, so
 *    the read and the unlink see the same file.
 *
 * 6. The process that replaces a stale lock may lose the race of step 1 to another; the note it
 *    leaves before the unlink (`lock.taken-over`) tells the winner, whoever it is, that it took
 *    over from a dead aide. Only a holder reads and removes the note; it is written only while
 *    the stale lock is in place, when nobody holds the lock.
 *
 * A crash between two of these steps can leave a `lock.*.new` or `lock.break-*` file behind;
 * they name keys that never come back, so they are harmless litter, never a held lock.
 *
 * The file calls are synchronous (the argument above is about their order, which is the same):
 * a lock is a few small files, and through the thread pool each call waited for a core on a busy
 * machine, in front of every command that opens the shadow, a hook's review at every commit too.
 */
import { randomBytes } from '../node/lazy-builtins.js';
import {
  closeSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { AideError } from '../../shared/errors.js';
import { readTextOr, unlinkQuietly } from '../fs/small-files.js';
import { processAlive, processIdentity, processStartedAt } from '../process/process-identity.js';

export interface LockRecord {
  pid: number;
  /** Boot id and start time of the owner (Linux), or null where the platform has none. */
  identity: string | null;
  /** Random, unique to this lock: which lock a breaker is replacing (see the header). */
  token: string;
  command: string;
  startedAt: string;
}

export interface WorkspaceLock {
  readonly path: string;
  /** The stale lock of a dead process that was taken over, or null. */
  readonly tookOver: LockRecord | null;
  release(): Promise<void>;
}

/** An unreadable lock file younger than this may be an older aide's, still being written. */
const FRESH_MS = 10_000;
/** How long to wait for another process that is replacing the same stale lock. */
const BREAK_WAIT_MS = 3_000;
/** Breakers of breakers: each level needs a crash inside a few system calls. */
const MAX_DEPTH = 4;

const UNKNOWN: LockRecord = { pid: 0, identity: null, token: '', command: 'unknown', startedAt: 'unknown' };

interface SeenLock {
  /** The token, or `i<inode>` for a file without one. */
  key: string;
  record: LockRecord | null;
  /** Modified less than FRESH_MS ago. */
  fresh: boolean;
}

function parseRecord(text: string): LockRecord | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockRecord> | null;
    if (typeof parsed?.pid !== 'number') return null;
    return {
      pid: parsed.pid,
      identity: typeof parsed.identity === 'string' ? parsed.identity : null,
      token: typeof parsed.token === 'string' ? parsed.token : '',
      command: typeof parsed.command === 'string' ? parsed.command : '?',
      startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : '?',
    };
  } catch {
    return null;
  }
}

/** The lock file at `path` (inode and content read through one descriptor), or null when there is none. */
function inspect(path: string): SeenLock | null {
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const info = fstatSync(fd);
    const record = parseRecord(readFileSync(fd, 'utf8'));
    const key = record !== null && record.token !== '' ? record.token : `i${info.ino}`;
    return { key, record, fresh: Date.now() - info.mtimeMs < FRESH_MS };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the lock is held: its owner is alive (pid and identity), or it is a fresh unreadable
 * file. An older aide's lock has no identity, only a start date: a process under its pid that
 * started later (a reused pid: pid 1 after a reboot) is not its owner. A second of slack covers
 * the boot time's rounding.
 */
async function held(seen: SeenLock): Promise<boolean> {
  const { record } = seen;
  if (record === null) return seen.fresh;
  if (!(await processAlive(record.pid, record.identity))) return false;
  if (record.identity !== null) return true;
  const written = Date.parse(record.startedAt);
  const started = Number.isNaN(written) ? null : await processStartedAt(record.pid);
  return started === null || started <= written + 1000;
}

/** Step 1: the record, written complete, linked into place. False when `path` exists. */
function linkInto(path: string, record: LockRecord): boolean {
  const temp = `${path}.${record.token}.new`;
  writeFileSync(temp, JSON.stringify(record));
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return createInPlace(path, record);
    throw error;
  } finally {
    unlinkQuietly(temp);
  }
}

/**
 * For file systems without hard links (FAT, some network shares): exclusive create, then write.
 * Others may see the file empty for a moment, which step 1's FRESH_MS rule treats as held.
 */
function createInPlace(path: string, record: LockRecord): boolean {
  let fd;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeFileSync(fd, JSON.stringify(record));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Step 4's unlink, under the break guard. For the workspace lock it first leaves a note naming
 * the dead owner (`lock.taken-over`): whichever process wins the lock next, this one or another,
 * learns from it that a dead aide's leftovers (git's own lock files) need clearing.
 */
function unlinkIfKey(
  path: string,
  key: string,
  note: { file: string; owner: LockRecord | null } | null,
): void {
  const now = inspect(path);
  if (now?.key !== key) return;
  if (note !== null) writeFileSync(note.file, JSON.stringify(note.owner ?? UNKNOWN));
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

type Claim = { held: true } | { held: false; owner: LockRecord };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the lock at `path` for `record`, replacing a stale one (step 4), or reports its live owner. */
async function claim(path: string, record: LockRecord, depth: number): Promise<Claim> {
  const deadline = Date.now() + BREAK_WAIT_MS;
  for (;;) {
    if (linkInto(path, record)) return { held: true };
    const seen = inspect(path);
    if (seen === null) continue; // released between our link() and our read: try again
    if (await held(seen)) return { held: false, owner: seen.record ?? UNKNOWN };
    const guard = `${path}.break-${seen.key}`;
    const breaker =
      depth < MAX_DEPTH
        ? await claim(guard, { ...record, token: randomBytes(16).toString('hex') }, depth + 1)
        : null;
    if (breaker?.held === true) {
      try {
        unlinkIfKey(path, seen.key, depth === 0 ? { file: noteFile(path), owner: seen.record } : null);
      } finally {
        unlinkQuietly(guard);
      }
      continue;
    }
    // Another live process is replacing this stale lock: it will hold the lock in a moment.
    if (Date.now() > deadline)
      return { held: false, owner: breaker?.held === false ? breaker.owner : (seen.record ?? UNKNOWN) };
    await sleep(15 + Math.random() * 20);
  }
}

function noteFile(path: string): string {
  return `${path}.taken-over`;
}

/** The dead owner named by a takeover note, which the new holder removes; null without one. */
function takeNote(path: string): LockRecord | null {
  const text = readTextOr(noteFile(path), null);
  if (text === null) return null;
  unlinkQuietly(noteFile(path));
  return parseRecord(text) ?? UNKNOWN;
}

/** The live process holding a workspace's lock, or null (none, or a dead one's stale lock). Reads only. */
export async function lockHolder(stateDir: string): Promise<LockRecord | null> {
  const seen = inspect(join(stateDir, 'lock'));
  return seen?.record != null && (await held(seen)) ? seen.record : null;
}

function lockedError(owner: LockRecord, path: string): AideError {
  if (owner.pid === 0) {
    return new AideError(
      'workspace_locked',
      'another aide process is starting in this workspace (its lock file is not written yet)',
      {
        hint: `Try again in a few seconds; a lock file left empty (by a crash) is taken over once it is ${FRESH_MS / 1000} s old.`,
      },
    );
  }
  return new AideError(
    'workspace_locked',
    `another aide process is working in this workspace (pid ${owner.pid}: aide ${owner.command}, since ${owner.startedAt})`,
    {
      hint: `Wait for it to finish, or stop it (kill ${owner.pid}). The lock is ${path}.`,
    },
  );
}

/** Takes the workspace lock for `command`, or throws naming the live owner. */
export async function acquireLock(stateDir: string, command: string): Promise<WorkspaceLock> {
  const path = join(stateDir, 'lock');
  mkdirSync(dirname(path), { recursive: true });
  const record: LockRecord = {
    pid: process.pid,
    identity: await processIdentity(process.pid),
    token: randomBytes(16).toString('hex'),
    command,
    startedAt: new Date().toISOString(),
  };
  // Our own pid counts as alive: opening the same workspace twice in one process is a bug.
  const result = await claim(path, record, 0);
  if (!result.held) throw lockedError(result.owner, path);
  return {
    path,
    tookOver: takeNote(path),
    release: () => {
      const current = parseRecord(readTextOr(path, ''));
      if (current?.token === record.token) unlinkQuietly(path);
      return Promise.resolve();
    },
  };
}
