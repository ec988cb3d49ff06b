/**
 * Checkpoints: commits of snapshot trees on `refs/heads/aide/<session>` in the shadow
 * repository, with trailers that say what took them (written by checkpoint-commit.ts), never
 * anywhere in the user's repository. This module reads them: the list, one checkpoint, a
 * session's head, what a damaged one lacks.
 */
import type { CheckpointRecord } from '../../core/ports/checkpoints.js';
import { AideError } from '../../shared/errors.js';
import { missingObject, type ShadowGit } from './git.js';
import { EMPTY_TREE, type SkippedFile } from './snapshot.js';

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

/** Characters of a checkpoint's short id. */
export const SHORT = 10;
const RECORD = '\u001e';
const FIELD = '\u001f';

export function validSessionId(session: string): boolean {
  return (
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(session) && !session.includes('..') && !session.endsWith('.lock')
  );
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
