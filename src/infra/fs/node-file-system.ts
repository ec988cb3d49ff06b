/**
 * The FileSystem port on node:fs. Writes are atomic per file (a temp file or symlink in the
 * same folder, fsynced, then renamed over the target, its mode kept), and a commit of several
 * files is rolled back if any write fails. Ctrl-C during a commit is held until the commit is
 * done, so the workspace is either fully before or fully after it. Only SIGKILL (or a power
 * cut) can stop a commit half way: each file is then wholly old or wholly new, and temp files
 * may be left (`sweepTempFiles` removes them).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  symlink,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import type {
  FileStat,
  FileSystem,
  FileWrite,
  PreviousContent,
  WriteContent,
} from '../../core/ports/files.js';
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

/** The longest file name (bytes of UTF-8) on Linux, macOS and Windows file systems alike. */
const NAME_MAX = 255;
/** `.` + `.aide-<pid>-<8 hex>.tmp`, with room for any pid (Linux's pid_max is 2^22, 7 digits; 10 covers 32 bits). */
const TEMP_OVERHEAD = 1 + '.aide-'.length + 10 + 1 + 8 + '.tmp'.length;

/**
 * The name a temp file for `name` carries: the name itself when the temp name then fits NAME_MAX,
 * else as many of its first bytes as fit (never half a UTF-8 character) plus a hash of the whole
 * name, so that two long names that start alike still get temp names of their own.
 */
export function tempStem(name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length + TEMP_OVERHEAD <= NAME_MAX) return name;
  const hash = `~${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`;
  let end = NAME_MAX - TEMP_OVERHEAD - hash.length;
  // Step back to the start of a character: continuation bytes are 0b10xxxxxx.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}${hash}`;
}

function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${tempStem(basename(target))}.aide-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
}

const TEMP_NAME = /^\.(.+)\.aide-(\d+)-[0-9a-f]{8}\.tmp$/s;

/**
 * Removes the temp files a commit by process `pid` left next to `paths` when it was killed
 * (SIGKILL cannot be held). Returns the temp files removed.
 */
export async function sweepTempFiles(paths: readonly string[], pid: number): Promise<string[]> {
  const wanted = new Map<string, Set<string>>();
  for (const path of paths) {
    const names = wanted.get(dirname(path)) ?? new Set<string>();
    names.add(tempStem(basename(path)));
    wanted.set(dirname(path), names);
  }
  const removed: string[] = [];
  for (const [dir, names] of wanted) {
    for (const entry of (await orNull(readdir(dir))) ?? []) {
      const match = TEMP_NAME.exec(entry);
      if (match === null || Number(match[2]) !== pid || !names.has(match[1] ?? '')) continue;
      await rm(join(dir, entry), { force: true });
      removed.push(join(dir, entry));
    }
  }
  return removed;
}

/** Permission bits for a new file (`create`, the umask applies) and an explicit chmod, if any. */
interface WriteMode {
  create: number;
  chmod?: number;
}

/** What git does: a new file is 0666 or 0777 less the umask; an existing one keeps its bits but x. */
function writeMode(existing: number | undefined, executable: boolean | undefined): WriteMode {
  if (existing === undefined) return { create: executable === true ? 0o777 : 0o666 };
  if (executable === undefined) return { create: existing, chmod: existing };
  // x where r is set (0644 → 0755, 0600 → 0700), like chmod +x under a typical umask.
  const mode = executable ? existing | ((existing & 0o444) >> 2) : existing & ~0o111;
  return { create: mode, chmod: mode };
}

/** Writes every byte of `bytes` at the handle's position (a write may take fewer). */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done);
    done += bytesWritten;
  }
}

/** Writes a new file; flushed to the disk (fsync) when `durable`. */
async function writeDurably(
  path: string,
  content: WriteContent,
  mode: WriteMode,
  durable = true,
): Promise<void> {
  const handle = await open(path, 'wx', mode.create);
  try {
    if (content instanceof Uint8Array) await handle.writeFile(content);
    // A piece at a time: each is garbage once written, so the file is never whole in memory.
    else for (const piece of content.chunks()) await writeAll(handle, piece);
    if (mode.chmod !== undefined) await handle.chmod(mode.chmod);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Puts `content` at `path` through a temp file: bytes (with `mode`) or a symlink. */
async function replaceWith(
  path: string,
  content: Uint8Array | { symlink: string },
  mode: WriteMode,
): Promise<void> {
  const temp = tempPathFor(path);
  if (content instanceof Uint8Array) await writeDurably(temp, content, mode);
  else await symlink(content.symlink, temp);
  await rename(temp, path);
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
  /** Permission bits of the regular file there before the commit, restored on rollback. */
  mode: number | undefined;
}

export interface NodeFileSystemOptions {
  /**
   * Awaited after each change of a commit is in place (renamed or removed), with the number done
   * so far. Only aide's test entry point sets it (CliIo.afterWorkspaceChange), so a crash test can
   * kill aide between two file writes.
   */
  afterChange?: (done: number) => Promise<void>;
  /**
   * false for a scratch copy: its files need not survive a crash or a power cut (a kept scratch
   * is swept back to a known tree before it is used again), so its writes are not flushed to the
   * disk, which cost a step's edit a few milliseconds per file. Writes stay atomic. Default true.
   */
  durable?: boolean;
}

export class NodeFileSystem implements FileSystem {
  constructor(private readonly options: NodeFileSystemOptions = {}) {}

  async readFile(path: string): Promise<Uint8Array | null> {
    return orNull(readFile(path));
  }

  async lstat(path: string): Promise<FileStat | null> {
    const s = await orNull(lstat(path));
    if (s === null) return null;
    const kind = s.isSymbolicLink()
      ? 'symlink'
      : s.isFile()
        ? 'file'
        : s.isDirectory()
          ? 'directory'
          : 'other';
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
        // lstat: a symlink being replaced lends no mode, and its target is never followed.
        const existing = await orNull(lstat(change.path));
        const mode = existing?.isFile() === true ? existing.mode & 0o7777 : undefined;
        if (change.kind === 'delete') {
          staged.push({ change, temp: null, mode });
          continue;
        }
        createdDirs.push(...(await ensureParents(change.path)));
        const temp = tempPathFor(change.path);
        staged.push({ change, temp, mode });
        if (change.kind === 'symlink') await symlink(change.target, temp);
        else
          await writeDurably(temp, change.content, writeMode(mode, change.executable), this.options.durable);
      }
      for (const entry of staged) {
        if (entry.temp === null) await rm(entry.change.path);
        else await rename(entry.temp, entry.change.path);
        done.push(entry);
        await this.options.afterChange?.(done.length);
      }
    } catch (error) {
      await this.rollback(done, staged, createdDirs);
      throw error;
    }
  }

  /** Puts back what a failed commit already changed; best effort, the original error wins. */
  private async rollback(
    done: readonly Staged[],
    staged: readonly Staged[],
    createdDirs: readonly string[],
  ): Promise<void> {
    for (const { change, mode } of [...done].reverse()) {
      try {
        const previous: PreviousContent = change.previous;
        if (previous === null) await rm(change.path, { force: true });
        else
          await replaceWith(
            change.path,
            previous,
            mode === undefined ? { create: 0o666 } : { create: mode, chmod: mode },
          );
      } catch {
        // Keep rolling back the others.
      }
    }
    for (const { temp } of staged) if (temp !== null) await rm(temp, { force: true }).catch(() => undefined);
    for (const dir of [...createdDirs].reverse()) await rmdir(dir).catch(() => undefined);
  }
}
