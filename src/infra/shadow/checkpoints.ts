/**
 * Checkpoints: commits of snapshot trees on `refs/heads/aide/<session>` in the shadow
 * repository, with trailers that say what took them. Written with commit-tree and update-ref
 * (no second tree walk, no hooks, no auto-gc), and never anywhere in the user's repository.
 */
import type { CheckpointRecord } from '../../core/ports.js';
import { AideError } from '../../shared/errors.js';
import type { ShadowGit } from './git.js';
import type { SkippedFile } from './snapshot.js';

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
}

/** A checkpoint as the core sees it, plus what only the shadow needs. */
export interface Checkpoint extends CheckpointRecord {
  tree: string;
  /** The previous checkpoint of the same session; null for a session's first. */
  parent: string | null;
}

const SHORT = 10;
const RECORD = '\u001e';
const FIELD = '\u001f';

export function validSessionId(session: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(session) && !session.includes('..') && !session.endsWith('.lock');
}

function commitMessage(meta: CheckpointMeta, time: string): string {
  const trailers = [
    `Aide-Session: ${meta.session}`,
    // Commit times have whole seconds; this orders checkpoints taken within one second.
    `Aide-Time: ${time}`,
    `Aide-Reason: ${meta.reason}`,
    ...(meta.step === undefined ? [] : [`Aide-Step: ${meta.step}`]),
    ...(meta.verdict === undefined ? [] : [`Aide-Verdict: ${meta.verdict.replace(/\n/g, ' ')}`]),
    ...(meta.skipped ?? []).map((s) => `Aide-Skipped: ${s.path}`),
  ];
  return `${meta.message.replace(/\n/g, ' ')}\n\n${trailers.join('\n')}\n`;
}

function parseCommit(id: string, parents: string, tree: string, time: string, body: string, filesChanged: number): Checkpoint {
  const trailer = (key: string) => [...body.matchAll(new RegExp(`^Aide-${key}: (.*)$`, 'gm'))].map((m) => m[1] ?? '');
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
  const head = await git.text(['rev-parse', '--verify', '-q', `${BRANCH_PREFIX}${session}`], { okCodes: [1] });
  return head === '' ? null : head;
}

/**
 * Records a tree as a checkpoint on the session's branch. When the tree is the branch head's
 * own, nothing new is recorded and the head is returned (`created: false`).
 */
export async function createCheckpoint(git: ShadowGit, tree: string, meta: CheckpointMeta): Promise<{ checkpoint: Checkpoint; created: boolean }> {
  if (!validSessionId(meta.session)) throw new AideError('usage', `"${meta.session}" is not a valid session id`, { hint: 'Use letters, digits, ".", "_" and "-".' });
  const parent = meta.newSession === true ? null : await sessionHead(git, meta.session);
  if (parent !== null) {
    const parentTree = await git.text(['rev-parse', `${parent}^{tree}`]);
    if (parentTree === tree) return { checkpoint: await showCheckpoint(git, parent), created: false };
  }
  const time = new Date().toISOString();
  const id = await git.text(['commit-tree', tree, ...(parent === null ? [] : ['-p', parent]), '-F', '-'], { input: commitMessage(meta, time) });
  // The empty old value makes update-ref fail if the branch appeared meanwhile.
  await git.run(['update-ref', '-m', `aide: ${meta.reason}`, `${BRANCH_PREFIX}${meta.session}`, id, parent ?? '']);
  const checkpoint: Checkpoint = {
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
    filesChanged: meta.filesChanged ?? (parent === null ? 0 : await filesBetween(git, parent, id)),
  };
  return { checkpoint, created: true };
}

/** Resolves an id (full, abbreviated, or any revision) to a checkpoint commit. */
export async function resolveCheckpoint(git: ShadowGit, ref: string): Promise<string> {
  const id = /^[\w./~^@{}-]+$/.test(ref) && !ref.startsWith('-') ? await git.text(['rev-parse', '--verify', '-q', `${ref}^{commit}`], { okCodes: [1, 128] }) : '';
  if (id === '') {
    throw new AideError('checkpoint_unknown', `no checkpoint "${ref}"`, { hint: 'List them with `aide checkpoints`; ids can be abbreviated to their first characters.' });
  }
  return id;
}

export async function showCheckpoint(git: ShadowGit, ref: string): Promise<Checkpoint> {
  const id = await resolveCheckpoint(git, ref);
  const [checkpoint] = parseLog(await git.text(['log', '-1', '--root', '--shortstat', `--format=${LOG_FORMAT}`, id]));
  if (checkpoint === undefined) throw new AideError('checkpoint_unknown', `no checkpoint "${ref}"`);
  return checkpoint;
}

/** Checkpoints of every session (or one), newest first. */
export async function listCheckpoints(git: ShadowGit, options: { session?: string; limit?: number } = {}): Promise<Checkpoint[]> {
  const refs = options.session === undefined ? [`--glob=${BRANCH_PREFIX}*`] : [`${BRANCH_PREFIX}${options.session}`];
  if (options.session !== undefined && (await sessionHead(git, options.session)) === null) return [];
  const hasAny = await git.text(['for-each-ref', '--count=1', '--format=%(refname)', BRANCH_PREFIX]);
  if (hasAny === '') return [];
  const limit = options.limit === undefined ? [] : [`--max-count=${options.limit + 1}`];
  const found = parseLog(await git.text(['log', '--root', '--shortstat', '--date-order', `--format=${LOG_FORMAT}`, ...limit, ...refs])).sort(
    (a, b) => Date.parse(b.time) - Date.parse(a.time),
  );
  // A session's first checkpoint has no parent: count its changes against the checkpoint before it.
  for (let i = 0; i + 1 < found.length; i++) {
    const current = found[i];
    const previous = found[i + 1];
    if (current?.parent === null && previous !== undefined) current.filesChanged = await filesBetween(git, previous.tree, current.tree);
  }
  return options.limit === undefined ? found : found.slice(0, options.limit);
}

/** Number of files that differ between two trees. */
export async function filesBetween(git: ShadowGit, from: string, to: string): Promise<number> {
  return (await git.fields(['diff-tree', '-r', '-z', '--name-only', '--no-renames', from, to])).length;
}

/** Sessions (branch names without the prefix), most recently updated first, with their head times. */
export async function listSessions(git: ShadowGit): Promise<Array<{ session: string; head: string; time: string }>> {
  const format = '%(refname)%09%(objectname)%09%(committerdate:unix)%09%(contents:trailers:key=Aide-Time,valueonly,separator=)';
  const lines = (await git.text(['for-each-ref', `--format=${format}`, BRANCH_PREFIX])).split('\n');
  return lines
    .filter((line) => line !== '')
    .map((line) => {
      const [ref = '', head = '', unix = '0', precise = ''] = line.split('\t');
      return { session: ref.slice(BRANCH_PREFIX.length), head, time: precise.trim() === '' ? new Date(Number(unix) * 1000).toISOString() : precise.trim() };
    })
    .sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
}

/** A fresh session id: `<kind>-YYYYMMDD-HHMMSS-<4 hex>`, sortable and unique enough per workspace. */
export function newSessionId(kind: string, now: Date, random: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${kind}-${stamp}-${random.slice(0, 4)}`;
}
