/**
 * Reading the shadow's tree diffs and blobs byte-exactly: `diff-tree -z --raw` with paths that
 * need not be UTF-8, and many blobs through one `cat-file --batch`. Used by restore.
 */
import { AideError } from '../../shared/errors.js';
import type { ShadowGit } from './git.js';

/** One line of `git diff-tree --raw`. A mode of 000000 means "absent on that side". */
export interface RawChange {
  path: string;
  /** The path's bytes are not UTF-8: its name as text would be another file's. */
  undecodable: boolean;
  oldMode: string;
  newMode: string;
  oldSha: string;
  newSha: string;
}

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

/** Parses `diff-tree -z --raw` output: ":old new oldsha newsha status", NUL, the path, NUL. */
export function parseRawDiff(out: Buffer): RawChange[] {
  const fields = splitNul(out);
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode = '', newMode = '', oldSha = '', newSha = ''] = (fields[i]?.toString('latin1') ?? '')
      .slice(1)
      .split(' ');
    const bytes = fields[i + 1] ?? Buffer.alloc(0);
    const path = bytes.toString('utf8');
    changes.push({
      path,
      undecodable: !Buffer.from(path, 'utf8').equals(bytes),
      oldMode,
      newMode,
      oldSha,
      newSha,
    });
  }
  return changes;
}

/** The blobs named, read through one `git cat-file --batch` (binary-safe). */
export async function readBlobs(git: ShadowGit, shas: Iterable<string>): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(shas)];
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
