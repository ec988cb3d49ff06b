/**
 * Paths as models write them, made into paths of the snapshot, and the snapshot's files seen as
 * a tree of folders (for listings, "it is a folder" answers and "did you mean" hints).
 *
 * Models write `./src/a.ts`, `src//a.ts`, `src\a.ts`, `src/`, `` `src/a.ts` `` and the absolute
 * path of the workspace they were told about: all of those are repaired. A path that leaves the
 * workspace (`../x`, `/etc/passwd`, `src/../../x`) or names git's or aide's internals is a
 * security refusal, never retried.
 */
import { STATE_DIR } from '../../config/files.js';
import type { RepoFile } from '../ports/repo-reader.js';
import { editDistance } from '../../shared/text.js';
import { findInvisible } from '../security/invisible.js';

/** A path of the snapshot ('' is the root), or why the written one is refused. */
export type ReadPath =
  | { ok: true; path: string }
  /** `denied`: a security refusal (outside the workspace, git or aide internals), not a slip. */
  | { ok: false; reason: string; denied: boolean };

/** Quotes and backticks models put around a path. */
const QUOTED = /^(["'`])(.*)\1$/s;

/**
 * The snapshot path `written` means. `workspaceRoot` (absolute, '/'-separated) lets a model
 * that names the workspace's own absolute path be understood; any other absolute path is refused.
 */
export function normalizeReadPath(written: string, workspaceRoot?: string): ReadPath {
  let text = written.trim().replace(QUOTED, '$2').trim();
  if (text.includes('\0')) return { ok: false, reason: 'the path contains a NUL character', denied: false };
  const invisible = findInvisible(text);
  if (invisible.length > 0)
    return {
      ok: false,
      reason: `the path contains ${invisible.map((c) => c.label).join(', ')}: write it in plain characters`,
      denied: false,
    };
  text = text.replace(/\\/g, '/');
  const root = workspaceRoot?.replace(/\/+$/, '');
  if (root !== undefined && root !== '' && (text === root || text.startsWith(`${root}/`)))
    text = text.slice(root.length + 1);
  else if (text.startsWith('/') || text.startsWith('~') || /^[A-Za-z]:/.test(text))
    return {
      ok: false,
      reason: `"${written}" is an absolute path: paths are relative to the repository root`,
      denied: true,
    };
  const segments: string[] = [];
  for (const segment of text.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined)
        return { ok: false, reason: `"${written}" points outside the repository`, denied: true };
      continue;
    }
    segments.push(segment);
  }
  const path = segments.join('/');
  if (segments.some((segment) => segment.toLowerCase() === '.git'))
    return {
      ok: false,
      reason: `"${written}" is inside a .git folder: git's internals are not readable`,
      denied: true,
    };
  const lower = path.toLowerCase();
  if (lower === STATE_DIR || lower.startsWith(`${STATE_DIR}/`))
    return {
      ok: false,
      reason: `"${written}" is inside ${STATE_DIR}/: aide's runtime state is not readable`,
      denied: true,
    };
  return { ok: true, path };
}

/** One entry of a folder: a file of the snapshot or a folder with how many files it holds. */
export type FolderEntry =
  | { kind: 'folder'; name: string; path: string; files: number }
  | { kind: 'file'; name: string; file: RepoFile };

/** The snapshot's files as a tree: what a path is, what a folder holds, which names are close. */
export class SnapshotIndex {
  private readonly files = new Map<string, RepoFile>();
  /** Folder path ('' is the root) → how many files are under it, at any depth. */
  private readonly folders = new Map<string, number>([['', 0]]);

  constructor(files: readonly RepoFile[]) {
    for (const file of files) {
      this.files.set(file.path, file);
      this.folders.set('', (this.folders.get('') ?? 0) + 1);
      for (let slash = file.path.indexOf('/'); slash !== -1; slash = file.path.indexOf('/', slash + 1)) {
        const folder = file.path.slice(0, slash);
        this.folders.set(folder, (this.folders.get(folder) ?? 0) + 1);
      }
    }
  }

  /** What the path names in the snapshot. */
  kindOf(path: string): 'file' | 'folder' | 'missing' {
    if (this.files.has(path)) return 'file';
    return this.folders.has(path) ? 'folder' : 'missing';
  }

  file(path: string): RepoFile | undefined {
    return this.files.get(path);
  }

  /** How many files are under a folder, at any depth. */
  fileCount(folder: string): number {
    return this.folders.get(folder) ?? 0;
  }

  /** The folder's immediate entries: folders first, then files, each sorted by name. */
  entries(folder: string): FolderEntry[] {
    const prefix = folder === '' ? '' : `${folder}/`;
    const folders = new Map<string, number>();
    const files: FolderEntry[] = [];
    for (const file of this.filesUnder(folder)) {
      const rest = file.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash === -1) files.push({ kind: 'file', name: rest, file });
      else folders.set(rest.slice(0, slash), 0);
    }
    const sub: FolderEntry[] = [...folders.keys()].sort(byText).map((name) => ({
      kind: 'folder',
      name,
      path: `${prefix}${name}`,
      files: this.fileCount(`${prefix}${name}`),
    }));
    return [...sub, ...files.sort((a, b) => byText(a.name, b.name))];
  }

  /** Every file under a folder ('' for all), sorted by path. */
  filesUnder(folder: string): RepoFile[] {
    const prefix = folder === '' ? '' : `${folder}/`;
    return [...this.files.values()]
      .filter((file) => file.path.startsWith(prefix))
      .sort((a, b) => byText(a.path, b.path));
  }

  /**
   * Up to `max` paths of the snapshot close to a missing one, closest first: the same name in
   * another folder (`src/utils.ts` for `src/lib/utils.ts`, the commonest slip), then paths a
   * few edits away, then names a few edits away.
   */
  closeNames(path: string, max = 3): string[] {
    const wanted = path.toLowerCase();
    const wantedName = baseName(wanted);
    const limit = Math.max(2, Math.min(6, Math.floor(wanted.length / 3)));
    const scored: Array<{ path: string; score: number }> = [];
    for (const candidate of [...this.files.keys(), ...[...this.folders.keys()].filter((f) => f !== '')]) {
      const lower = candidate.toLowerCase();
      const name = baseName(lower);
      if (name === wantedName) {
        scored.push({ path: candidate, score: 0.5 });
        continue;
      }
      const whole = editDistance(wanted, lower, limit);
      if (whole <= limit) {
        scored.push({ path: candidate, score: whole });
        continue;
      }
      const named = wantedName.length < 4 ? Infinity : editDistance(wantedName, name, 2);
      if (named <= 2) scored.push({ path: candidate, score: limit + 1 + named });
    }
    scored.sort((a, b) => a.score - b.score || byText(a.path, b.path));
    return scored.slice(0, max).map((entry) => entry.path);
  }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Code-unit order, as git sorts paths (not locale order, which differs between machines). */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
