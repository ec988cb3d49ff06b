/**
 * Where a model's write in the scratch may land: through the path jail (no `..`, no absolute
 * path, no symlink out of the scratch, nothing in `.git`), never in `.aide/` (the files that
 * define proof: the verify commands, the allowed commands, the protected list), and with the
 * protected paths it touches named, so the step's review shows them first.
 */
import { relative, sep } from 'node:path';
import type { ProtectedChange } from '../ports/approval.js';
import type { FileSystem } from '../ports/files.js';
import { jailPath } from '../security/path-jail.js';
import { findProtected } from '../security/protected-paths.js';
import type { ToolResult } from './loop-types.js';

/** A path a write may use: its scratch-relative name, where it really is, and that place's name. */
export interface WriteTarget {
  /** Scratch-relative path as the model named it, normalized, '/'-separated. */
  path: string;
  /** Absolute path to read and write (the file behind a symlink inside the scratch). */
  target: string;
  /** Scratch-relative path of `target`: differs from `path` only through a symlink. */
  real: string;
}

/** The scratch's `.aide/` folder, in any case (a case-insensitive file system reads `.AIDE/` as it). */
function isAideInternal(path: string): boolean {
  const lower = path.toLowerCase();
  return lower === '.aide' || lower.startsWith('.aide/');
}

/**
 * The target of a write, or the refusal for the model: a path the jail refuses, or one in
 * `.aide/`, is a security denial (`denied`), never written and never worth retrying.
 */
export async function writeTarget(
  root: string,
  written: string,
  fs: FileSystem,
  tool: string,
): Promise<{ ok: true; target: WriteTarget } | { ok: false; result: ToolResult }> {
  const jail = await jailPath(root, written, fs);
  if (!jail.ok) return { ok: false, result: denial(tool, written, jail.reason, jail.hint) };
  const real = relative(root, jail.target).split(sep).join('/');
  if (isAideInternal(jail.path) || isAideInternal(real))
    return {
      ok: false,
      result: denial(
        tool,
        written,
        `"${written}" is inside .aide/, which holds aide's own settings (the verify and allowed commands)`,
        "Only the user edits .aide/. Change the project's files instead.",
      ),
    };
  return { ok: true, target: { path: jail.path, target: jail.target, real } };
}

function denial(tool: string, written: string, reason: string, hint: string): ToolResult {
  return {
    ok: false,
    denied: true,
    forModel: `${tool} refused: ${reason}. ${hint}`,
    forUser: `refused ${tool} ${written}: ${reason}`,
  };
}

/** The protected paths a write touches, under its name and (through a symlink) its target's. */
export async function protectedBy(
  rules: readonly string[],
  target: WriteTarget,
  before: Uint8Array | null,
  after: Uint8Array | null,
  caseInsensitive: boolean,
): Promise<ProtectedChange[]> {
  const sides = { before: () => Promise.resolve(before), after: () => Promise.resolve(after) };
  const names = target.real === target.path ? [target.path] : [target.path, target.real];
  return findProtected(
    rules,
    names.map((path) => ({ path, ...sides })),
    { caseInsensitive },
  );
}

/** The note the model gets after writing a protected file: it is written, and it will be looked at. */
export function protectedNote(found: readonly ProtectedChange[]): string {
  const list = found.map((p) => `${p.path} (rule ${p.rule})`).join(', ');
  return `Note: ${list} is a protected path. The change is in the scratch, but the user reviews it separately and may refuse the step for it; change tests only when the step asks for it.`;
}
