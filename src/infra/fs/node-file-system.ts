/**
 * The FileSystem port on node:fs. Writes are atomic per file (a temp file in the same folder,
 * fsynced, then renamed over the target, its mode kept), and a commit of several files is
 * rolled back if any write fails. Ctrl-C during a commit is held until the commit is done,
 * so the workspace is either fully before or fully after it.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readFile, realpath, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileStat, FileSystem, FileWrite } from '../../core/ports.js';
import { holdSignals } from '../process/hold-signals.js';

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.aide-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

async function writeDurably(path: string, content: Uint8Array, mode: number | undefined): Promise<void> {
  const handle = await open(path, 'wx', mode ?? 0o666);
  try {
    await handle.writeFile(content);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Creates missing parent folders; returns those it created, deepest last. */
async function ensureParents(path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = dirname(path); (await orNull(stat(dir))) === null; dir = dirname(dir)) missing.unshift(dir);
  for (const dir of missing) await mkdir(dir);
  return missing;
}

interface Staged {
  change: FileWrite;
  temp: string | null;
  /** Permission bits of the file before the commit, restored on rollback. */
  mode: number | undefined;
}

export class NodeFileSystem implements FileSystem {
  async readFile(path: string): Promise<Uint8Array | null> {
    return orNull(readFile(path));
  }

  async lstat(path: string): Promise<FileStat | null> {
    const s = await orNull(lstat(path));
    if (s === null) return null;
    const kind = s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
    return { kind, mode: s.mode & 0o7777, size: s.size };
  }

  async realpath(path: string): Promise<string | null> {
    return orNull(realpath(path));
  }

  async commit(changes: readonly FileWrite[]): Promise<void> {
    await holdSignals(() => this.commitNow(changes));
  }

  private async commitNow(changes: readonly FileWrite[]): Promise<void> {
    const staged: Staged[] = [];
    const createdDirs: string[] = [];
    const done: Staged[] = [];
    try {
      for (const change of changes) {
        const existing = await orNull(stat(change.path));
        const mode = existing === null ? undefined : existing.mode & 0o7777;
        if (change.kind === 'delete') {
          staged.push({ change, temp: null, mode });
          continue;
        }
        createdDirs.push(...(await ensureParents(change.path)));
        const temp = tempPathFor(change.path);
        staged.push({ change, temp, mode });
        await writeDurably(temp, change.content, mode);
      }
      for (const entry of staged) {
        if (entry.temp === null) await rm(entry.change.path);
        else await rename(entry.temp, entry.change.path);
        done.push(entry);
      }
    } catch (error) {
      await this.rollback(done, staged, createdDirs);
      throw error;
    }
  }

  /** Puts back what a failed commit already changed; best effort, the original error wins. */
  private async rollback(done: readonly Staged[], staged: readonly Staged[], createdDirs: readonly string[]): Promise<void> {
    for (const { change, mode } of [...done].reverse()) {
      try {
        if (change.previous === null) await rm(change.path, { force: true });
        else {
          const temp = tempPathFor(change.path);
          await writeDurably(temp, change.previous, mode);
          await rename(temp, change.path);
        }
      } catch {
        // Keep rolling back the others.
      }
    }
    for (const { temp } of staged) if (temp !== null) await rm(temp, { force: true }).catch(() => undefined);
    for (const dir of [...createdDirs].reverse()) await rmdir(dir).catch(() => undefined);
  }
}
