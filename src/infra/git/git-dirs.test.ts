import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { git, gitRepo, tempDir, testEnv } from '../../../test/helpers/sandbox.js';
import { knownGitDirs } from './git-dirs.js';
import { locateFolder } from './user-repo.js';

const env = testEnv();

test('knownGitDirs from a linked worktree: the dirs a located layout names give what git is asked for', async (t) => {
  const main = realpathSync(gitRepo(t, { 'a.ts': 'a\n' }));
  const linked = join(tempDir(t), 'linked');
  git(main, ['worktree', 'add', '-q', '--detach', linked]);
  const root = realpathSync(linked);
  const shadow = join(root, '.aide', 'state', 'shadow.git');
  mkdirSync(shadow, { recursive: true });
  const asked = await knownGitDirs(root, shadow, env);
  const { layout } = await locateFolder(root, env);
  assert.ok(layout);
  const told = await knownGitDirs(root, shadow, env, [layout.gitDir, layout.commonDir]);
  assert.deepEqual(told, asked);
  assert.ok(asked.includes(join(main, '.git')), 'the main repository’s .git');
  assert.ok(
    asked.includes(join(main, '.git', 'worktrees', root.split('/').pop() ?? '')),
    'the linked git dir',
  );
  assert.deepEqual(
    await knownGitDirs(root, shadow, env, []),
    [realpathSync(shadow)],
    'none told: the shadow',
  );
});
