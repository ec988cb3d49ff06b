/**
 * One scratch checkout (worktree-scratch.ts opens them): moved from tree to tree by writing only
 * the files that differ, captured back into the shadow, disposed of (or kept for the workspace).
 * aide's own git calls use a private index in the worktree's admin folder, so git run by the
 * project's commands inside the scratch cannot disturb what aide reads back.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  IgnoredPath,
  Scratch,
  ScratchCapture,
  ScratchLink,
  ScratchMove,
} from '../../../core/ports/scratch.js';
import type { ChangedFile } from '../../../core/ports/changes.js';
import { GitCommandError, type ShadowGit } from '../git.js';
import type { Workspace } from '../shadow-repo.js';
import {
  linkExcludes,
  linkKeepOptions,
  realFolderChain,
  removeLink,
  syncLinks,
  touchesLink,
} from './links.js';
import { ownerFile, removeEmptyScratchHome, removeScratchFolder } from './registry.js';
import { forgetKept } from './kept-scratch.js';
import { type ObjectReader, objectsOnly } from './object-reader.js';
import { changedFilesBetween, DIFF_ARGS } from '../changed-files.js';
import { applyTreeChanges, updateIndexEntries } from './tree-files.js';
import { scanFiles } from './scratch-scans.js';
import { statScan } from './stat-scan.js';
import { ignoredBy } from './ignored-by.js';
import { writtenTree } from './written-tree.js';
import { WriteLog } from './write-log.js';
import { revision, type ScratchPlace, type ScratchStart, unknownBase } from './scratch-start.js';

export class WorktreeScratch implements Scratch {
  readonly path: string;
  readonly session: string;
  private baseTree: string;
  /** The tree the files are known to match: the last capture, or the last move's target. */
  private filesTree: string;
  /**
   * The tree the private index holds (its entries' content: a stat scan relies on it, see
   * stat-scan.ts); null while a write of the index is under way or failed, when no tree is known.
   */
  private indexTree: string | null;
  private linkState: ScratchLink[];
  private disposed = false;
  /** A move failed half-way: the files match no known tree until the next capture. */
  private unknownFiles = false;
  /** The writes and commands aide was told of since the last capture (write-log.ts). */
  private readonly writes = new WriteLog();
  /** Whether git trusts the execute bit here (core.fileMode), read once when a capture needs it. */
  private trustsFileMode: Promise<boolean> | null = null;
  /**
   * Whether settle() may sweep in the background: only where nothing a command started outlives
   * it (a PID namespace), so that nothing can write after the sweep read the files.
   */
  private sweepsEarly = false;
  /** The sweep settle() began; `spoiled` once anything foreign ran after it began (its tree is then not used). */
  private early: { scan: Promise<string | null>; spoiled: boolean } | null = null;

  private readonly place: ScratchPlace;
  private readonly indexFile: string;
  /** The link paths, globs resolved when the scratch was opened. */
  private readonly configuredLinks: readonly string[];

  constructor(
    private readonly git: ShadowGit,
    private readonly objects: ObjectReader,
    private readonly workspace: Workspace,
    start: ScratchStart,
  ) {
    this.place = start.place;
    this.indexFile = start.indexFile;
    this.configuredLinks = start.configuredLinks;
    this.path = start.place.path;
    this.session = start.place.session;
    this.baseTree = start.tree;
    this.filesTree = start.tree;
    this.indexTree = start.tree;
    this.linkState = start.links;
  }

  /** The admin folder in the shadow (the kept scratch's record names it). */
  get adminDir(): string {
    return this.place.adminDir;
  }

  /**
   * A kept scratch taken up again, swept (`held`: the tree its files hold, scratch-scans.ts `sweepKept`):
   * moved from there to `tree`, linked, and its index copied for git run inside, as a fresh
   * checkout would be.
   */
  static async takeUp(
    git: ShadowGit,
    objects: ObjectReader,
    workspace: Workspace,
    start: Omit<ScratchStart, 'tree' | 'links'>,
    held: string,
    tree: string,
  ): Promise<WorktreeScratch> {
    // No links yet: the sweep's clean removed them (as links), and relink makes them again.
    const scratch = new WorktreeScratch(git, objects, workspace, { ...start, tree: held, links: [] });
    await scratch.moveTo(tree, { sweep: false });
    await scratch.syncIndex();
    await scratch.relink(tree);
    copyFileSync(start.indexFile, join(start.place.adminDir, 'index'));
    return scratch;
  }

  /** The configured links made to stand for `tree`; `previous` names the ones aide made before. */
  private async relink(tree: string, previous?: readonly ScratchLink[]): Promise<void> {
    this.linkState = await syncLinks(
      this.objects,
      this.workspace.root,
      this.path,
      tree,
      this.configuredLinks,
      previous,
    );
  }

  get base(): string {
    return this.baseTree;
  }

  get links(): readonly ScratchLink[] {
    return this.linkState;
  }

  private live(): void {
    if (this.disposed) throw new Error(`the scratch of session ${this.session} was disposed`);
  }

  private get indexOptions() {
    return { workTree: this.path, indexFile: this.indexFile };
  }

  /**
   * Files a move wrote are not in the private index yet: give it their entries (tracked files
   * that are also ignored would otherwise be dropped by `add -A`, or removed by `clean -X`).
   */
  private async syncIndex(): Promise<void> {
    const from = this.indexTree;
    this.indexTree = null;
    // An index of no known tree is given the files' tree afresh (its stat data lost: the next
    // scan hashes every file again).
    if (from === null) await this.git.run(['read-tree', this.filesTree], this.indexOptions);
    else
      await updateIndexEntries(this.git, await this.objects.changes(from, this.filesTree), this.indexOptions);
    this.indexTree = this.filesTree;
  }

  /**
   * Before a full scan (`add -A`, or the next session's sweep) the index needs only the paths
   * it lacks: a modified file's entry is there already and the scan's stat check re-hashes it,
   * as it does every file; a deleted file's entry the scan drops. So when a move or capture
   * only modified and deleted files, a 30k-entry index is not rewritten once more (~30 ms) for
   * them; the index is then no tree aide knows (indexTree stays) until the scan.
   */
  private async addMissingEntries(): Promise<void> {
    if (this.indexTree === null) return this.syncIndex();
    const changes = await this.objects.changes(this.indexTree, this.filesTree);
    if (changes.some((c) => c.action === 'created' || c.action === 'type_changed')) await this.syncIndex();
  }

  /**
   * From now on the caller tells the scratch of every write (noteWritten) and every command
   * (noteForeign) made in it (tracking.ts): captures then read the written paths only, until
   * something foreign ran.
   */
  trackWrites(options: { sweepsEarly?: boolean } = {}): void {
    this.writes.tracked = true;
    this.sweepsEarly = options.sweepsEarly === true;
    // Asked now, beside the session's other start-up work, not in the first step's capture; a
    // failure is met again (and reported) by the capture that needs it.
    this.fileMode().catch(() => undefined);
  }

  /**
   * Begins the sweep the next capture or move needs (after a command ran), in the background:
   * its git processes read the files while the step is reviewed, checkpointed and written back,
   * none of which touches the scratch. Anything foreign after this spoils it; every method that
   * reads or writes the scratch's files or index waits for it first (adoptEarly). Resolves
   * when that sweep has ended (the act flow does not wait; tests do).
   */
  async settle(): Promise<void> {
    if (!this.sweepsEarly || !this.writes.tracked || !this.writes.foreign || this.unknownFiles) return;
    if (this.disposed || this.early !== null) return;
    // A failed sweep is not this call's to report: the capture that needs it runs it again.
    const scan = this.captureAll({ background: true }).catch(() => null);
    this.early = { scan, spoiled: false };
    await scan;
  }

  /** Waits for a sweep settle() began, and takes its tree as what the files hold unless something foreign ran since. */
  private async adoptEarly(): Promise<void> {
    const early = this.early;
    if (early === null) return;
    const scanned = await early.scan;
    this.early = null;
    if (scanned === null || early.spoiled || !this.writes.foreign || this.unknownFiles) return;
    // aide's own writes since the sweep began stay in the log: the next capture reads them again.
    this.writes.foreign = false;
    this.filesTree = scanned;
  }

  /**
   * aide wrote these scratch-relative paths itself (its edits): a capture reads just them while
   * nothing else ran here. A path that is not plainly inside the scratch counts as foreign.
   */
  noteWritten(paths: readonly string[]): void {
    this.writes.noteWritten(paths);
  }

  /** Something aide does not control ran in the scratch (a command): the next capture walks every file. */
  noteForeign(): void {
    this.writes.foreign = true;
    if (this.early !== null) this.early.spoiled = true;
  }

  async capture(): Promise<ScratchCapture> {
    this.live();
    await this.adoptEarly();
    const written = await this.captureWritten();
    const tree = written ?? (await this.captureAll());
    this.unknownFiles = false;
    this.writes.clear();
    this.filesTree = tree;
    const changes = await this.objects.changes(this.baseTree, tree);
    return { base: this.baseTree, tree, changes };
  }

  /**
   * The capture when only aide wrote since the last one, from the known tree and the paths it
   * wrote (written-tree.ts): neither the index nor any other file is read. null when a full
   * scan is due: something foreign ran, a path touches a link, or the paths hold what that does
   * not model (a symlink, a folder, written by whatever wrote it), so the scan decides.
   */
  private async captureWritten(): Promise<string | null> {
    const paths = this.unknownFiles ? null : this.writes.writtenOnly();
    if (paths === null) return null;
    if (paths.length === 0) return this.filesTree;
    if (paths.some((p) => this.linkState.some((l) => touchesLink(l, p)))) return null;
    try {
      return await writtenTree(this.git, this.objects, {
        base: this.filesTree,
        paths,
        root: this.path,
        fileMode: await this.fileMode(),
        options: this.indexOptions,
        // The shadow's info/attributes turns every conversion off for its worktrees too.
        direct: true,
      });
    } catch (error) {
      if (error instanceof GitCommandError) return null;
      throw error;
    }
  }

  /** core.fileMode as git reads it for the scratch (unset: true). */
  private fileMode(): Promise<boolean> {
    this.trustsFileMode ??= this.git
      .text(['config', '--bool', '--get', 'core.fileMode'], { ...this.indexOptions, okCodes: [1] })
      .then((value) => value !== 'false');
    return this.trustsFileMode;
  }

  /**
   * Every file of the scratch compared with the private index: by the two read-only walks of a
   * stat scan (stat-scan.ts) when the files matched a known tree before whatever ran, else (or
   * when the stat scan cannot decide) by the full `add -A`, which also brings the index up.
   * `background`: begun by settle(), ahead of need (stat-scan.ts: one thread).
   */
  private async captureAll(how: { background?: boolean } = {}): Promise<string> {
    if (!this.unknownFiles && this.indexTree !== null) {
      const tree = await statScan(this.git, this.objects, {
        indexTree: this.indexTree,
        files: this.filesTree,
        root: this.path,
        links: this.linkState,
        fileMode: await this.fileMode(),
        options: this.indexOptions,
        background: how.background === true,
      });
      if (tree !== null) return tree;
    }
    await this.addMissingEntries();
    // The tree from the written paths, or from a stat scan, leaves the index where it was
    // (syncIndex brings it up when a scan needs it); this one rewrites it.
    this.indexTree = null;
    const tree = await scanFiles(this.git, this.indexOptions, this.linkState);
    this.indexTree = tree;
    return tree;
  }

  async changedFiles(capture?: ScratchCapture): Promise<ChangedFile[]> {
    const taken = capture ?? (await this.capture());
    return changedFilesBetween(this.git, taken.base, taken.tree, taken.changes);
  }

  async ignoredPaths(paths: readonly string[]): Promise<IgnoredPath[]> {
    this.live();
    await this.adoptEarly();
    if (paths.length === 0) return [];
    return ignoredBy(this.git, this.indexOptions, paths);
  }

  async diff(capture?: ScratchCapture): Promise<string> {
    const taken = capture ?? (await this.capture());
    if (taken.base === taken.tree) return '';
    const args = [...DIFF_ARGS, taken.base, taken.tree];
    return (await this.git.run(args, objectsOnly(this.git))).stdout.toString('utf8');
  }

  async moveTo(target: string, options: { sweep?: boolean } = {}): Promise<ScratchMove> {
    this.live();
    await this.adoptEarly();
    const sweep = options.sweep ?? true;
    const rev = revision(target);
    const swept = sweep || this.unknownFiles;
    if (swept) await this.capture();
    const from = this.filesTree;
    const tree = await this.objects.treeId(rev);
    if (tree === null) throw unknownBase(target);
    const changes = await this.objects.changes(from, tree);
    this.unknownFiles = true;
    if (changes.some((c) => c.path === '.gitignore' || c.path.endsWith('/.gitignore')))
      await this.removeIgnored();
    await this.unlinkUnder(changes);
    const { written, removed } = await applyTreeChanges(this.objects, this.path, changes);
    this.unknownFiles = false;
    this.filesTree = tree;
    this.baseTree = tree;
    if (changes.some((c) => this.linkState.some((l) => touchesLink(l, c.path))))
      await this.relink(tree, this.linkState);
    return { from, to: tree, written, removed, swept };
  }

  /**
   * A linked folder whose path the target tracks files under is removed (its links unlinked)
   * before the move writes them: a folder of links looks like any folder, and the later sync
   * must not take the checked-out files for a link of its own.
   */
  private async unlinkUnder(changes: readonly { path: string }[]): Promise<void> {
    for (const link of this.linkState) {
      if (!link.linked || !changes.some((c) => c.path.startsWith(`${link.path}/`))) continue;
      const segments = link.path.split('/');
      if (realFolderChain(this.path, segments.slice(0, -1))) await removeLink(join(this.path, ...segments));
      link.linked = false;
    }
  }

  /**
   * Ignored files (build outputs, caches) stay across moves, except when the ignore rules
   * change: a file the old rules ignored could be one the new rules do not, and the next capture
   * would take it for an edit. Then everything the current rules ignore goes first (a walk of the
   * scratch, only in such moves). Linked folders are left alone.
   */
  private async removeIgnored(): Promise<void> {
    await this.syncIndex();
    await this.git.run(
      ['clean', '-ffdXq', ...linkKeepOptions(this.linkState), '--', ':/', ...linkExcludes(this.linkState)],
      this.indexOptions,
    );
  }

  async dispose(options: { remove?: boolean } = {}): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    // A sweep still reading the files (or writing the index) is let finish first.
    await this.early?.scan;
    this.early = null;
    if (this.place.kept && options.remove !== true) {
      // Left for the next session, which sweeps it: the index given the paths of the last move
      // first, so that sweep keeps what aide last wrote (a tracked ignored file included).
      try {
        await this.addMissingEntries();
      } finally {
        this.objects.close();
        rmSync(ownerFile(this.place.records, this.place.name), { force: true });
      }
      return;
    }
    this.objects.close();
    // The kept scratch's record first: a crash from here on leaves a folder the stale sweep removes.
    if (this.place.kept) await forgetKept(this.git.location.gitDir);
    await removeScratchFolder(this.place.home, this.place.name, this.configuredLinks);
    // Read from the worktree's .git file when it was made, before any command ran, and checked then.
    await rm(this.place.adminDir, { recursive: true, force: true });
    rmSync(ownerFile(this.place.records, this.place.name), { force: true });
    await removeEmptyScratchHome(this.place.home);
  }
}
