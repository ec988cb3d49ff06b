/**
 * Taking the workspace's kept scratch up again (kept-scratch.ts says what is checked and swept):
 * the sweep, which needs no base and so may start before the session's first snapshot is taken
 * (prepare), then the move to the base the session starts from. ShadowScratches
 * (worktree-scratch.ts) decides when the kept scratch is taken up, removed or made afresh.
 */
import { sweepKept } from './scratch-scans.js';
import { existsSync, rmSync } from 'node:fs';
import { lstatOrUndefined, readTextOr } from '../../fs/small-files.js';
import { join } from 'node:path';
import type { ShadowGit } from '../git.js';
import type { Workspace } from '../shadow-repo.js';
import { readKept, resetGitLink, writeWorktreeHead, type KeptRecord } from './kept-scratch.js';
import { resolveLinkPaths } from './links.js';
import { ObjectReader } from './object-reader.js';
import { ensureScratchHome, listScratches, ownerFile, processIdentity, writeOwner } from './registry.js';
import { WorktreeScratch } from './scratch-checkout.js';
import { PRIVATE_INDEX } from './scratch-start.js';
import { applyTreeChanges, updateIndexEntries } from './tree-files.js';

/** A kept scratch swept, owned by this process, not yet moved: `held` is the tree its files hold. */
export interface Swept {
  record: KeptRecord;
  path: string;
  indexFile: string;
  held: string;
}

/** The sweep prepare() started: of the kept scratch `name`; `swept` null when it failed (nothing owned). */
export interface EarlySweep {
  name: string;
  swept: Swept | null;
  /** open() took it up (or removed it): nothing is left for release(). */
  taken?: boolean;
  /** The reader the early move used, left running for open() (which closes it, or its scratch does). */
  objects?: ObjectReader;
}

/** Where the kept scratch is taken up: the workspace's scratch home and owner records, its links. */
export interface TakeUpPlace {
  home: string;
  records: string;
  links: readonly string[];
}

export class KeptTakeUp {
  /** The sweep started by prepare() before the base was known; take() hands it over. */
  private early: Promise<EarlySweep | null> | undefined;
  /** Tells the early sweep that open() is waiting: it moves to no tree any more. */
  private opening: (() => void) | undefined;

  constructor(
    private readonly git: ShadowGit,
    private readonly workspace: Workspace,
    private readonly place: TakeUpPlace,
  ) {}

  /**
   * Starts taking up the kept scratch before the base is known, so that its sweep (a full walk
   * of the scratch) runs beside the workspace's snapshot, which the base comes from. `target`:
   * the tree the session will likely start from (its first snapshot's, told before that
   * snapshot is committed), to move to meanwhile; open() moves on from there to the base it is
   * given, whatever it is. Nothing comes of it when there is no kept scratch to take up here
   * (none yet, stale, in use, under another temp dir).
   */
  prepare(target?: Promise<string>): void {
    if (this.early !== undefined) return;
    const opened = new Promise<null>((resolve) => {
      this.opening = () => {
        resolve(null);
      };
    });
    this.early = this.sweepEarly(target === undefined ? opened : Promise.race([target, opened])).catch(
      () => null,
    );
  }

  /** The early sweep, once it has ended (null: none); the caller now owns what it holds (its owner record). */
  async take(): Promise<EarlySweep | null> {
    this.opening?.();
    const early = this.early === undefined ? null : await this.early;
    this.early = undefined;
    return early;
  }

  /** An early sweep nobody took (the session ended before it had a scratch): its owner record goes. */
  async release(): Promise<void> {
    const early = await this.take();
    early?.objects?.close();
    if (early !== null && early.swept !== null)
      rmSync(ownerFile(this.place.records, early.name), { force: true });
  }

  private async sweepEarly(target: Promise<string | null>): Promise<EarlySweep | null> {
    const { home, records } = this.place;
    const [, record] = await Promise.all([ensureScratchHome(home), readKept(this.git.location.gitDir)]);
    if (record === null || record === 'stale' || record.home !== home) return null;
    const entry = (await listScratches(home, records)).find((e) => e.session === record.name);
    if (entry?.alive === true) return null;
    const swept = await this.sweep(record).catch(() => null);
    const tree = swept === null ? null : await target;
    if (swept === null || tree === null || tree === swept.held) return { name: record.name, swept };
    // Its reader stays running for open(): a git process fewer on the way to the first step.
    const objects = new ObjectReader(this.git);
    return { name: record.name, swept: await this.moveEarly(swept, tree, objects), objects };
  }

  /**
   * The swept scratch's files and index brought to `tree` before open(), as its move would
   * (after the sweep nothing ignored is left to remove, and there are no links yet). null when
   * that fails: the files are then no tree aide knows, and open() makes the scratch afresh.
   */
  private async moveEarly(swept: Swept, tree: string, objects: ObjectReader): Promise<Swept | null> {
    try {
      const changes = await objects.changes(swept.held, tree);
      await applyTreeChanges(objects, swept.path, changes);
      await updateIndexEntries(this.git, changes, { workTree: swept.path, indexFile: swept.indexFile });
      return { ...swept, held: tree };
    } catch {
      rmSync(ownerFile(this.place.records, swept.record.name), { force: true });
      return null;
    }
  }

  /**
   * Sweeps the kept scratch (kept-scratch.ts says what is checked and swept): owned by this
   * process from here on. null when it cannot be trusted to be aide's; a failed sweep throws,
   * its owner record removed. Either way the caller removes it and makes it afresh.
   */
  async sweep(record: KeptRecord): Promise<Swept | null> {
    const path = join(this.place.home, record.name);
    const indexFile = join(record.adminDir, PRIVATE_INDEX);
    const proven = lstatOrUndefined(path);
    const gitdir = readTextOr(join(record.adminDir, 'gitdir'), '');
    const indexed = existsSync(indexFile);
    const identity = await processIdentity(process.pid);
    if (proven?.isDirectory() !== true || proven.isSymbolicLink()) return null;
    if (gitdir.trim() !== join(path, '.git') || !indexed) return null;
    await writeOwner(this.place.records, record.name, {
      version: 2,
      pid: process.pid,
      identity,
      createdAt: new Date().toISOString(),
    });
    try {
      await resetGitLink(path, record.adminDir);
      const held = await sweepKept(this.git, path, { workTree: path, indexFile });
      return { record, path, indexFile, held };
    } catch (error) {
      rmSync(ownerFile(this.place.records, record.name), { force: true });
      throw error;
    }
  }

  /** The swept kept scratch moved to `tree` for `session`; a failure throws, its owner record removed. */
  async move(
    session: string,
    swept: Swept,
    tree: string,
    commit: string,
    objects: ObjectReader,
  ): Promise<WorktreeScratch> {
    const { record, path, indexFile } = swept;
    const { home, records } = this.place;
    try {
      await writeWorktreeHead(record.adminDir, commit);
      const linkPaths = await resolveLinkPaths(this.workspace.root, this.place.links);
      const place = { home, records, name: record.name, session, path };
      const start = { place: { ...place, adminDir: record.adminDir, kept: true }, indexFile };
      return await WorktreeScratch.takeUp(
        this.git,
        objects,
        this.workspace,
        { ...start, configuredLinks: linkPaths },
        swept.held,
        tree,
      );
    } catch (error) {
      rmSync(ownerFile(records, record.name), { force: true });
      throw error;
    }
  }
}
