import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir, writeTree } from '../../../../test/helpers/sandbox.js';
import { nestedGitEntries, removeNestedGit, smallWalk, walked } from './nested-git.js';

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
    const all = ['a/.git', 'a/b/c/d/.Git', 'e/.git', 'g/.git'];
    assert.deepEqual(await nestedGitEntries(root), all, 'the small walk');
    assert.deepEqual(await nestedGitEntries(root, 0), all, 'find');
    assert.deepEqual(await walked(root), all, 'without find');
    const linkedRoot = join(tempDir(t, 'aide-link-'), 'scratch');
    symlinkSync(root, linkedRoot);
    assert.deepEqual(await nestedGitEntries(linkedRoot), all, 'a root reached through a link');
    assert.deepEqual(await nestedGitEntries(linkedRoot, 0), all, 'a root reached through a link, by find');
    assert.deepEqual(await removeNestedGit(root), all);
    assert.deepEqual(await nestedGitEntries(root), []);
    assert.ok(existsSync(join(root, '.git')) && existsSync(join(root, 'e/.gitignore')));
    assert.ok(existsSync(join(outside, '.git/config')), 'nothing removed through a link');
  }
});

test('a scratch with more folders than the small walk reads is walked by find, and nothing is missed', async (t) => {
  const root = tempDir(t);
  // 80 folders (more than the small walk's 64), a planted .git in the last one made.
  const tree: Record<string, string> = {};
  for (let i = 0; i < 80; i++)
    tree[`pkg${String(i).padStart(2, '0')}/src/index.js`] = `export default ${i};\n`;
  tree['pkg79/src/.git'] = 'gitdir: /elsewhere\n';
  writeTree(root, tree);
  assert.equal(smallWalk(root, 64), null, 'too many folders for the small walk');
  assert.deepEqual(smallWalk(root, 1000), ['pkg79/src/.git']);
  assert.deepEqual(await nestedGitEntries(root), ['pkg79/src/.git']);
  assert.deepEqual(await removeNestedGit(root), ['pkg79/src/.git']);
  assert.ok(!existsSync(join(root, 'pkg79/src/.git')) && existsSync(join(root, 'pkg79/src/index.js')));
});
