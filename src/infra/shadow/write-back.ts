/**
 * Writing a verified step into the workspace (DESIGN.md, "The act step" 8): the files the
 * scratch changed, each only if the workspace still holds what the step started from, or
 * already holds what it ends with (so a write-back killed half way can be rolled forward by
 * planning it again). A file changed under aide otherwise is a conflict: nothing at all is
 * written, and the caller saves the verified patch instead. Writes go through the FileSystem
 * port: atomic per file, all rolled back if one fails.
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileSystem, FileWrite, PreviousContent, ScratchChange } from '../../core/ports.js';
import { jailPath } from '../../core/security/path-jail.js';
import type { ObjectReader } from './scratch/object-reader.js';

export interface WriteConflict {
  path: string;
  /** What the workspace holds now, against what the step started from. */
  reason: 'changed' | 'created' | 'deleted' | 'outside';
}

export interface WriteBackPlan {
  writes: FileWrite[];
  conflicts: WriteConflict[];
}

/** git's blob id of some bytes: what the shadow recorded for the same content (no filters, -text). */
function blobId(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.byteLength}\0`).update(content).digest('hex');
}

/** The workspace's current content at a path: bytes, a symlink, or nothing. */
async function currentContent(path: string): Promise<PreviousContent> {
  const stat = await lstat(path).catch(() => null);
  if (stat === null) return null;
  if (stat.isSymbolicLink()) return { symlink: await readlink(path) };
  if (!stat.isFile()) return { symlink: '' };
  return new Uint8Array(await readFile(path));
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

async function writeFor(objects: ObjectReader, full: string, change: ScratchChange, previous: PreviousContent): Promise<FileWrite> {
  if (change.newBlob === null || change.newMode === null) {
    if (previous === null) throw new Error(`nothing to delete at ${change.path}`);
    return { kind: 'delete', path: full, previous };
  }
  const content = await blob(objects, change.newBlob);
  if (change.newMode === '120000') return { kind: 'symlink', path: full, target: content.toString('utf8'), previous };
  return { kind: 'write', path: full, content: new Uint8Array(content), previous, executable: change.newMode === '100755' };
}

/**
 * What writing `changes` would do, or the conflicts that forbid it. Every path is jailed to the
 * workspace: a symlinked folder in the workspace that leads out is refused, not followed.
 */
export async function planWriteBack(objects: ObjectReader, root: string, changes: readonly ScratchChange[], fs: Pick<FileSystem, 'lstat' | 'realpath'>): Promise<WriteBackPlan> {
  const writes: FileWrite[] = [];
  const conflicts: WriteConflict[] = [];
  for (const change of changes) {
    const jailed = await jailPath(root, change.path, fs);
    if (!jailed.ok) {
      conflicts.push({ path: change.path, reason: 'outside' });
      continue;
    }
    const full = join(root, ...change.path.split('/'));
    const previous = await currentContent(full);
    const now = idOf(previous);
    // Already what the step ends with (a write-back killed half way and rolled forward, or the
    // same edit made by hand): written again, so the mode is right too; a deletion is done.
    if (now !== change.oldBlob && now !== change.newBlob) {
      conflicts.push({ path: change.path, reason: change.oldBlob === null ? 'created' : now === null ? 'deleted' : 'changed' });
      continue;
    }
    if (previous === null && change.newBlob === null) continue;
    writes.push(await writeFor(objects, full, change, previous));
  }
  return { writes, conflicts };
}
