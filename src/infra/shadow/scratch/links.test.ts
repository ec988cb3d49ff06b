import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../../../../test/helpers/sandbox.js';
import { DEFAULT_LINKS } from '../../../shared/links.js';
import { isLinkGlob, resolveLinkPaths } from './links.js';

function folders(root: string, paths: string[]): void {
  for (const path of paths) mkdirSync(join(root, path), { recursive: true });
}

test('globs match only the outermost folders, never inside node_modules, dot-folders or symlinks', async (t) => {
  const root = tempDir(t);
  folders(root, [
    'node_modules/dep/node_modules/inner',
    'packages/a/node_modules/x/node_modules',
    'packages/a/src/deep/node_modules',
    'apps/web/node_modules',
    '.hidden/node_modules',
    'tools/x/y/node_modules',
    '.git/node_modules',
  ]);
  symlinkSync(join(root, 'packages'), join(root, 'loop'));
  assert.deepEqual(
    await resolveLinkPaths(root, DEFAULT_LINKS),
    ['apps/web/node_modules', 'node_modules', 'packages/a/node_modules'],
    'the default: the root and one or two folders down',
  );
  assert.deepEqual(await resolveLinkPaths(root, ['**/node_modules']), [
    'apps/web/node_modules',
    'node_modules',
    'packages/a/node_modules',
    'packages/a/src/deep/node_modules',
    'tools/x/y/node_modules',
  ]);
  assert.deepEqual(
    await resolveLinkPaths(root, ['packages/*/node_modules', 'vendor', './.venv']),
    ['.venv', 'vendor', 'packages/a/node_modules'].sort(),
  );
});

test('literal paths are links as written; glob characters make a glob', () => {
  assert.equal(isLinkGlob('node_modules'), false);
  assert.equal(isLinkGlob('packages/*/node_modules'), true);
  assert.equal(isLinkGlob('{a,b}/node_modules'), true);
});
