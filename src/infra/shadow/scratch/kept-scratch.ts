/**
 * The kept scratch: one scratch per workspace that outlives its session, so a later session or
 * verify run moves it to the tree it needs (writing what differs) instead of checking out the
 * whole repository again. On an ext4 without a journal a 30k-file checkout soon after a mass
 * delete took 1–27 s (LESSONS.md); moving a kept one costs what changed plus one sweep.
 *
 * Never trusted as it is: verify commands ran in it. Each time it is taken up again
 * (kept-takeup.ts, for ShadowScratches.open):
 * - what says where it is comes from the shadow's git dir (`aide-kept-scratch.json`), never from
 *   the scratch: its name has aide's own shape (a folder directly in the home, proven a real
 *   folder), its admin folder must sit in the shadow's `worktrees/` and hold aide's index;
 * - its `.git` is written again (a folder, a symlink or another gitdir planted there is removed),
 *   and, once the base is known, so is the worktree's HEAD;
 * - everything untracked or ignored goes (`git clean -ffdx`, nested repositories included;
 *   the links are symlinks, removed as links) while every tracked file is compared with aide's
 *   index (`add -u`), side by side (scratch-scans.ts `sweepKept` says why that is the clean then
 *   `add -A` it replaces), and the scratch is moved from what it holds to the wanted tree.
 * - In act the sweep starts as soon as the workspace lock is held (prepareKept), beside the
 *   workspace's snapshot: it needs no base, only the move does.
 * Anything unexpected (an unknown record version, a missing admin folder, a failed sweep)
 * makes it stale: removed (only where provably aide's) and made afresh.
 *
 * Removed by `aide checkpoints prune`, or when stale. At most one process uses it at a time
 * (its owner record, as for any scratch): a second scratch opened meanwhile is a fresh one.
 */
import { mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';
import { lstatOrUndefined, readTextOr, settled } from '../../fs/small-files.js';

const KEPT_FILE = 'aide-kept-scratch.json';
/** A kept scratch's folder name: no session id of aide's has this shape (`<kind>-<date>-<time>-<hex>`). */
const KEPT_NAME = /^kept-[0-9a-f]{8}$/;

const keptSchema = z.object({
  version: z.literal(1),
  name: z.string().regex(KEPT_NAME),
  /** The scratch home it is in: another temp dir (TMPDIR changed) makes a fresh scratch per session. */
  home: z.string(),
  /** `shadow.git/worktrees/<name>`, read from the worktree's `.git` file when it was made. */
  adminDir: z.string(),
});
export type KeptRecord = z.infer<typeof keptSchema>;

export function isKeptName(name: string): boolean {
  return KEPT_NAME.test(name);
}

function keptFile(gitDir: string): string {
  return join(gitDir, KEPT_FILE);
}

/** Whether a path is strictly inside a folder (no `..`, not the folder itself). */
export function strictlyInside(parent: string, path: string): boolean {
  const rel = relative(parent, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !rel.includes(`..${sep}`);
}

/**
 * The kept scratch's record, or null when there is none. `stale` when there is a file that is
 * not a record this aide can trust (an unknown version, an admin folder outside the shadow's
 * `worktrees/`): the scratch it names is removed and made afresh.
 */
export function readKept(gitDir: string): Promise<KeptRecord | 'stale' | null> {
  return settled(() => parseKept(gitDir, readTextOr(keptFile(gitDir), null)));
}

function parseKept(gitDir: string, text: string | null): KeptRecord | 'stale' | null {
  if (text === null) return null;
  try {
    const parsed = keptSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return 'stale';
    if (!strictlyInside(join(gitDir, 'worktrees'), parsed.data.adminDir)) return 'stale';
    return parsed.data;
  } catch {
    return 'stale';
  }
}

export function writeKept(gitDir: string, record: KeptRecord): Promise<void> {
  return settled(() => {
    const file = keptFile(gitDir);
    writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  });
}

export function forgetKept(gitDir: string): Promise<void> {
  return settled(() => {
    rmSync(keptFile(gitDir), { force: true });
  });
}

/** The kept scratch's name for a workspace, as `aide doctor` shows it (reads only). */
export async function keptName(gitDir: string): Promise<string | null> {
  const record = await readKept(gitDir);
  return record === null || record === 'stale' ? null : record.name;
}

/**
 * Writes the scratch's `.git` file again, pointing at its admin folder, whatever a command put
 * there (a folder with planted hooks and config, a symlink, another gitdir). Done before the
 * sweep; the worktree's HEAD follows once the base is known (writeWorktreeHead).
 */
export async function resetGitLink(path: string, adminDir: string): Promise<void> {
  const dotGit = join(path, '.git');
  const info = lstatOrUndefined(dotGit);
  if (info?.isDirectory() === true) await rm(dotGit, { recursive: true, force: true });
  else if (info !== undefined) unlinkSync(dotGit);
  writeFileSync(dotGit, `gitdir: ${adminDir}\n`);
}

/**
 * The worktree's HEAD at `commit`, so git run inside sees an ordinary checkout of the base.
 * aide's own git calls name the shadow's git dir and never read it, so it is written last,
 * before anything runs in the scratch.
 */
export function writeWorktreeHead(adminDir: string, commit: string): Promise<void> {
  return settled(() => {
    mkdirSync(adminDir, { recursive: true });
    writeFileSync(join(adminDir, 'HEAD'), `${commit}\n`);
  });
}
