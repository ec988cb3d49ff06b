/**
 * Test sandboxes: temp directories, real git repositories with an isolated git environment
 * (never the user's home or global config), and a byte-level fingerprint of a tree.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  lstatSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** What the helpers need of a node:test context: a place to register cleanup. */
export interface Cleanup {
  after(fn: () => void | Promise<void>): void;
}

/** A temp directory removed when the test ends. */
export function tempDir(t: Cleanup, prefix = 'aide-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/**
 * A home directory for child processes, shared by one test process and removed when it exits:
 * never the user's real home, and never the workspace itself (aide refuses to checkpoint a
 * home directory).
 */
let sharedHome: string | undefined;
export function testHome(): string {
  if (sharedHome === undefined) {
    const home = mkdtempSync(join(tmpdir(), 'aide-home-'));
    sharedHome = home;
    process.on('exit', () => {
      rmSync(home, { recursive: true, force: true });
    });
  }
  return sharedHome;
}

/**
 * A TMPDIR for child processes, shared by one test process and removed when it exits: what aide
 * keeps in the temp dir (`aide-scratch/<hash>/` per workspace) goes with it instead of piling up
 * in the real one. Under the real temp dir, so paths there still start with `os.tmpdir()`.
 */
let sharedTemp: string | undefined;
export function testTemp(): string {
  if (sharedTemp === undefined) {
    const temp = mkdtempSync(join(tmpdir(), 'aide-tmp-'));
    sharedTemp = temp;
    process.on('exit', () => {
      rmSync(temp, { recursive: true, force: true });
    });
  }
  return sharedTemp;
}

/** Environment for child processes in tests: isolated HOME, TMPDIR and git config. */
export function testEnv(
  home: string = testHome(),
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: testTemp(),
    LANG: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig-test'),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
    NO_COLOR: '1',
    ...extra,
  };
}

/**
 * The author and committer a shadow commit names (infra/shadow/git.ts, SHADOW_IDENTITY) at `date`
 * (git's `<seconds> <+hhmm>`): for `git commit-tree` to write the commit aide wrote itself.
 */
export function shadowIdentityAt(date: string): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: 'aide',
    GIT_AUTHOR_EMAIL: 'aide@localhost',
    GIT_COMMITTER_NAME: 'aide',
    GIT_COMMITTER_EMAIL: 'aide@localhost',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
}

export function git(cwd: string, args: string[], home = testHome()): string {
  return execFileSync('git', args, {
    cwd,
    env: testEnv(home),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Writes files (path → content) under root, creating folders. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** A git repository with the given files committed. */
export function gitRepo(t: Cleanup, files: Record<string, string | Uint8Array> = {}): string {
  const root = tempDir(t);
  git(root, ['init', '-q', '-b', 'main']);
  writeTree(root, files);
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '--allow-empty', '-m', 'initial']);
  return root;
}

/**
 * Leaves the repository at `root` in a merge that stopped on a conflict in `file`: the index then
 * holds unmerged entries, which `git write-tree` refuses.
 */
export function leaveMergeConflict(root: string, file: string): void {
  git(root, ['checkout', '-q', '-b', 'conflicting']);
  writeTree(root, { [file]: 'their side\n' });
  git(root, ['commit', '-qam', 'their side']);
  git(root, ['checkout', '-q', '-']);
  writeTree(root, { [file]: 'our side\n' });
  git(root, ['commit', '-qam', 'our side']);
  try {
    git(root, ['merge', '-q', 'conflicting']);
  } catch {
    return;
  }
  throw new Error(`merging into ${root} left no conflict in ${file}`);
}

/** Every file under root (path → sha256 of content, or "link:" + target), .git included. */
export function fingerprint(root: string, sub = ''): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const rel = relative(root, full);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out[rel] = `link:${readlinkSync(full)}`;
      else if (stat.isDirectory()) walk(full);
      else
        out[rel] =
          `${(stat.mode & 0o777).toString(8)}:${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  walk(join(root, sub));
  return out;
}
