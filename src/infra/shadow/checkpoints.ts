/**
 * Checkpoints: commits of snapshot trees on `refs/heads/aide/<session>` in the shadow
 * repository, with trailers that say what took them. Written as loose objects and update-ref
 * (no second tree walk, no hooks, no auto-gc), and never anywhere in the user's repository.
 */
import type { CheckpointRecord } from '../../core/ports/checkpoints.js';
import { AideError } from '../../shared/errors.js';
import { GitCommandError, missingObject, SHADOW_IDENTITY, type ShadowGit } from './git.js';
import { writeLooseObject } from './loose-objects.js';
import { ownBorrowedObjects } from './own-objects.js';
import { noteOwnedCheckpoint, ownedOnTopOf } from './owned-checkpoints.js';
import type { RefUpdater } from './ref-updater.js';
import type { ObjectReader } from './scratch/object-reader.js';
import { EMPTY_TREE, type SkippedFile } from './snapshot.js';
import { readWatched } from './watched-paths.js';

export const BRANCH_PREFIX = 'refs/heads/aide/';

export interface CheckpointMeta {
  session: string;
  /** What took it: "apply", "manual", "restore-safety", "step"… */
  reason: string;
  /** One-line summary. */
  message: string;
  step?: string;
  verdict?: string;
  skipped?: readonly SkippedFile[];
  /** Files that differ from the previous snapshot, when the caller knows. */
  filesChanged?: number;
  /** The session is new (its branch cannot exist yet): saves a lookup. */
  newSession?: boolean;
  /**
   * The parent the caller expects (the session's head), its tree and the files the new tree
   * changes from it: used while the branch's head is that commit (update-ref checks).
   */
  parentHint?: { id: string; tree: string; filesChanged: number };
}

/** A checkpoint as the core sees it, plus what only the shadow needs. */
export interface Checkpoint extends CheckpointRecord {
  tree: string;
  /** The previous checkpoint of the same session; null for a session's first. */
  parent: string | null;
  /** How many of the watched paths (watched-paths.ts) this checkpoint took into account. */
  watched: number;
  /**
   * An object this checkpoint names that the shadow no longer has (content the user's git gc
   * removed before checkpoints owned their objects): it cannot be shown, diffed or restored.
   */
  missing?: string;
}

const SHORT = 10;
const RECORD = '\u001e';
const FIELD = '\u001f';

export function validSessionId(session: string): boolean {
  return (
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(session) && !session.includes('..') && !session.endsWith('.lock')
  );
}

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

function parseCommit(
  id: string,
  parents: string,
  tree: string,
  time: string,
  body: string,
  filesChanged: number,
): Checkpoint {
  const trailer = (key: string) =>
    [...body.matchAll(new RegExp(`^Aide-${key}: (.*)$`, 'gm'))].map((m) => m[1] ?? '');
  return {
    id,
    short: id.slice(0, SHORT),
    tree,
    parent: parents.split(' ').filter((p) => p !== '')[0] ?? null,
    time: trailer('Time')[0] ?? new Date(Number(time) * 1000).toISOString(),
    session: trailer('Session')[0] ?? '?',
    reason: trailer('Reason')[0] ?? '?',
    message: body.split('\n')[0] ?? '',
    step: trailer('Step')[0] ?? null,
    verdict: trailer('Verdict')[0] ?? null,
    skipped: trailer('Skipped'),
    filesChanged,
    watched: Number(trailer('Watched')[0] ?? 0) || 0,
  };
}

const LOG_FORMAT = `${RECORD}%H${FIELD}%P${FIELD}%T${FIELD}%ct${FIELD}%B${FIELD}`;

/** Parses `git log --shortstat` output in LOG_FORMAT. */
function parseLog(output: string): Checkpoint[] {
  return output
    .split(RECORD)
    .filter((record) => record.trim() !== '')
    .map((record) => {
      const [id = '', parents = '', tree = '', time = '0', body = '', stat = ''] = record.split(FIELD);
      const files = /(\d+) files? changed/.exec(stat)?.[1];
      return parseCommit(id, parents, tree, time, body, files === undefined ? 0 : Number(files));
    });
}

/** The head commit of a session's branch, or null. */
export async function sessionHead(git: ShadowGit, session: string): Promise<string | null> {
  const head = await git.text(['rev-parse', '--verify', '-q', `${BRANCH_PREFIX}${session}`], {
    okCodes: [1],
  });
  return head === '' ? null : head;
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
 * (loose-objects.ts): one git process fewer per checkpoint. update-ref then refuses a commit
 * that is not in the store.
 */
async function writeCommit(
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

/** The first of these objects the shadow does not have, or null. */
export async function firstMissing(git: ShadowGit, shas: readonly string[]): Promise<string | null> {
  const wanted = [...new Set(shas.filter((sha) => /^[0-9a-f]{40,64}$/.test(sha) && !/^0+$/.test(sha)))];
  if (wanted.length === 0) return null;
  const out = await git.text(['cat-file', '--batch-check=%(objectname)'], {
    input: wanted.map((sha) => `${sha}\n`).join(''),
  });
  return /^([0-9a-f]+) missing$/m.exec(out)?.[1] ?? null;
}

/** The error for a checkpoint that names an object the shadow no longer has. */
export function damagedCheckpoint(checkpoint: { short: string }, object: string): AideError {
  return new AideError(
    'checkpoint_damaged',
    `checkpoint ${checkpoint.short} cannot be read: object ${object.slice(0, 10)} it records is missing from the shadow repository`,
    {
      hint:
        'Its content was only in your repository and a `git gc` removed it before aide kept its own copy (checkpoints taken now keep one). ' +
        'Other checkpoints are not affected: list them with `aide checkpoints`; `aide checkpoints prune` removes old sessions.',
      data: { checkpoint: checkpoint.short, object },
    },
  );
}

/** Resolves an id (full, abbreviated, or any revision) to a checkpoint commit. */
export async function resolveCheckpoint(git: ShadowGit, ref: string): Promise<string> {
  const id =
    /^[\w./~^@{}-]+$/.test(ref) && !ref.startsWith('-')
      ? await git.text(['rev-parse', '--verify', '-q', `${ref}^{commit}`], { okCodes: [1, 128] })
      : '';
  if (id === '') {
    throw new AideError('checkpoint_unknown', `no checkpoint "${ref}"`, {
      hint: 'List them with `aide checkpoints`; ids can be abbreviated to their first characters.',
    });
  }
  return id;
}

/**
 * Checkpoints from `git log` with their file counts. The counts read trees and blobs: when one
 * is missing, the log is read again without them and each checkpoint is counted on its own, so
 * one damaged checkpoint is marked (`missing`) and the others still list.
 */
async function logCheckpoints(git: ShadowGit, args: readonly string[]): Promise<Checkpoint[]> {
  try {
    return parseLog(await git.text(['log', '--root', '--shortstat', `--format=${LOG_FORMAT}`, ...args]));
  } catch (error) {
    if (missingObject(error) === null) throw error;
  }
  const found = parseLog(await git.text(['log', `--format=${LOG_FORMAT}`, ...args]));
  for (const checkpoint of found) {
    try {
      const raw = await git.fields([
        'diff-tree',
        '-r',
        '-z',
        '--raw',
        '--no-renames',
        '--no-abbrev',
        checkpoint.parent ?? EMPTY_TREE,
        checkpoint.tree,
      ]);
      const changed = raw.filter((_, i) => i % 2 === 0);
      checkpoint.filesChanged = changed.length;
      // The blobs it changed, as the log's --shortstat read them.
      const missing = await firstMissing(
        git,
        changed.map((field) => field.split(' ')[3] ?? ''),
      );
      if (missing !== null) checkpoint.missing = missing;
    } catch (error) {
      checkpoint.missing = missingObject(error) ?? checkpoint.tree;
    }
  }
  return found;
}

export async function showCheckpoint(git: ShadowGit, ref: string): Promise<Checkpoint> {
  const id = await resolveCheckpoint(git, ref);
  const [checkpoint] = await logCheckpoints(git, ['-1', id]);
  if (checkpoint === undefined) throw new AideError('checkpoint_unknown', `no checkpoint "${ref}"`);
  return checkpoint;
}

/** Checkpoints of every session (or one), newest first. */
export async function listCheckpoints(
  git: ShadowGit,
  options: { session?: string; limit?: number } = {},
): Promise<Checkpoint[]> {
  const refs =
    options.session === undefined ? [`--glob=${BRANCH_PREFIX}*`] : [`${BRANCH_PREFIX}${options.session}`];
  if (options.session !== undefined && (await sessionHead(git, options.session)) === null) return [];
  const hasAny = await git.text(['for-each-ref', '--count=1', '--format=%(refname)', BRANCH_PREFIX]);
  if (hasAny === '') return [];
  const limit = options.limit === undefined ? [] : [`--max-count=${options.limit + 1}`];
  const found = (await logCheckpoints(git, ['--date-order', ...limit, ...refs])).sort(
    (a, b) => Date.parse(b.time) - Date.parse(a.time),
  );
  // A session's first checkpoint has no parent: count its changes against the checkpoint before it.
  for (let i = 0; i + 1 < found.length; i++) {
    const current = found[i];
    const previous = found[i + 1];
    if (
      current?.parent === null &&
      previous !== undefined &&
      current.missing === undefined &&
      previous.missing === undefined
    ) {
      current.filesChanged = await filesBetween(git, previous.tree, current.tree).catch(
        () => current.filesChanged,
      );
    }
  }
  return options.limit === undefined ? found : found.slice(0, options.limit);
}

/** Number of files that differ between two trees. */
export async function filesBetween(git: ShadowGit, from: string, to: string): Promise<number> {
  return (await git.fields(['diff-tree', '-r', '-z', '--name-only', '--no-renames', from, to])).length;
}

/** Sessions (branch names without the prefix), most recently updated first, with their head times. */
export async function listSessions(
  git: ShadowGit,
): Promise<Array<{ session: string; head: string; time: string }>> {
  const format =
    '%(refname)%09%(objectname)%09%(committerdate:unix)%09%(contents:trailers:key=Aide-Time,valueonly,separator=)';
  const lines = (await git.text(['for-each-ref', `--format=${format}`, BRANCH_PREFIX])).split('\n');
  return lines
    .filter((line) => line !== '')
    .map((line) => {
      const [ref = '', head = '', unix = '0', precise = ''] = line.split('\t');
      return {
        session: ref.slice(BRANCH_PREFIX.length),
        head,
        time: precise.trim() === '' ? new Date(Number(unix) * 1000).toISOString() : precise.trim(),
      };
    })
    .sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
}

/** A fresh session id: `<kind>-YYYYMMDD-HHMMSS-<4 hex>`, sortable and unique enough per workspace. */
export function newSessionId(kind: string, now: Date, random: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${kind}-${stamp}-${random.slice(0, 4)}`;
}
