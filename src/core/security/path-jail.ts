/**
 * The path jail (threats T3/T4): a path a model wrote may only name a file inside the
 * workspace, never inside `.git/` or `.aide/state/`, and never through a symlink that leads
 * out. Checked lexically first, then against the real file system.
 */
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { STATE_DIR } from '../../config/files.js';
import type { FileSystem } from '../ports/files.js';
import { findInvisible } from './invisible.js';

export type JailResult =
  | {
      ok: true;
      /** Workspace-relative path with '/' separators. */
      path: string;
      /** Where to read and write: the real file behind any symlink inside the workspace. */
      target: string;
    }
  | { ok: false; reason: string; hint: string };

function refuse(reason: string, hint: string): JailResult {
  return { ok: false, reason, hint };
}

/** NAME_MAX and PATH_MAX of Linux (macOS allows less), in bytes of UTF-8. */
const NAME_MAX = 255;
const PATH_MAX = 4096;
const utf8 = new TextEncoder();

/** Why the path cannot exist on disk (a name or the whole path too long), or undefined. */
function tooLongName(path: string, segments: readonly string[]): string | undefined {
  const name = segments.find((s) => utf8.encode(s).length > NAME_MAX);
  if (name !== undefined)
    return `a name in the path is ${utf8.encode(name).length} bytes long; file systems allow at most ${NAME_MAX}`;
  const bytes = utf8.encode(path).length;
  return bytes >= PATH_MAX
    ? `the path is ${bytes} bytes long; file systems allow less than ${PATH_MAX}`
    : undefined;
}

/** Lexical checks on a workspace-relative path; returns the normalized path or a refusal. */
export function checkRelativePath(
  written: string,
): { ok: true; path: string } | { ok: false; reason: string; hint: string } {
  if (written.trim() === '' || written.includes('\0'))
    return {
      ok: false,
      reason: 'the path is empty or malformed',
      hint: 'Name a file relative to the repository root.',
    };
  const invisible = findInvisible(written);
  if (invisible.length > 0) {
    return {
      ok: false,
      reason: `the path contains ${invisible.map((c) => c.label).join(', ')}`,
      hint: 'Write the path in plain characters.',
    };
  }
  const slashed = written.replace(/\\/g, '/');
  if (
    slashed.startsWith('/') ||
    slashed.startsWith('~') ||
    /^[A-Za-z]:/.test(slashed) ||
    isAbsolute(written)
  ) {
    return {
      ok: false,
      reason: `"${written}" is an absolute path`,
      hint: 'Paths must be relative to the repository root.',
    };
  }
  const normalized = posix.normalize(slashed).replace(/\/+$/, '');
  if (normalized === '..' || normalized.startsWith('../')) {
    return {
      ok: false,
      reason: `"${written}" points outside the repository`,
      hint: 'aide only edits files inside the repository.',
    };
  }
  if (normalized === '.' || normalized === '')
    return { ok: false, reason: `"${written}" is not a file`, hint: 'Name a file, not the repository root.' };
  const segments = normalized.split('/');
  const tooLong = tooLongName(normalized, segments);
  if (tooLong !== undefined)
    return {
      ok: false,
      reason: tooLong,
      hint: 'Use a shorter name: no file system aide runs on can hold this one.',
    };
  if (segments.some((s) => s.toLowerCase() === '.git')) {
    return {
      ok: false,
      reason: `"${written}" is inside a .git folder`,
      hint: 'aide never edits git internals.',
    };
  }
  const lower = normalized.toLowerCase();
  if (lower === STATE_DIR || lower.startsWith(`${STATE_DIR}/`)) {
    return {
      ok: false,
      reason: `"${written}" is inside ${STATE_DIR}/`,
      hint: "aide's runtime state is not editable.",
    };
  }
  return { ok: true, path: normalized };
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  // ".." as a whole segment: "..notes.md" is an ordinary name inside the root.
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Jails `written` to `root` (which must already be a real path). Every existing component is
 * checked for symlinks; a symlink may only lead to another place inside the workspace, and
 * that place passes the same rules.
 */
export async function jailPath(
  root: string,
  written: string,
  fs: Pick<FileSystem, 'lstat' | 'realpath'>,
): Promise<JailResult> {
  const lexical = checkRelativePath(written);
  if (!lexical.ok) return refuse(lexical.reason, lexical.hint);
  const segments = lexical.path.split('/');
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    current = join(current, segments[i] ?? '');
    const stat = await fs.lstat(current);
    if (stat === null)
      return { ok: true, path: lexical.path, target: join(current, ...segments.slice(i + 1)) };
    const last = i === segments.length - 1;
    if (stat.kind === 'symlink') {
      const real = await fs.realpath(current);
      if (real === null)
        return refuse(
          `"${written}" goes through a broken symlink`,
          'Edit the file the link should point to instead.',
        );
      if (!inside(root, real))
        return refuse(
          `"${written}" goes through a symlink that leads outside the repository`,
          'aide only edits files inside the repository.',
        );
      const again = checkRelativePath(relative(root, real).split(sep).join('/'));
      if (!again.ok)
        return refuse(`"${written}" is a symlink to a protected place: ${again.reason}`, again.hint);
      const realStat = await fs.lstat(real);
      if (last && realStat?.kind === 'directory') return refuse(`"${written}" is a folder`, 'Name a file.');
      if (!last && realStat?.kind !== 'directory')
        return refuse(`"${segments.slice(0, i + 1).join('/')}" is not a folder`, 'Check the path.');
      if (last) return { ok: true, path: lexical.path, target: real };
      current = real;
      continue;
    }
    if (last && stat.kind === 'directory') return refuse(`"${written}" is a folder`, 'Name a file.');
    if (!last && stat.kind !== 'directory')
      return refuse(`"${segments.slice(0, i + 1).join('/')}" is not a folder`, 'Check the path.');
    if (last && stat.kind === 'other')
      return refuse(`"${written}" is not a regular file`, 'aide only edits regular files.');
  }
  return { ok: true, path: lexical.path, target: current };
}
