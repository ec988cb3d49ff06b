/**
 * Scratch checkouts for the act and verify steps (DESIGN.md, "The act step"): a git worktree of
 * the shadow repository under the OS temp dir, made with `git worktree add` and then moved
 * from step to step by writing only the files that differ.
 *
 * - Made once: a full checkout costs as much as checking the repository out (about 6 s on a
 *   medium repository, up to 27 s at 30k files on an ext4 without a journal); every later move
 *   costs what changed. With `keep` (act, verify) one scratch serves every session of the
 *   workspace, swept before each (kept-scratch.ts); without it, one per session.
 * - aide's own git calls use a private index in the worktree's admin folder, so git run by the
 *   project's commands inside the scratch (which sees an ordinary worktree at the first base)
 *   cannot disturb what aide reads back.
 * - Folders in `link` are symlinked to the workspace's, never copied, never captured, never
 *   written or deleted through.
 * - The workspace and the user's `.git` are never written: the scratch lives outside, and every
 *   git call goes through the shadow's isolated runner.
 */
import { randomBytes } from '../../node/lazy-builtins.js';
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { ScratchOpener } from '../../../core/ports/scratch.js';
import { AideError } from '../../../shared/errors.js';
import { readTextOr } from '../../fs/small-files.js';
import { writeCommit } from '../checkpoint-commit.js';
import { validSessionId } from '../checkpoints.js';
import { type ShadowGit } from '../git.js';
import type { Workspace } from '../shadow-repo.js';
import { resolveLinkPaths, syncLinks } from './links.js';
import {
  ensureScratchHome,
  listScratches,
  ownerFile,
  processIdentity,
  recordsDir,
  removeEmptyScratchHome,
  removeLegacyOwners,
  removeScratchFolder,
  scratchHome,
  writeOwner,
} from './registry.js';
import { forgetKept, readKept, writeKept } from './kept-scratch.js';
import { ObjectReader } from './object-reader.js';
import { WorktreeScratch } from './scratch-checkout.js';
import { PRIVATE_INDEX, revision, unknownBase } from './scratch-start.js';
import { KeptTakeUp, type EarlySweep } from './kept-takeup.js';

export { WorktreeScratch } from './scratch-checkout.js';

export interface ScratchOptions {
  /** The OS temp dir (os.tmpdir()), passed in: nothing below the CLI reads the environment. */
  tempRoot: string;
  /** Workspace-relative folders or globs of folders to link instead of copy (sandbox.json `link`). */
  links: readonly string[];
  /**
   * Keep one scratch for the workspace across sessions (kept-scratch.ts): taken up again, swept
   * and moved, instead of checked out afresh and deleted each time. Off: a scratch per session.
   */
  keep?: boolean;
}

/** The admin folder named by a worktree's `.git` file, checked to be inside this shadow. */
function adminDirOf(git: ShadowGit, gitfile: string): string {
  const match = /^gitdir: (.+)$/m.exec(gitfile);
  const dir = match?.[1]?.trim();
  const worktrees = join(git.location.gitDir, 'worktrees');
  if (dir === undefined || !isInside(worktrees, dir))
    throw new Error(`unexpected worktree .git file: ${gitfile.trim()}`);
  return dir;
}

function isInside(parent: string, path: string): boolean {
  const rel = relative(parent, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !rel.includes(`..${sep}`);
}

/** Opens scratches in a workspace's shadow. The caller holds the workspace lock (a ShadowStore). */
export class ShadowScratches implements ScratchOpener {
  /** `<tmp>/aide-scratch/<hash>`: this workspace's scratches. */
  readonly home: string;
  /** `.aide/state/scratches`: their owner records, out of the sandboxed commands' reach. */
  readonly records: string;

  /** Takes the kept scratch up: its sweep (early, with prepareKept) and its move. */
  private readonly takeUp: KeptTakeUp;

  constructor(
    private readonly git: ShadowGit,
    private readonly workspace: Workspace,
    private readonly options: ScratchOptions,
  ) {
    this.home = scratchHome(options.tempRoot, workspace.root);
    this.records = recordsDir(workspace.stateDir);
    this.takeUp = new KeptTakeUp(git, workspace, {
      home: this.home,
      records: this.records,
      links: options.links,
    });
  }

  /**
   * Starts taking up the kept scratch before the base is known (kept-takeup.ts, prepare): its
   * sweep runs beside the workspace's snapshot, which the base comes from, and open() then only
   * moves it. `target`: the tree to move it to meanwhile (the first snapshot's). Nothing without
   * `keep`, or when there is no kept scratch to take up here: open() does what it always did.
   * The caller holds the workspace lock from now on, and calls open() or releaseEarly() after.
   */
  prepareKept(target?: Promise<string>): void {
    if (this.options.keep === true) this.takeUp.prepare(target);
  }

  /** An early sweep no open() took (the session ended before it had a scratch): its owner record goes. */
  releaseEarly(): Promise<void> {
    return this.takeUp.release();
  }

  /**
   * Removes the scratches of this workspace whose owner process is dead (only folders provably
   * aide's: see registry.ts), their records, and worktree entries of the shadow whose folder is
   * gone (a temp dir wiped by a reboot). Returns their sessions.
   */
  async removeStale(): Promise<string[]> {
    const removed: string[] = [];
    await removeLegacyOwners(this.home);
    const kept = await readKept(this.git.location.gitDir);
    for (const entry of await listScratches(this.home, this.records)) {
      // The kept scratch is idle, not stale: it is swept when taken up again.
      if (entry.alive || (kept !== null && kept !== 'stale' && entry.session === kept.name)) continue;
      await removeScratchFolder(this.home, entry.session, this.options.links);
      rmSync(ownerFile(this.records, entry.session), { force: true });
      removed.push(entry.session);
    }
    if (removed.length > 0 || worktreesToPrune(this.git.location.gitDir))
      await this.git.run(['worktree', 'prune']);
    return removed;
  }

  /**
   * A scratch of `base` for `session`. `objects`: a running reader to use (and close) instead of
   * starting one, e.g. the one that has just read the change under review.
   */
  async open(session: string, base: string, objects?: ObjectReader): Promise<WorktreeScratch> {
    if (!validSessionId(session)) {
      objects?.close();
      throw new AideError('usage', `"${session}" is not a valid session id`, {
        hint: 'Use letters, digits, ".", "_" and "-".',
      });
    }
    // Before anything else touches the scratches: a stale sweep's `worktree prune` must not
    // run while the early sweep has the kept scratch's `.git` half written.
    const early = await this.takeUp.take();
    // The early sweep's reader has moved the kept scratch already: it is the one kept.
    if (early?.objects !== undefined) objects?.close();
    try {
      return await this.openAt(session, base, early, early?.objects ?? objects);
    } catch (error) {
      early?.objects?.close();
      objects?.close();
      throw error;
    } finally {
      // Not taken (the session id was refused, the base unknown): as if never swept.
      if (early !== null && early.swept !== null && early.taken !== true)
        rmSync(ownerFile(this.records, early.name), { force: true });
    }
  }

  private async openAt(
    session: string,
    base: string,
    early: EarlySweep | null,
    given: ObjectReader | undefined,
  ): Promise<WorktreeScratch> {
    await ensureScratchHome(this.home);
    await this.removeStale();
    const existing = (await listScratches(this.home, this.records)).find((e) => e.session === session);
    if (existing !== undefined) {
      const pid = existing.owner?.pid ?? 0;
      throw new AideError(
        'workspace_locked',
        `session ${session} already has a scratch copy in use (pid ${pid}${pid === process.pid ? ', this process' : ''}) at ${existing.path}`,
        {
          hint: 'Dispose of the first one before opening it again, or use another session.',
        },
      );
    }
    // The scratch's reader answers the base's lookups too: a git process fewer for each.
    const objects = given ?? new ObjectReader(this.git);
    try {
      const tree = await objects.treeId(revision(base));
      if (tree === null) throw unknownBase(base);
      const commit = await commitFor(this.git, objects, base, tree);
      if (this.options.keep === true) {
        const kept = await this.openKept(session, tree, commit, objects, early);
        if (kept !== null) return kept;
      }
      return await this.openFresh(session, session, tree, commit, false, objects);
    } catch (error) {
      objects.close();
      throw error;
    }
  }

  /**
   * The workspace's kept scratch, taken up again (swept, moved) or made; null when another
   * process has it. `early`: its sweep, already made by prepareKept.
   */
  private async openKept(
    session: string,
    tree: string,
    commit: string,
    objects: ObjectReader,
    early: EarlySweep | null,
  ): Promise<WorktreeScratch | null> {
    const gitDir = this.git.location.gitDir;
    const record = await readKept(gitDir);
    // Kept under another temp dir (TMPDIR differs between runs): left alone, a scratch per session here.
    if (record !== null && record !== 'stale' && record.home !== this.home) return null;
    if (record !== null && record !== 'stale') {
      const own = early?.name === record.name ? early : null;
      if (own === null) {
        const entry = (await listScratches(this.home, this.records)).find((e) => e.session === record.name);
        if (entry?.alive === true) return null;
      } else own.taken = true;
      const swept = own === null ? await this.takeUp.sweep(record).catch(() => null) : own.swept;
      const reused =
        swept === null
          ? null
          : await this.takeUp.move(session, swept, tree, commit, objects).catch(() => null);
      if (reused !== null) return reused;
    }
    // One that cannot be removed (a folder a command made unreadable) is forgotten: the stale
    // sweep of later opens keeps trying, and this session gets a kept scratch of a new name.
    if (record !== null) await this.removeKept().catch(() => forgetKept(gitDir));
    const name = `kept-${randomBytes(4).toString('hex')}`;
    const made = await this.openFresh(name, session, tree, commit, true, objects);
    await writeKept(gitDir, { version: 1, name, home: this.home, adminDir: made.adminDir });
    return made;
  }

  /** Removes the kept scratch (aide checkpoints prune, or a stale one): its folder if provably aide's, its admin folder, its record. */
  async removeKept(): Promise<boolean> {
    const gitDir = this.git.location.gitDir;
    const record = await readKept(gitDir);
    if (record === null) return false;
    // Only in this home (derived, never read from the record): one kept elsewhere is forgotten,
    // and the stale sweep of its own home removes it.
    if (record !== 'stale' && record.home === this.home) {
      const entry = (await listScratches(this.home, this.records)).find((e) => e.session === record.name);
      if (entry?.alive === true) return false;
      await removeScratchFolder(this.home, record.name, this.options.links);
      await rm(record.adminDir, { recursive: true, force: true });
      rmSync(ownerFile(this.records, record.name), { force: true });
    }
    await forgetKept(gitDir);
    await this.git.run(['worktree', 'prune']);
    await removeEmptyScratchHome(this.home).catch(() => undefined);
    return true;
  }

  /** A scratch checked out afresh in `<home>/<name>`. */
  private async openFresh(
    name: string,
    session: string,
    tree: string,
    commit: string,
    kept: boolean,
    objects: ObjectReader,
  ): Promise<WorktreeScratch> {
    const path = join(this.home, name);
    // The record comes first: a crash from here on leaves a scratch that the next open removes.
    await writeOwner(this.records, name, {
      version: 2,
      pid: process.pid,
      identity: await processIdentity(process.pid),
      createdAt: new Date().toISOString(),
    });
    try {
      // --no-checkout: a checkout inside `worktree add` would inherit the runner's
      // GIT_INDEX_FILE, the shadow's own index, and overwrite it.
      await this.git.run(['worktree', 'add', '--detach', '--no-checkout', path, commit]);
      const adminDir = adminDirOf(this.git, await readFile(join(path, '.git'), 'utf8'));
      const indexFile = join(adminDir, PRIVATE_INDEX);
      await this.git.run(['read-tree', '--reset', '-u', tree], { workTree: path, indexFile });
      // git inside the scratch sees the same checkout; its index is a copy aide never reads.
      copyFileSync(indexFile, join(adminDir, 'index'));
      const linkPaths = await resolveLinkPaths(this.workspace.root, this.options.links);
      const links = await syncLinks(objects, this.workspace.root, path, tree, linkPaths);
      const place = { home: this.home, records: this.records, name, session, path, adminDir, kept };
      return new WorktreeScratch(this.git, objects, this.workspace, {
        place,
        indexFile,
        tree,
        links,
        configuredLinks: linkPaths,
      });
    } catch (error) {
      await removeScratchFolder(this.home, name, this.options.links).catch(() => false);
      rmSync(ownerFile(this.records, name), { force: true });
      await this.git.run(['worktree', 'prune']).catch(() => undefined);
      await removeEmptyScratchHome(this.home).catch(() => undefined);
      throw error;
    }
  }
}

/**
 * A commit for a worktree's HEAD: the checkpoint's own (a base that peels to a commit), or a
 * parentless one made for a bare tree.
 */
async function commitFor(git: ShadowGit, objects: ObjectReader, base: string, tree: string): Promise<string> {
  // A base whose tree is itself is a tree (a staged tree under review): no commit to look for.
  const own = base === tree ? null : await objects.read(`${revision(base)}^{commit}`);
  if (own?.type === 'commit') return own.id;
  // The object `commit-tree -m 'aide scratch base'` would write, without its git process.
  return writeCommit(git, tree, null, new Date(), 'aide scratch base\n');
}

/**
 * Whether `git worktree prune` would find anything to remove: an entry of `<gitDir>/worktrees`
 * without a readable `gitdir` file, or whose file names a `.git` that is gone. The prune is a git
 * process before every scratch is opened and almost always finds nothing; any doubt (a relative
 * path, an unreadable entry) says yes and lets git decide.
 */
function worktreesToPrune(gitDir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(join(gitDir, 'worktrees'));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  for (const name of names) {
    const target = readTextOr(join(gitDir, 'worktrees', name, 'gitdir'), '').trim();
    if (!isAbsolute(target) || !existsSync(target)) return true;
  }
  return false;
}
