import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandWorkspaces, type DirectoryLister } from './workspace-dirs.js';

/** Folders as a tree of plain data: a lister that never touches a disk. */
function lister(tree: Record<string, string[]>): DirectoryLister & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    listDirectories(path) {
      asked.push(path);
      return Promise.resolve(tree[path.replace(/^\/repo\/?/, '').replace(/\/$/, '')] ?? []);
    },
  };
}

const TREE = {
  '': ['packages', 'apps', 'node_modules', '.git'],
  packages: ['core', 'cli', 'core-test', 'node_modules'],
  apps: ['web', '.next'],
  'apps/web': ['e2e'],
  'packages/core': ['test'],
};

test('literal folders, * within a segment, ** at any depth, and ! exclusions', async () => {
  assert.deepEqual(await expandWorkspaces(lister(TREE), '/repo', ['packages/*']), [
    'packages/cli',
    'packages/core',
    'packages/core-test',
  ]);
  assert.deepEqual(await expandWorkspaces(lister(TREE), '/repo', ['./packages/core*', 'tools/cli/']), [
    'packages/core',
    'packages/core-test',
    'tools/cli',
  ]);
  assert.deepEqual(await expandWorkspaces(lister(TREE), '/repo', ['apps/**']), [
    'apps',
    'apps/web',
    'apps/web/e2e',
  ]);
  assert.deepEqual(
    await expandWorkspaces(lister(TREE), '/repo', ['packages/*', '!packages/*-test', '!**/test']),
    ['packages/cli', 'packages/core'],
  );
});

test('node_modules, dot-folders, .. and absolute patterns are never entered', async () => {
  const fake = lister(TREE);
  assert.deepEqual(await expandWorkspaces(fake, '/repo', ['*', '../elsewhere/*', '/etc/*']), [
    'apps',
    'packages',
  ]);
  assert.ok(
    fake.asked.every((path) => !path.includes('node_modules') && !path.includes('/.')),
    fake.asked.join(' '),
  );
});
