/**
 * Writing a checkpoint: the commit as a loose object (no second tree walk, no hooks, no auto-gc),
 * its objects made the shadow's own first (own-objects.ts, or owned-checkpoints.ts on top of a
 * checkpoint of this process's), then the session's branch moved with its old value checked.
 */
import { AideError } from '../../shared/errors.js';
import {
  BRANCH_PREFIX,
  filesBetween,
  showCheckpoint,
  SHORT,
  validSessionId,
  type Checkpoint,
  type CheckpointMeta,
} from './checkpoints.js';
import { GitCommandError, SHADOW_IDENTITY, type ShadowGit } from './git.js';
import { writeLooseObject } from './loose-objects.js';
import { ownBorrowedObjects } from './own-objects.js';
import { noteOwnedCheckpoint, ownedOnTopOf } from './owned-checkpoints.js';
import type { RefUpdater } from './ref-updater.js';
import type { ObjectReader } from './scratch/object-reader.js';
import { readWatched } from './watched-paths.js';

function commitMessage(meta: CheckpointMeta, time: string, watched: number): string {
  const trailers = [
    `Aide-Session: ${meta.session}`,
    // Commit times have whole seconds; this orders checkpoints taken within one second.
    `Aide-Time: ${time}`,
    `Aide-Reason: ${meta.reason}`,
    ...(watched === 0 ? [] : [`Aide-Watched: ${watched}`]),
    ...(meta.step === undefined ? [] : [`Aide-Step: ${meta.step}`]),
    ...(meta.verdict === undefined ? [] : [`Aide-Verdict: ${meta.verdict.replace(/\n/g, ' ')}`]),
    ...(meta.skipped ?? []).map((s) => `Aide-Skipped: ${s.path}`),
  ];
  return `${meta.message.replace(/\n/g, ' ')}\n\n${trailers.join('\n')}\n`;
}

/** The head commit of a session's branch and its tree in one git call, or null. */
async function sessionHeadTree(
  git: ShadowGit,
  session: string,
): Promise<{ id: string; tree: string } | null> {
  const ref = `${BRANCH_PREFIX}${session}`;
  const out = await git.text(['for-each-ref', '--format=%(refname)%00%(objectname)%00%(tree)', ref]);
  // A ref name holds neither a NUL nor a newline; the pattern also matches refs below it (none).
  for (const line of out.split('\n')) {
    const [name, id = '', tree = ''] = line.split('\0');
    if (name === ref && id !== '' && tree !== '') return { id, tree };
  }
  return null;
}

/**
 * What a long-lived caller (a store's session) lends a checkpoint: its object reader (to see
 * that the objects are owned already, owned-checkpoints.ts) and its ref updater (one git process
 * for every branch move, ref-updater.ts). Without them each checkpoint starts its own git.
 */
export interface CheckpointTools {
  objects?: ObjectReader;
  refs?: RefUpdater;
}

/**
 * Records a tree as a checkpoint on the session's branch. When the tree is the branch head's
 * own, nothing new is recorded and the head is returned (`created: false`). A parent the caller
 * names (parentHint) is taken on trust without looking the branch up: update-ref refuses to move
 * a branch that is no longer there, and then the head is looked up and the tree recorded on it.
 */
export async function createCheckpoint(
  git: ShadowGit,
  tree: string,
  meta: CheckpointMeta,
  tools: CheckpointTools = {},
): Promise<{ checkpoint: Checkpoint; created: boolean }> {
  if (!validSessionId(meta.session))
    throw new AideError('usage', `"${meta.session}" is not a valid session id`, {
      hint: 'Use letters, digits, ".", "_" and "-".',
    });
  const hint = meta.newSession === true ? undefined : meta.parentHint;
  if (hint !== undefined && hint.tree !== tree) {
    const made = await commitOn(git, tree, meta, hint.id, tools).catch((error: unknown) => {
      if (error instanceof GitCommandError) return null;
      throw error;
    });
    if (made !== null)
      return { checkpoint: { ...made, filesChanged: meta.filesChanged ?? hint.filesChanged }, created: true };
  }
  const head = meta.newSession === true ? null : await sessionHeadTree(git, meta.session);
  const parent = head?.id ?? null;
  if (parent !== null && head?.tree === tree)
    return { checkpoint: await showCheckpoint(git, parent), created: false };
  const made = await commitOn(git, tree, meta, parent, tools);
  const filesChanged = meta.filesChanged ?? (parent === null ? 0 : await filesBetween(git, parent, made.id));
  return { checkpoint: { ...made, filesChanged }, created: true };
}

/** git's `+hhmm` for the local time zone at `date`. */
function timeZone(date: Date): string {
  const east = -date.getTimezoneOffset();
  const abs = Math.abs(east);
  return `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The commit object `commit-tree` would write (gitformat-commit: tree, parent, author and
 * committer lines, a blank line, the message as given), written by aide as a loose object
 * (loose-objects.ts): one git process fewer per checkpoint, and per scratch of a staged tree
 * (worktree-scratch.ts, commitFor). update-ref then refuses a commit that is not in the store.
 * `message` is written as given: commit-tree's `-m` adds the final newline.
 */
export async function writeCommit(
  git: ShadowGit,
  tree: string,
  parent: string | null,
  date: Date,
  message: string,
): Promise<string> {
  const who = `${SHADOW_IDENTITY.name} <${SHADOW_IDENTITY.email}> ${Math.floor(date.getTime() / 1000)} ${timeZone(date)}`;
  const text = [
    `tree ${tree}`,
    ...(parent === null ? [] : [`parent ${parent}`]),
    `author ${who}`,
    `committer ${who}`,
    '',
    message,
  ].join('\n');
  return writeLooseObject(
    git.location.gitDir,
    'commit',
    Buffer.from(text, 'utf8'),
    tree.length === 64 ? 'sha256' : 'sha1',
  );
}

/** A commit of `tree` on `parent`, the session's branch moved to it (only from `parent`: update-ref checks). */
async function commitOn(
  git: ShadowGit,
  tree: string,
  meta: CheckpointMeta,
  parent: string | null,
  { objects, refs }: CheckpointTools,
): Promise<Omit<Checkpoint, 'filesChanged'>> {
  const time = new Date().toISOString();
  const { gitDir } = git.location;
  const [watchedList, owned] = await Promise.all([
    readWatched(git),
    parent === null || objects === undefined ? false : ownedOnTopOf(objects, gitDir, parent, tree),
  ]);
  const watched = watchedList.paths.length;
  // Before the checkpoint exists: every object it names is then in the shadow's own store
  // (already, on top of a checkpoint of this process's: owned-checkpoints.ts).
  if (!owned) await ownBorrowedObjects(git);
  const id = await writeCommit(git, tree, parent, new Date(time), commitMessage(meta, time, watched));
  // The empty old value makes update-ref fail if the branch appeared meanwhile.
  const ref = `${BRANCH_PREFIX}${meta.session}`;
  const message = `aide: ${meta.reason}`;
  if (refs !== undefined) await refs.update(ref, id, parent ?? '', message);
  else await git.run(['update-ref', '-m', message, ref, id, parent ?? '']);
  noteOwnedCheckpoint(gitDir, id, tree);
  return {
    id,
    short: id.slice(0, SHORT),
    tree,
    parent,
    time,
    session: meta.session,
    reason: meta.reason,
    message: meta.message.replace(/\n/g, ' '),
    step: meta.step ?? null,
    verdict: meta.verdict ?? null,
    skipped: (meta.skipped ?? []).map((f) => f.path),
    watched,
  };
}
