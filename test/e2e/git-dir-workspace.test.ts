/**
 * A git dir is never a workspace: `.git` itself, a folder inside it, a linked worktree's git dir
 * and a bare repository are refused by every command (exit 2), and nothing in them changes.
 */
import assert from 'node:assert/strict';
import { chownSync, existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, git, gitRepo, tempDir } from '../helpers/sandbox.js';

const REPLY = 'config\n<<<<<<< SEARCH\n[core]\n=======\n[core]\n\thooksPath = /tmp/evil\n>>>>>>> REPLACE\n';

/** Every command that works in a workspace, with what it needs to get that far. */
const COMMANDS: ReadonlyArray<{ args: string[]; input?: string }> = [
  { args: ['apply', '-'], input: REPLY },
  { args: ['apply', '--dry-run', '-'], input: REPLY },
  { args: ['checkpoints', 'save'] },
  { args: ['checkpoints'] },
  { args: ['restore', '--dry-run', 'abc123'] },
  { args: ['verify'] },
  { args: ['act', '--dry-run'] },
  { args: ['init'] },
  { args: ['config'] },
  { args: ['status'] },
  { args: ['doctor'] },
];

/** The two that write: enough for the other spellings of a git dir. */
const WRITERS = COMMANDS.filter((c) => (c.args[0] === 'apply' && c.args[1] === '-') || c.args[1] === 'save');

async function assertRefused(cwd: string, what: RegExp, watched: string, commands = COMMANDS): Promise<void> {
  const before = fingerprint(watched);
  for (const { args, input } of commands) {
    const result = await runAideInProcess([...args, '--cwd', cwd], {
      cwd: tmpdir(),
      ...(input === undefined ? {} : { input }),
    });
    assert.equal(result.code, 2, `aide ${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, what, `aide ${args.join(' ')}`);
    assert.match(result.stderr, /not a work tree: aide does not edit or checkpoint git's own files/);
  }
  assert.deepEqual(fingerprint(watched), before, 'nothing in the git dir changed');
  assert.equal(existsSync(join(cwd, '.aide')), false, 'no .aide state was made in it');
}

describe('a git dir is never a workspace', () => {
  test('--cwd .git is refused by every command, and a folder inside it by those that write', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    await assertRefused(join(repo, '.git'), /\.git is in a git directory/, join(repo, '.git'));
    await assertRefused(
      join(repo, '.git', 'hooks'),
      /hooks is in a git directory/,
      join(repo, '.git'),
      WRITERS,
    );
  });

  test("a linked worktree's git dir is refused; the worktree itself is a workspace", async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const linked = join(tempDir(t), 'linked');
    git(repo, ['worktree', 'add', '-q', linked]);
    await assertRefused(
      join(repo, '.git', 'worktrees', 'linked'),
      /worktrees\/linked is in a git directory/,
      join(repo, '.git'),
      WRITERS,
    );
    const status = await runAideInProcess(['status'], { cwd: linked });
    assert.equal(status.code, 0, status.stderr);
  });

  test('a bare repository is refused by every command, and its hooks folder by those that write', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const bare = join(tempDir(t), 'bare.git');
    git(repo, ['clone', '-q', '--bare', repo, bare]);
    await assertRefused(bare, /bare\.git is in a bare git repository/, bare);
    await assertRefused(join(bare, 'hooks'), /hooks is in a bare git repository/, bare, WRITERS);
    assert.deepEqual(readdirSync(bare).includes('.aide'), false);
  });

  test(
    "another user's bare repository, which git will not look at, is still refused",
    { skip: process.getuid?.() !== 0 },
    async (t) => {
      const repo = gitRepo(t, { 'a.txt': 'a\n' });
      const bare = join(tempDir(t), 'theirs.git');
      git(repo, ['clone', '-q', '--bare', repo, bare]);
      const chownAll = (dir: string) => {
        chownSync(dir, 65534, 65534);
        for (const name of readdirSync(dir)) {
          const full = join(dir, name);
          if (statSync(full).isDirectory()) chownAll(full);
          else chownSync(full, 65534, 65534);
        }
      };
      chownAll(bare);
      const result = await runAideInProcess(['checkpoints', 'save', '--cwd', join(bare, 'refs')], {
        cwd: repo,
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /refs is in a git directory \(.*theirs\.git\)/);
    },
  );
});
