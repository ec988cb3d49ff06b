/**
 * What `aide review` reads, wired: the change in the shadow (read from a copy of the index git
 * names, its tree written only when something uses it; or between two commits' trees), file by
 * file (and as a patch for the model check), and, when verify runs, a scratch copy of the
 * reviewed tree. The workspace lock is held only while these are made; nothing here
 * writes the work tree or the user's .git.
 */
import { randomBytes } from '../../infra/node/lazy-builtins.js';
import { AideError } from '../../shared/errors.js';
import type { SandboxConfig } from '../../config/sandbox-schema.js';
import type { FilePatch, ReviewedFile } from '../../core/ports/review.js';
import { parseReviewIgnore, REVIEW_IGNORE_FILE, type IgnoreEntry } from '../../core/review/review-ignore.js';
import type { Scratch } from '../../core/ports/scratch.js';
import { newSessionId } from '../../infra/shadow/checkpoints.js';
import { ShadowReviewSource } from '../../infra/shadow/review-source.js';
import { EMPTY_TREE, ShadowStore } from '../../infra/shadow/shadow-store.js';
import type { ScratchOptions, ShadowScratches } from '../../infra/shadow/scratch/worktree-scratch.js';
import type { ReviewOptions } from '../commands/review-options.js';
import { namedBy } from './named-ref.js';
import { locateWorkspace, type LocatedWorkspace } from './workspace.js';
import { tempRoot } from './temp-root.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What was reviewed, for the report. */
export interface ReviewSubject {
  kind: 'staged' | 'range';
  /** Base and reviewed trees (ids in the shadow). */
  fromTree: string;
  /**
   * null: the staged tree, not written because nothing used it (no scratch, no model patch, no
   * report that names it: PendingReview.take).
   */
  toTree: string | null;
  /** The commits of a range; null for the staged tree. */
  fromCommit: string | null;
  toCommit: string | null;
}

/** What the static checks made of the change, and the scratch copy verify runs in (null when verify is skipped). */
export interface PreparedReview<T> {
  stateDir: string;
  session: string;
  subject: ReviewSubject;
  inspected: T;
  scratch: Scratch | null;
  /** The change as a patch, for the model check; null when it was not asked for. */
  patches: FilePatch[] | null;
}

/** The workspace located (the top of the work tree around `cwd`) for a review. */
export type ReviewWorkspace = LocatedWorkspace;

/** Where the review runs: the workspace around `cwd`, with its repository's layout. */
export function locateForReview(cwd: string, env: Env): Promise<ReviewWorkspace> {
  return locateWorkspace(cwd, env);
}

/** Lines of context around each hunk the model sees: git's default, enough to read a change by. */
const PATCH_CONTEXT_LINES = 3;

/** What was reviewed, and its files with `.aide/review-ignore` as the reviewed tree has it. */
interface ReadChange {
  subject: ReviewSubject;
  files: ReviewedFile[];
  ignoreFile: Uint8Array | null;
}

/**
 * The staged change, read from a copy of the index (ShadowReviewSource), and its tree written
 * when `treeWanted` says so.
 */
function stagedChange(
  store: ShadowStore,
  source: ShadowReviewSource,
  treeWanted: Promise<boolean>,
): Promise<ReadChange> {
  const fromTree = store.workspace.user?.headTree ?? EMPTY_TREE;
  const subject = (toTree: string | null): ReviewSubject => ({
    kind: 'staged',
    fromTree,
    toTree,
    fromCommit: null,
    toCommit: null,
  });
  return store.withStagedIndex(async (indexFile) => {
    if (indexFile === null) {
      const { files, file } = await source.filesWith(fromTree, EMPTY_TREE, REVIEW_IGNORE_FILE);
      return { subject: subject(EMPTY_TREE), files, ignoreFile: file };
    }
    const { tree, files, file } = await source.stagedFilesWith(
      fromTree,
      indexFile,
      REVIEW_IGNORE_FILE,
      treeWanted,
    );
    return { subject: subject(tree), files, ignoreFile: file };
  });
}

/** A range of the user's history: the two commits' trees, borrowed from the user's store. */
async function rangeChange(
  store: ShadowStore,
  source: ShadowReviewSource,
  options: ReviewOptions,
): Promise<ReadChange> {
  // The empty tree: a pushed history that starts with a root commit (cli/review-push.ts).
  const from =
    options.fromRef === EMPTY_TREE
      ? { tree: EMPTY_TREE, commit: null }
      : await namedBy('--from-ref', store.refTree(options.fromRef ?? 'HEAD'));
  const to = await namedBy('--to-ref', store.refTree(options.toRef ?? 'HEAD'));
  const { files, file } = await source.filesWith(from.tree, to.tree, REVIEW_IGNORE_FILE);
  return {
    subject: {
      kind: 'range',
      fromTree: from.tree,
      toTree: to.tree,
      fromCommit: from.commit,
      toCommit: to.commit,
    },
    files,
    ignoreFile: file,
  };
}

/** The reviewed tree, which whoever took the change asked to be written (PendingReview.take). */
function writtenTree(subject: ReviewSubject): string {
  if (subject.toTree === null)
    throw new Error('the staged tree was used, but PendingReview.take did not ask for it');
  return subject.toTree;
}

/** The change under review, read with the shadow held: what prepareReview goes on from. */
export interface ReadReview extends ReadChange {
  store: ShadowStore;
  source: ShadowReviewSource;
  /** The scratches, the kept one's sweep started early (PendingReview.prepareScratch); null: not asked. */
  scratches: Promise<ShadowScratches | null>;
}

/** Where a review's scratch goes and what it links (sandbox.json `link`). */
export type ReviewScratchOptions = Omit<ScratchOptions, 'keep'>;

/**
 * Opens the shadow (its lock taken) and reads the change: the git processes of a hook's review,
 * which need nothing of the configuration, so they run while it is loaded. The staged tree is
 * written once `treeWanted` says something will use it (it may need the configuration to know).
 * The shadow stays held until prepareReview is done with it, or PendingReview.release.
 */
export async function readReview(
  { root, layout }: ReviewWorkspace,
  env: Env,
  options: ReviewOptions,
  treeWanted: Promise<boolean>,
  scratchWanted: Promise<ReviewScratchOptions | null> = Promise.resolve(null),
): Promise<ReadReview> {
  // Refused before the shadow is opened: it would be made in whatever folder this is.
  if (layout === null) {
    throw new AideError(
      'workspace_invalid',
      `aide review needs a git repository, and ${root} is not in one`,
      {
        hint: 'Run it in the work tree of the repository whose staged change or commits to review.',
      },
    );
  }
  const store = await ShadowStore.open(root, env, {
    command: 'review',
    layout,
    // No git process of a review reads the work tree: the user's excludes file is not asked.
    excludesFile: 'keep',
  });
  const source = new ShadowReviewSource(store.git);
  // The kept scratch's sweep needs no base: it runs while the change is read and checked.
  const scratches = scratchWanted.then((wanted) => {
    if (wanted === null) return null;
    const early = store.scratches({ ...wanted, keep: true });
    early.prepareKept();
    return early;
  });
  try {
    const change = options.staged
      ? await stagedChange(store, source, treeWanted)
      : await rangeChange(store, source, options);
    return { store, source, scratches, ...change };
  } catch (error) {
    source.close();
    await letGo(store, scratches);
    throw error;
  }
}

/** The shadow let go; before its lock, a kept scratch swept early that no scratch took (its owner record). */
async function letGo(store: ShadowStore, scratches: Promise<ShadowScratches | null>): Promise<void> {
  try {
    await (await scratches)?.releaseEarly();
  } finally {
    await store.close();
  }
}

/**
 * A change being read (readReview), held until prepareReview takes it: a review that stops before
 * (a configuration error, an unusable sandbox) lets the shadow go in `release`, and a failed read
 * is reported only by whoever takes it, so a configuration error is still the one seen.
 */
export class PendingReview {
  private taken = false;
  private decide: (wanted: boolean) => void = () => undefined;
  private readonly treeWanted = new Promise<boolean>((resolve) => (this.decide = resolve));
  private decideScratch: (wanted: ReviewScratchOptions | null) => void = () => undefined;
  private readonly scratchWanted = new Promise<ReviewScratchOptions | null>(
    (resolve) => (this.decideScratch = resolve),
  );
  private readonly read: Promise<ReadReview>;

  /**
   * `read` is given whether to write the staged tree, once wantTree or take says, and the
   * options of the scratch to prepare, once prepareScratch or take says.
   */
  constructor(
    read: (
      treeWanted: Promise<boolean>,
      scratchWanted: Promise<ReviewScratchOptions | null>,
    ) => Promise<ReadReview>,
  ) {
    this.read = read(this.treeWanted, this.scratchWanted);
    // Handled now: it may fail while the configuration is still being parsed.
    this.read.catch(() => undefined);
  }

  /** The staged tree will be used (a scratch, a report naming it): written now, beside the rest. */
  wantTree(): void {
    this.decide(true);
  }

  /** A scratch will likely be opened (verify runs): the kept one is swept now, beside the rest. */
  prepareScratch(options: ReviewScratchOptions): void {
    this.decideScratch(options);
  }

  /**
   * The change read, its staged tree written if `withTree` (or wantTree came first); from here
   * prepareReview lets the shadow go.
   */
  take(withTree: boolean): Promise<ReadReview> {
    this.decide(withTree);
    this.decideScratch(null);
    this.taken = true;
    return this.read;
  }

  /** Lets the shadow go unless the change was taken; never rejects. */
  async release(): Promise<void> {
    this.decide(false);
    this.decideScratch(null);
    if (this.taken) return;
    this.taken = true;
    try {
      const { source, store, scratches } = await this.read;
      source.close();
      await letGo(store, scratches);
    } catch {
      // Nothing was held.
    }
  }
}

/**
 * The change given to `inspect` (the static checks) while the shadow is held, so the staged
 * tree's objects cannot be collected under it, a scratch of the reviewed tree when
 * `withScratch`, and the patch when `withPatches` (the model check runs). The scratch is the
 * workspace's kept one, as for `aide verify` and `aide act`: swept and moved to the reviewed tree
 * (what differs is written) instead of a full checkout on every commit. The shadow is let go
 * after, whatever happens.
 */
export async function prepareReview<T>(
  { store, source, scratches, subject, files, ignoreFile }: ReadReview,
  env: Env,
  sandbox: SandboxConfig,
  withScratch: boolean,
  inspect: (files: ReviewedFile[], ignore: IgnoreEntry[]) => Promise<T>,
  withPatches = false,
): Promise<PreparedReview<T>> {
  try {
    const ignore = ignoreFile === null ? [] : parseReviewIgnore(Buffer.from(ignoreFile).toString('utf8'));
    const inspected = await inspect(files, ignore);
    const patches = withPatches
      ? await source.patches(subject.fromTree, writtenTree(subject), PATCH_CONTEXT_LINES)
      : null;
    const session = newSessionId('review', new Date(), randomBytes(2).toString('hex'));
    const early = await scratches;
    const scratch = withScratch
      ? await (early ?? store.scratches(reviewScratch(env, sandbox)))
          // The reader that read the change reads the scratch's base too: one git process fewer.
          .open(session, writtenTree(subject), source.takeReader() ?? undefined)
      : null;
    return {
      stateDir: store.workspace.stateDir,
      session,
      subject,
      inspected,
      scratch,
      patches,
    };
  } finally {
    source.close();
    await letGo(store, scratches);
  }
}

/** Where a review's scratch goes: the kept one, under the temp dir, with sandbox.json's links. */
export function reviewScratch(env: Env, sandbox: SandboxConfig): ReviewScratchOptions & { keep: true } {
  return { tempRoot: tempRoot(env), links: sandbox.link, keep: true };
}
