import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir, writeTree } from '../../../../test/helpers/sandbox.js';
import { nestedGitEntries, removeNestedGit, walked } from './nested-git.js';

test('every .git below the root is found, in any case and at any depth; the root’s own and links are left', async (t) => {
  {
    const root = tempDir(t);
    const outside = tempDir(t, 'aide-outside-');
    writeTree(outside, { '.git/config': '[core]\n', 'kept.txt': 'x\n' });
    writeTree(root, {
      '.git': 'gitdir: /the/worktree\n',
      'a/.git/config': '[core]\n',
      'a/b/c/d/.Git': 'gitdir: /elsewhere\n',
      'e/f.txt': 'not a repository\n',
      'e/.gitignore': 'dist/\n',
    });
    mkdirSync(join(root, 'g/.git'), { recursive: true });
    // A case variant of the root's own: neither reported nor walked into (git never lists it).
    mkdirSync(join(root, '.GIT/inner/.git'), { recursive: true });
    symlinkSync(outside, join(root, 'linked'));
    symlinkSync('/nowhere', join(root, 'e/.git'));
    assert.deepEqual(await nestedGitEntries(root), ['a/.git', 'a/b/c/d/.Git', 'e/.git', 'g/.git']);
    assert.deepEqual(await walked(root), ['a/.git', 'a/b/c/d/.Git', 'e/.git', 'g/.git'], 'without find');
    const linkedRoot = join(tempDir(t, 'aide-link-'), 'scratch');
    symlinkSync(root, linkedRoot);
    assert.deepEqual(
      await nestedGitEntries(linkedRoot),
      ['a/.git', 'a/b/c/d/.Git', 'e/.git', 'g/.git'],
      'a root reached through a link',
    );
    assert.deepEqual(await removeNestedGit(root), ['a/.git', 'a/b/c/d/.Git', 'e/.git', 'g/.git']);
    assert.deepEqual(await nestedGitEntries(root), []);
    assert.ok(existsSync(join(root, '.git')) && existsSync(join(root, 'e/.gitignore')));
    assert.ok(existsSync(join(outside, '.git/config')), 'nothing removed through a link');
  }
});
