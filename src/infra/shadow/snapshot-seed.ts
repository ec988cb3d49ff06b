/**
 * Seeding a snapshot's index from the user's own: git then re-hashes only files whose stat data
 * changed (LESSONS.md: 0.28 s instead of 3.9 s on babel's 27.7k files). Safe only where the
 * user's blobs are the files' bytes; this module decides where that holds and copies the index.
 */
import { copyFile, readFile, rename, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { ShadowGit } from './git.js';
import type { Workspace } from './shadow-repo.js';

/**
 * Attributes under which the user's blobs differ from the files whatever the files hold: a
 * filter (git-lfs: the index holds pointers), `ident`, a working-tree encoding, or a checkout
 * that writes CRLF (`eol=crlf`).
 */
const CONVERTING_ATTRIBUTE = /(?:^|\s)(?:filter|ident|working-tree-encoding|eol=crlf)\b/m;

/**
 * Attributes that only normalise CRLF to LF when a file is added (`text`, `eol=lf`, `text=auto`,
 * the older `crlf`): the blob differs from the file only when the file holds a CRLF, and then
 * the blob is shorter than the file. babel's `* text eol=lf` on an LF checkout changes nothing
 * (LESSONS.md: refusing the seed for it made babel's first snapshot 8.3× faster than naive
 * instead of 19.4×).
 */
const NORMALISING_ATTRIBUTE = /(?:^|\s)!?(?:text|eol|crlf)\b/m;

/**
 * How the user's blobs may differ from the files on disk: 'always' (autocrlf, a CRLF checkout,
 * filters, encodings: no seeding), 'crlf' (a normalising attribute: seed, then drop the entries
 * whose blob is not the file's size), or 'never'. A seeded entry whose stat matches is never
 * re-hashed, so a CRLF file would be checkpointed (and restored) as LF, an LFS file as its
 * pointer. Checks the repository's config and the top-level attribute files only.
 */
async function userBlobsMayDiffer(
  workspace: Workspace,
  config: string,
): Promise<'always' | 'crlf' | 'never'> {
  if (/^\s*autocrlf\s*=\s*true\b/im.test(config) || /^\s*eol\s*=\s*crlf\b/im.test(config)) return 'always';
  let found: 'crlf' | 'never' = /^\s*autocrlf\s*=\s*input\b/im.test(config) ? 'crlf' : 'never';
  const files = [
    join(workspace.root, '.gitattributes'),
    ...(workspace.user === null ? [] : [join(workspace.user.commonDir, 'info', 'attributes')]),
  ];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (CONVERTING_ATTRIBUTE.test(text)) return 'always';
    if (NORMALISING_ATTRIBUTE.test(text)) found = 'crlf';
  }
  return found;
}

/**
 * Whether the user's index can seed ours: a plain index, not split and not sparse, blobs as on
 * disk, or only CRLF-normalised (`normalised`: entries whose size differs are dropped after the copy).
 */
export async function seedableIndex(
  workspace: Workspace,
): Promise<{ index: string; normalised: boolean } | undefined> {
  if (workspace.user === null) return undefined;
  const index = join(workspace.user.gitDir, 'index');
  const info = await stat(index).catch(() => undefined);
  if (info === undefined) return undefined;
  const config = await readFile(join(workspace.user.commonDir, 'config'), 'utf8').catch(() => '');
  if (/^\s*(?:splitIndex|sparseCheckout)\s*=\s*true/im.test(config)) return undefined;
  const differ = await userBlobsMayDiffer(workspace, config);
  if (differ === 'always') return undefined;
  return { index, normalised: differ === 'crlf' };
}

/**
 * Paths of a seeded index whose blob is not the size the index recorded for the file: CRLF
 * normalised away when the user added it. Their stat data would match, so git would never
 * re-hash them; the size says the blob is not the file's bytes. One `ls-files` and one
 * `cat-file` over the index, paid only where a normalising attribute is set.
 */
async function normalisedEntries(git: ShadowGit): Promise<Buffer[]> {
  const out = (await git.run(['ls-files', '-s', '--debug', '-z'])).stdout;
  const entries: Array<{ sha: string; size: number; path: Buffer }> = [];
  let at = 0;
  while (at < out.length) {
    const nul = out.indexOf(0, at);
    if (nul < 0) break;
    const head = out.subarray(at, nul);
    const tab = head.indexOf(9);
    const [mode = '', sha = ''] = head.subarray(0, tab).toString('latin1').split(' ');
    // Five debug lines follow each entry: ctime, mtime, dev/ino, uid/gid, size/flags.
    let end = nul + 1;
    for (let line = 0; line < 5 && end > 0; line++) end = out.indexOf(10, end) + 1;
    if (end <= 0) end = out.length;
    const size = /size: (\d+)/.exec(out.subarray(nul + 1, end).toString('latin1'))?.[1];
    if ((mode === '100644' || mode === '100755') && size !== undefined)
      entries.push({ sha, size: Number(size), path: head.subarray(tab + 1) });
    at = end;
  }
  if (entries.length === 0) return [];
  const shas = [...new Set(entries.map((e) => e.sha))];
  const sizes = new Map<string, number>();
  const lines = (
    await git.text(['cat-file', '--batch-check=%(objectname) %(objectsize)'], {
      input: shas.map((sha) => `${sha}\n`).join(''),
    })
  ).split('\n');
  for (const line of lines) {
    const [sha = '', size = ''] = line.split(' ');
    if (/^\d+$/.test(size)) sizes.set(sha, Number(size));
  }
  // A blob the shadow cannot size (missing) is re-hashed too.
  return entries.filter((e) => sizes.get(e.sha) !== e.size).map((e) => e.path);
}

/** Copies the user's index into the shadow and clears flags that would hide edits. */
export async function seedIndex(git: ShadowGit, workspace: Workspace): Promise<boolean> {
  const seedable = await seedableIndex(workspace);
  if (seedable === undefined) return false;
  const source = seedable.index;
  const target = git.location.indexFile;
  const seed = `${target}.seed`;
  await copyFile(source, seed);
  // Keep the index's own mtime: git re-hashes "racily clean" entries (changed in the same second
  // as the index was written) only while the index is no newer than they are.
  const { atime, mtime } = await stat(source);
  await utimes(seed, atime, mtime);
  await rename(seed, target);
  // assume-unchanged (lowercase tag) and skip-worktree ("S") entries hide edits, and their stat
  // data is stale: drop them from the index so the next `add` hashes them afresh.
  const flagged = (await git.fields(['ls-files', '-v', '-z']))
    .filter((f) => /^[a-z]|^S/.test(f))
    .map((f) => `${f.slice(2)}\0`);
  if (flagged.length > 0)
    await git.run(['update-index', '-z', '--force-remove', '--stdin'], { input: flagged.join('') });
  // Entries whose blob had its CRLFs normalised away: dropped, so the next `add` stores the bytes.
  const normalised = seedable.normalised ? await normalisedEntries(git) : [];
  if (normalised.length > 0)
    await git.run(['update-index', '-z', '--force-remove', '--stdin'], {
      input: Buffer.concat(normalised.flatMap((path) => [path, Buffer.from([0])])),
    });
  return true;
}
