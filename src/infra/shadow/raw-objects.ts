/**
 * Reading the shadow's tree diffs and blobs byte-exactly: the one parser of git's raw diff
 * (`diff-tree -z --raw`, paths that need not be UTF-8), used by snapshots, restores and the
 * changed-file lists, and many blobs through one `cat-file --batch`.
 */
import type { ChangeAction, TreeChange } from '../../core/ports/changes.js';
import { AideError } from '../../shared/errors.js';
import type { GitCallOptions, ShadowGit } from './git.js';

/** One entry of `git diff-tree --raw -z`: the change, and its path as git wrote it. */
export interface RawChange extends TreeChange {
  /** The path's bytes (need not be UTF-8): what to give git back to name this very path. */
  pathBytes: Buffer;
  /** The path's bytes are not UTF-8: its name as text would be another file's. */
  undecodable: boolean;
}

const ACTIONS: Readonly<Record<string, ChangeAction>> = {
  A: 'created',
  D: 'deleted',
  M: 'modified',
  T: 'type_changed',
};
const ABSENT_MODE = '000000';

/** Splits -z output on NUL, keeping the bytes (paths need not be UTF-8). */
function splitNul(out: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < out.length;) {
    const end = out.indexOf(0, at);
    parts.push(out.subarray(at, end === -1 ? out.length : end));
    at = end === -1 ? out.length : end + 1;
  }
  return parts;
}

/**
 * Parses `diff-tree -r -z --raw --no-renames` output (diff-index's too): ":old new oldsha newsha
 * status", NUL, the path, NUL. The paths stay bytes until decoded (they need not be UTF-8). A
 * rename or copy (two paths) throws: the callers pass --no-renames, and a misread pair of paths
 * would name the wrong files.
 */
export function parseRawDiff(out: Buffer): RawChange[] {
  const fields = splitNul(out);
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode = '', newMode = '', oldSha = '', newSha = '', status = ''] = (
      fields[i]?.toString('latin1') ?? ''
    )
      .slice(1)
      .split(' ');
    const pathBytes = fields[i + 1] ?? Buffer.alloc(0);
    const path = pathBytes.toString('utf8');
    const action = ACTIONS[status];
    if (action === undefined)
      throw new Error(`unexpected git diff status "${status}" at ${path} (renames must be off)`);
    const before = oldMode !== ABSENT_MODE;
    const after = newMode !== ABSENT_MODE;
    changes.push({
      path,
      action,
      oldMode: before ? oldMode : null,
      newMode: after ? newMode : null,
      oldBlob: before ? oldSha : null,
      newBlob: after ? newSha : null,
      pathBytes,
      undecodable: !Buffer.from(path, 'utf8').equals(pathBytes),
    });
  }
  return changes;
}

/** The changes between two trees (or commits) of the shadow, as `diff-tree -r` finds them. */
export async function diffTrees(
  git: ShadowGit,
  from: string,
  to: string,
  options: GitCallOptions = {},
): Promise<RawChange[]> {
  const args = ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', from, to];
  return parseRawDiff((await git.run(args, options)).stdout);
}

/** The blobs named, read through one `git cat-file --batch` (binary-safe). */
export async function readBlobs(git: ShadowGit, shas: Iterable<string | null>): Promise<Map<string, Buffer>> {
  const wanted = [...new Set([...shas].filter((sha) => sha !== null))];
  const blobs = new Map<string, Buffer>();
  if (wanted.length === 0) return blobs;
  const out = (await git.run(['cat-file', '--batch'], { input: wanted.map((sha) => `${sha}\n`).join('') }))
    .stdout;
  let at = 0;
  for (const sha of wanted) {
    const newline = out.indexOf(0x0a, at);
    const header = out.subarray(at, newline === -1 ? out.length : newline).toString('utf8');
    const [, type, size] = header.split(' ');
    if (newline === -1 || type !== 'blob' || size === undefined) {
      throw new AideError(
        'shadow_failed',
        `the shadow repository cannot read object ${sha} (${header || 'no answer'})`,
        {
          hint: 'The shadow repository (.aide/state/shadow.git) may be damaged; nothing was written.',
        },
      );
    }
    const start = newline + 1;
    blobs.set(sha, out.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return blobs;
}
