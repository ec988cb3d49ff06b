/**
 * The change `aide review` checks, read from the shadow: the trees on both sides are already
 * there (the staged tree written from a copy of the index, or the commits' trees borrowed from
 * the user's store), so nothing here reads the work tree or writes the user's repository.
 */
import type { AddedLine, FilePatch, ReviewedFile, ReviewSource } from '../../core/ports/review.js';
import { GitCommandError, type GitCallOptions, type ShadowGit } from './git.js';
import { AideError } from '../../shared/errors.js';
import { parseRawDiff, readBlobs, type RawChange } from './raw-objects.js';
import { ObjectReader, objectsOnly } from './scratch/object-reader.js';
import { unusableIndex, writeStagedTree } from './verify-source.js';

const LFS_POINTER = Buffer.from('version https://git-lfs.github.com/spec/v1');
const FILE_MODES = new Set(['100644', '100755']);

/** A path as git prints it after `+++ b/`: plain, or C-quoted when it has unusual bytes. */
function unquote(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const escapes: Record<string, number> = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (c !== '\\') {
      bytes.push(...Buffer.from(c));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The path of a `--- a/P` or `+++ b/P` line, after its prefix. git ends the line with a TAB when
 * the name holds a space (diff.c), which no name can end with here: a TAB in a name is always
 * C-quoted. Read with the TAB, every added line of `my file.env` was filed under another name and
 * went unchecked.
 */
function headerPath(raw: string): string {
  return unquote(raw.endsWith('\t') ? raw.slice(0, -1) : raw);
}

/**
 * Added lines per new path, from a `git diff -U0` patch. A hunk's header says how many lines it
 * holds, so an added line reading "++ x" (shown "+++ x") is not taken for a file header.
 */
export function addedLines(patch: string): Map<string, AddedLine[]> {
  const files = new Map<string, AddedLine[]>();
  let current: AddedLine[] | null = null;
  let next = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of patch.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith('+')) {
        current?.push({ line: next, text: line.slice(1).replace(/\r$/, '') });
        next += 1;
        newLeft -= 1;
      } else if (line.startsWith('-')) oldLeft -= 1;
      else if (line.startsWith(' ')) {
        next += 1;
        oldLeft -= 1;
        newLeft -= 1;
      }
      continue;
    }
    if (line.startsWith('diff --git ')) {
      current = null;
    } else if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      current = target === '/dev/null' ? null : [];
      if (current !== null) files.set(headerPath(target).replace(/^b\//, ''), current);
    } else if (line.startsWith('@@ ')) {
      const header = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      oldLeft = Number(header?.[1] ?? 1);
      next = Number(header?.[2] ?? 0);
      newLeft = Number(header?.[3] ?? 1);
    }
  }
  return files;
}

/**
 * The path a `diff --git` section is about, from the headers before its first hunk: `+++ b/P`,
 * or `--- a/P` for a deletion; a section without them (a binary file, a mode change) has only
 * `diff --git a/P b/P`, whose halves are the same path (renames are off), so its first half is it.
 */
function sectionPath(header: readonly string[]): string | null {
  const named = (prefix: string, side: string) => {
    const line = header.find((l) => l.startsWith(prefix));
    if (line === undefined || line.slice(prefix.length) === '/dev/null') return null;
    return headerPath(line.slice(prefix.length)).replace(new RegExp(`^${side}/`), '');
  };
  const fromHeaders = named('+++ ', 'b') ?? named('--- ', 'a');
  if (fromHeaders !== null) return fromHeaders;
  const both = header[0]?.slice('diff --git '.length) ?? '';
  if (both.length % 2 === 0) return null;
  return unquote(both.slice(0, (both.length - 1) / 2)).replace(/^a\//, '');
}

/**
 * A whole patch cut into one section per file. A section starts at a `diff --git ` line: inside
 * a hunk every line starts with ' ', '+', '-' or '\\', so no content line can look like one.
 */
export function splitPatch(patch: string): FilePatch[] {
  const sections: string[][] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) sections.push([line]);
    else sections.at(-1)?.push(line);
  }
  const patches: FilePatch[] = [];
  for (const lines of sections) {
    const firstHunk = lines.findIndex((l) => l.startsWith('@@ '));
    const path = sectionPath(firstHunk < 0 ? lines : lines.slice(0, firstHunk));
    while (lines.at(-1) === '') lines.pop();
    if (path !== null) patches.push({ path, text: `${lines.join('\n')}\n` });
  }
  return patches;
}

/** What diff-tree and diff-index print alike for a change, beside the `-U0` patch (changesWithPatch). */
const CHANGE_ARGS = [
  '-z',
  '--raw',
  '-p',
  '-U0',
  '--no-renames',
  '--no-abbrev',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
];

/**
 * The changed files (`diff-tree --raw`, as diffTrees reads them) and the `-U0` patch of the same
 * change, from one read-only git process on the shadow's objects: a hook's review started two
 * processes for them at every commit. With `-z`, git writes the raw records (`:modes ids status`,
 * NUL, the path, NUL), then one NUL, then the patch (diff.c's separator); the records are walked
 * to find where the patch starts, so no path's bytes can be taken for it.
 */
export async function changesWithPatch(
  git: ShadowGit,
  from: string,
  to: string,
  options: GitCallOptions,
): Promise<{ changes: RawChange[]; patch: string }> {
  return splitChanges((await git.run(['diff-tree', '-r', ...CHANGE_ARGS, from, to], options)).stdout);
}

/**
 * The same as changesWithPatch from `from` to an index (a copy of the user's: verify-source.ts,
 * withStagedIndex) instead of a tree: `diff-index --cached` reads the index's entries, never the
 * work tree, so it need not wait for `write-tree` to make the index a tree first. Entries added
 * with `git add -N` are left out, as write-tree leaves them out of the tree. What write-tree
 * refuses is refused here too, in the same words, for a review that writes no tree: unmerged
 * entries (diff-index's status U) and an entry whose blob is missing (it cannot read it).
 */
export async function stagedChangesWithPatch(
  git: ShadowGit,
  from: string,
  indexFile: string,
): Promise<{ changes: RawChange[]; patch: string }> {
  const args = ['diff-index', '--cached', '--ita-invisible-in-index', ...CHANGE_ARGS, from];
  let out: Buffer;
  try {
    out = (await git.run(args, { indexFile })).stdout;
  } catch (error) {
    if (error instanceof GitCommandError && /unable to read|invalid object/i.test(error.stderr))
      throw unusableIndex(error.stderr.trim().split('\n')[0] ?? 'git diff-index failed');
    throw error;
  }
  const unmerged = unmergedPath(out);
  if (unmerged !== null) throw unusableIndex(`${unmerged}: unmerged`);
  return splitChanges(out);
}

/** The first path of the raw records (before the patch) whose status is U, or null. */
function unmergedPath(out: Buffer): string | null {
  let at = 0;
  while (out[at] === 0x3a) {
    const header = out.indexOf(0, at);
    const path = header === -1 ? -1 : out.indexOf(0, header + 1);
    if (path === -1) return null;
    if (out.toString('latin1', at, header).endsWith(' U')) return out.toString('utf8', header + 1, path);
    at = path + 1;
  }
  return null;
}

function splitChanges(out: Buffer): { changes: RawChange[]; patch: string } {
  let at = 0;
  while (out[at] === 0x3a) {
    const header = out.indexOf(0, at);
    const path = header === -1 ? -1 : out.indexOf(0, header + 1);
    if (path === -1) throw new Error(`git diff: a raw record without its path at byte ${at}`);
    at = path + 1;
  }
  if (at < out.length && out[at] !== 0) throw new Error(`git diff: no patch separator at byte ${at}`);
  return {
    changes: parseRawDiff(out.subarray(0, at)),
    patch: out.subarray(Math.min(at + 1, out.length)).toString('utf8'),
  };
}

/** The files of a change, and one file of its reviewed tree (null: absent or not asked). */
export interface ReviewedChange {
  files: ReviewedFile[];
  file: Uint8Array | null;
}

/** The change between two trees of the shadow, as the review checks read it. */
export class ShadowReviewSource implements ReviewSource {
  /** The cat-file of the last change read, running until taken (takeReader) or close(). */
  private reader: ObjectReader | null = null;

  constructor(private readonly git: ShadowGit) {}

  /**
   * The running `cat-file --batch` the change was read through, now the caller's to close: a
   * scratch of the reviewed tree reads its base through it instead of starting another. null
   * when none is left (nothing read, or taken already).
   */
  takeReader(): ObjectReader | null {
    const reader = this.reader;
    this.reader = null;
    return reader;
  }

  /** Ends the kept reader, unless it was taken. */
  close(): void {
    this.reader?.close();
    this.reader = null;
  }

  async patches(from: string, to: string, context: number): Promise<FilePatch[]> {
    const patch = await this.git.run(
      [
        'diff',
        `-U${context}`,
        '--no-color',
        '--no-ext-diff',
        '--no-renames',
        '--no-textconv',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        from,
        to,
      ],
      objectsOnly(this.git),
    );
    return splitPatch(patch.stdout.toString('utf8'));
  }

  async files(from: string, to: string): Promise<ReviewedFile[]> {
    return (await this.filesWith(from, to, null)).files;
  }

  /** The change between two trees, and `path` in `to` (null: not asked). */
  filesWith(from: string, to: string, path: string | null): Promise<ReviewedChange> {
    return this.change(
      changesWithPatch(this.git, from, to, objectsOnly(this.git)),
      objectsOnly(this.git),
      path === null ? null : `${to}:${path}`,
    );
  }

  /**
   * The staged change: the files changed in an index copy since `from`, `path` as the copy has it,
   * and the copy's tree when `wantTree` says so (null otherwise). A hook's review starts these git
   * processes side by side at every commit: diff-index on the copy (it needs no tree), cat-file
   * (reading `:path`, the copy's entry), and write-tree only once something will use the tree (a
   * scratch, the model's patch, a report naming it): a static-only review writes none. When
   * write-tree runs, its refusal (unmerged entries) is the one reported.
   */
  async stagedFilesWith(
    from: string,
    indexFile: string,
    path: string | null,
    wantTree: Promise<boolean> = Promise.resolve(true),
  ): Promise<ReviewedChange & { tree: string | null }> {
    const tree = wantTree.then((wanted) => (wanted ? writeStagedTree(this.git, indexFile) : null));
    const change = this.change(
      stagedChangesWithPatch(this.git, from, indexFile),
      { indexFile },
      path === null ? null : `:${path}`,
    );
    const [written, changed] = await Promise.allSettled([tree, change]);
    if (written.status === 'rejected') throw written.reason;
    if (changed.status === 'rejected') throw changed.reason;
    return { tree: written.value, ...changed.value };
  }

  /**
   * The changed files with their new blobs, and the object `named` names (null: none asked),
   * through one `cat-file --batch` started before either is known (run with `options`: the index
   * a `:path` is read from).
   */
  private async change(
    diff: Promise<{ changes: RawChange[]; patch: string }>,
    options: GitCallOptions,
    named: string | null,
  ): Promise<ReviewedChange> {
    const reader = new ObjectReader(this.git, undefined, options);
    // Asked first: git reads it (and, for `:path`, the index) while the diff is still coming.
    const namedRead = named === null ? Promise.resolve(null) : reader.read(named);
    namedRead.catch(() => undefined);
    try {
      const { changes, patch } = await diff;
      const lines = addedLines(patch);
      const blobOf = (mode: string | null, blob: string | null) =>
        mode !== null && FILE_MODES.has(mode) ? blob : null;
      const shas = [
        ...new Set(changes.map((c) => blobOf(c.newMode, c.newBlob)).filter((sha) => sha !== null)),
      ];
      const newBlobs = new Map<string, Buffer>();
      const reads = shas.map(async (sha) => {
        const object = await reader.read(sha);
        if (object === null || object.type !== 'blob') throw missingBlob(sha);
        newBlobs.set(sha, object.content);
      });
      const [namedObject] = await Promise.all([namedRead, ...reads]);
      const file = namedObject?.type === 'blob' ? namedObject.content : null;
      const read = async (mode: string | null, blob: string | null): Promise<Uint8Array | null> => {
        const sha = blobOf(mode, blob);
        if (sha === null) return null;
        return newBlobs.get(sha) ?? (await readBlobs(this.git, [sha])).get(sha) ?? null;
      };
      const files = changes.map((change): ReviewedFile => {
        const sha = blobOf(change.newMode, change.newBlob);
        const content = sha === null ? undefined : newBlobs.get(sha);
        const binary = content?.subarray(0, 8000).includes(0) ?? false;
        return {
          path: change.path,
          action: change.action,
          added: binary ? [] : (lines.get(change.path) ?? []),
          binary,
          bytes: content?.length ?? null,
          lfsPointer: content?.subarray(0, LFS_POINTER.length).equals(LFS_POINTER) ?? false,
          before: () => read(change.oldMode, change.oldBlob),
          after: () => read(change.newMode, change.newBlob),
        };
      });
      this.close();
      this.reader = reader;
      return { files, file };
    } catch (error) {
      reader.close();
      throw error;
    }
  }
}

function missingBlob(sha: string): AideError {
  return new AideError('shadow_failed', `the shadow repository cannot read object ${sha} (missing)`, {
    hint: 'The shadow repository (.aide/state/shadow.git) may be damaged; nothing was written.',
  });
}
