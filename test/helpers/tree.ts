/**
 * A directory tree read byte for byte (symlinks as their targets, the executable bit kept),
 * and a readable description of the first way two trees differ.
 */
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export type TreeEntry =
  { kind: 'file'; bytes: Buffer; executable: boolean } | { kind: 'link'; target: string };

/** path ('/'-separated, relative to root) → entry. A missing root is an empty tree. */
export type Tree = Map<string, TreeEntry>;

/** Reads every file under root; `skip` names top-level entries to leave out (e.g. '.git'). */
export function readTree(root: string | undefined, skip: readonly string[] = []): Tree {
  const tree: Tree = new Map();
  if (root === undefined) return tree;
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (prefix === '' && skip.includes(name)) continue;
      const full = join(dir, name);
      const rel = prefix === '' ? name : `${prefix}/${name}`;
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) tree.set(rel, { kind: 'link', target: readlinkSync(full) });
      else if (stat.isDirectory()) walk(full, rel);
      else tree.set(rel, { kind: 'file', bytes: readFileSync(full), executable: (stat.mode & 0o111) !== 0 });
    }
  };
  walk(root, '');
  return tree;
}

/** Lines with their terminators, so a CRLF or a missing final newline shows. */
function linesOf(bytes: Buffer): string[] {
  return bytes.toString('utf8').split(/(?<=\n)/);
}

function show(line: string | undefined): string {
  return line === undefined ? '(end of file)' : JSON.stringify(line);
}

/** Where two versions of a file first differ, with two lines of context. */
export function describeFileDifference(path: string, expected: Buffer, actual: Buffer): string {
  const want = linesOf(expected);
  const got = linesOf(actual);
  let at = 0;
  while (at < want.length && want[at] === got[at]) at++;
  const context = want
    .slice(Math.max(0, at - 2), at)
    .map((line, i) => `    ${at - Math.min(at, 2) + i + 1}  ${show(line)}`);
  return [
    `${path} differs at line ${at + 1} (${expected.length} bytes expected, ${actual.length} written):`,
    ...context,
    `  expected ${show(want[at])}`,
    `  actual   ${show(got[at])}`,
  ].join('\n');
}

function describeEntry(entry: TreeEntry): string {
  if (entry.kind === 'link') return `a symlink to ${entry.target}`;
  return `a file${entry.executable ? ' (executable)' : ''}`;
}

/** The first difference between two trees, or undefined when they are identical. */
export function describeTreeDifference(expected: Tree, actual: Tree): string | undefined {
  const missing = [...expected.keys()].filter((path) => !actual.has(path));
  const unexpected = [...actual.keys()].filter((path) => !expected.has(path));
  if (missing.length > 0 || unexpected.length > 0) {
    return [
      `missing: ${missing.join(', ') || '(none)'}`,
      `unexpected: ${unexpected.join(', ') || '(none)'}`,
    ].join('\n');
  }
  for (const [path, want] of expected) {
    const got = actual.get(path);
    if (got === undefined) continue;
    if (want.kind === 'file' && got.kind === 'file') {
      if (!want.bytes.equals(got.bytes)) return describeFileDifference(path, want.bytes, got.bytes);
      if (want.executable !== got.executable)
        return `${path}: expected ${describeEntry(want)}, found ${describeEntry(got)}`;
    } else if (
      want.kind !== got.kind ||
      (want.kind === 'link' && got.kind === 'link' && want.target !== got.target)
    ) {
      return `${path}: expected ${describeEntry(want)}, found ${describeEntry(got)}`;
    }
  }
  return undefined;
}
