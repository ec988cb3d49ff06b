/**
 * Read-only access to a workspace's checkpoints, without the workspace lock: listing, showing and
 * comparing checkpoints, and the shadow's size. `aide status`, `checkpoints` and `doctor` need
 * nothing more; ShadowStore (shadow-store.ts) adds the writes under the lock.
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileChangeSummary, ShadowStats } from '../../core/ports/checkpoints.js';
import {
  BRANCH_PREFIX,
  damagedCheckpoint,
  listCheckpoints,
  listSessions,
  resolveCheckpoint,
  showCheckpoint,
  type Checkpoint,
} from './checkpoints.js';
import { missingObject, ShadowGit } from './git.js';
import { diffTrees } from './raw-objects.js';
import { objectsOnly } from './scratch/object-reader.js';
import { describeWorkspace, type Env, type Workspace } from './shadow-repo.js';
import { EMPTY_TREE } from './snapshot.js';

/** Bytes the folder holds of its own: a file still linked from the user's store costs none. */
export async function folderBytes(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true }).catch(() => [])) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else if (entry.isFile()) {
      // A pack or object still linked from the user's store costs no disk of its own.
      const info = await stat(full).catch(() => ({ size: 0, nlink: 1 }));
      if (info.nlink <= 1) total += info.size;
    }
  }
  return total;
}

/** Which of `refs` names `object` (on the error path only: it walks their trees). */
async function holderOf(git: ShadowGit, refs: readonly string[], object: string): Promise<string> {
  for (const ref of refs) {
    const out = await git
      .text(['rev-list', '--objects', '--missing=print', ref], { okCodes: [128] })
      .catch(() => '');
    if (out.includes(`?${object}`) || out === '') return ref;
  }
  return refs.at(-1) ?? object;
}

/** A git read comparing two checkpoints or trees; an object they lack is the clear damaged-checkpoint error. */
async function readable<T>(git: ShadowGit, refs: readonly string[], read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    const missing = missingObject(error);
    if (missing === null) throw error;
    throw damagedCheckpoint({ short: (await holderOf(git, refs, missing)).slice(0, 10) }, missing);
  }
}

/** Read-only access to a workspace's checkpoints: no lock, nothing created. */
export class ShadowReader {
  constructor(
    readonly workspace: Workspace,
    readonly git: ShadowGit,
  ) {}

  /** The reader, or null when the workspace has no shadow repository yet. */
  static async openExisting(root: string, env: Env): Promise<ShadowReader | null> {
    const workspace = await describeWorkspace(root, env);
    const gitDir = join(workspace.stateDir, 'shadow.git');
    if (!existsSync(join(gitDir, 'HEAD'))) return null;
    return new ShadowReader(
      workspace,
      new ShadowGit({ gitDir, workTree: root, indexFile: join(gitDir, 'index') }, env),
    );
  }

  list(options: { session?: string; limit?: number } = {}): Promise<Checkpoint[]> {
    return listCheckpoints(this.git, options);
  }

  show(ref: string): Promise<Checkpoint> {
    return showCheckpoint(this.git, ref);
  }

  /** Files that differ between two trees or commits, with line counts (null for binary files). */
  async changes(from: string, to: string): Promise<FileChangeSummary[]> {
    const changes = await readable(
      this.git,
      [from, to],
      diffTrees(this.git, from, to, objectsOnly(this.git)),
    );
    const counts = await readable(
      this.git,
      [from, to],
      this.git.fields(
        ['diff-tree', '-r', '-z', '--no-renames', '--numstat', from, to],
        objectsOnly(this.git),
      ),
    );
    const lines = new Map<string, [number | null, number | null]>();
    for (const field of counts) {
      const [added = '-', removed = '-', path = ''] = field.split('\t');
      lines.set(path, [added === '-' ? null : Number(added), removed === '-' ? null : Number(removed)]);
    }
    return changes.map(({ path, action }) => {
      const [added, removed] = lines.get(path) ?? [null, null];
      return { path, action, added, removed };
    });
  }

  /** A unified diff between two trees or commits. */
  async diff(from: string, to: string): Promise<string> {
    return (
      await readable(
        this.git,
        [from, to],
        this.git.run(['diff', '--no-color', '--no-ext-diff', '--no-renames', from, to]),
      )
    ).stdout.toString('utf8');
  }

  /** What a checkpoint changed: against its parent, or for a session's first, the checkpoint before it. */
  async changesOf(checkpoint: Checkpoint): Promise<FileChangeSummary[]> {
    if (checkpoint.parent !== null) return this.changes(checkpoint.parent, checkpoint.id);
    const all = await this.list({ limit: 1000 });
    const previous = all[all.findIndex((c) => c.id === checkpoint.id) + 1];
    return this.changes(previous?.tree ?? EMPTY_TREE, checkpoint.id);
  }

  resolve(ref: string): Promise<string> {
    return resolveCheckpoint(this.git, ref);
  }

  async stats(): Promise<ShadowStats> {
    const objects = await this.git.text(['count-objects', '-v']);
    const value = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(objects)?.[1] ?? 0);
    const sessions = await listSessions(this.git);
    const checkpoints =
      sessions.length === 0
        ? 0
        : Number(await this.git.text(['rev-list', '--count', `--glob=${BRANCH_PREFIX}*`]));
    return {
      path: this.git.location.gitDir,
      bytes: await folderBytes(this.git.location.gitDir),
      sessions: sessions.length,
      checkpoints,
      objects: value('count') + value('in-pack'),
      borrowsObjects: /^alternate: /m.test(objects),
    };
  }
}
