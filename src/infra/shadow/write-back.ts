/**
 * Writing a verified step into the workspace (DESIGN.md, "The act step" 8): the files the
 * scratch changed, each only if the workspace still holds what the step started from, or
 * already holds what it ends with (so a write-back killed half way can be rolled forward by
 * planning it again), content and mode both: a `chmod +x` made while the step verified is as
 * much the user's change as an edit, and writing the step's mode back would silently revert it.
 * A file changed under aide otherwise is a conflict: nothing at all is
 * written, and the caller saves the verified patch instead. Writes go through the FileSystem
 * port: atomic per file, all rolled back if one fails.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileSystem, FileWrite, PreviousContent } from '../../core/ports/files.js';
import type { TreeChange } from '../../core/ports/changes.js';
import { jailPath } from '../../core/security/path-jail.js';
import type { ObjectReader } from './scratch/object-reader.js';

export interface WriteConflict {
  path: string;
  /** What the workspace holds now, against what the step started from. */
  reason: 'changed' | 'mode' | 'created' | 'deleted' | 'outside';
}

export interface WriteBackPlan {
  writes: FileWrite[];
  conflicts: WriteConflict[];
}

/** git's blob id of some bytes: what the shadow recorded for the same content (no filters, -text). */
function blobId(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
}

/** What the workspace holds at a path now: bytes, a symlink, or nothing, and its git mode. */
interface Current {
  content: PreviousContent;
  /** '100644', '100755' (the owner's execute bit, as git reads it), '120000'; null when nothing is there. */
  mode: string | null;
}

async function currentContent(path: string): Promise<Current> {
  const stat = await lstat(path).catch(() => null);
  if (stat === null) return { content: null, mode: null };
  if (stat.isSymbolicLink()) return { content: { symlink: await readlink(path) }, mode: '120000' };
  // A folder or a socket where a file was: a conflict whatever its "content".
  if (!stat.isFile()) return { content: { symlink: '' }, mode: null };
  return {
    content: new Uint8Array(await readFile(path)),
    mode: (stat.mode & 0o100) === 0 ? '100644' : '100755',
  };
}

/**
 * Whether a mode is the one expected. Windows has no execute bit to read (git sets
 * core.fileMode false there), so only a file's kind is compared.
 */
function sameMode(now: string | null, expected: string | null): boolean {
  const files = now !== null && expected !== null && now !== '120000' && expected !== '120000';
  return (files && process.platform === 'win32') || now === expected;
}

/** Why a path that is neither as the step started nor as it ends is a conflict. */
function conflictReason(change: TreeChange, now: string | null): WriteConflict['reason'] {
  if (change.oldBlob === null) return 'created';
  if (now === null) return 'deleted';
  return now === change.oldBlob || now === change.newBlob ? 'mode' : 'changed';
}

function idOf(content: PreviousContent): string | null {
  if (content === null) return null;
  return content instanceof Uint8Array ? blobId(content) : blobId(Buffer.from(content.symlink));
}

async function blob(objects: ObjectReader, id: string): Promise<Buffer> {
  const object = await objects.read(id);
  if (object === null) throw new Error(`the shadow has no object ${id}`);
  return object.content;
}

async function writeFor(
  objects: ObjectReader,
  full: string,
  change: TreeChange,
  previous: PreviousContent,
): Promise<FileWrite> {
  if (change.newBlob === null || change.newMode === null) {
    if (previous === null) throw new Error(`nothing to delete at ${change.path}`);
    return { kind: 'delete', path: full, previous };
  }
  const content = await blob(objects, change.newBlob);
  if (change.newMode === '120000')
    return { kind: 'symlink', path: full, target: content.toString('utf8'), previous };
  return {
    kind: 'write',
    path: full,
    content: new Uint8Array(content),
    previous,
    executable: change.newMode === '100755',
  };
}

/**
 * What writing `changes` would do, or the conflicts that forbid it. Every path is jailed to the
 * workspace: a symlinked folder in the workspace that leads out is refused, not followed.
 */
export async function planWriteBack(
  objects: ObjectReader,
  root: string,
  changes: readonly TreeChange[],
  fs: Pick<FileSystem, 'lstat' | 'realpath'>,
): Promise<WriteBackPlan> {
  const writes: FileWrite[] = [];
  const conflicts: WriteConflict[] = [];
  for (const change of changes) {
    const jailed = await jailPath(root, change.path, fs);
    if (!jailed.ok) {
      conflicts.push({ path: change.path, reason: 'outside' });
      continue;
    }
    const full = join(root, ...change.path.split('/'));
    const { content: previous, mode } = await currentContent(full);
    const now = idOf(previous);
    // Already what the step ends with (a write-back killed half way and rolled forward, or the
    // same edit made by hand): written again, harmlessly; a deletion is done.
    const asBase = now === change.oldBlob && sameMode(mode, change.oldMode);
    const asStep = now === change.newBlob && sameMode(mode, change.newMode);
    if (!asBase && !asStep) {
      conflicts.push({ path: change.path, reason: conflictReason(change, now) });
      continue;
    }
    if (previous === null && change.newBlob === null) continue;
    writes.push(await writeFor(objects, full, change, previous));
  }
  return { writes, conflicts };
}
