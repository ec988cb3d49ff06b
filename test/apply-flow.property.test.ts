// Replies through the whole apply flow (path jail, planner, atomic commit) against a real tree
// holding a .git folder and symlinks in and out. Garbage never throws and a failed apply leaves
// every byte as it was; well-formed edits aimed at protected places are always refused. In
// process, so it can run hundreds of cases quickly.
import assert from 'node:assert/strict';
import { realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { applyFlow, type ApplyReport } from '../src/core/flows/apply.js';
import { NodeFileSystem } from '../src/infra/fs/node-file-system.js';
import { garbageResponse } from './helpers/edit-arbitraries.js';
import { fingerprint, tempDir, writeTree } from './helpers/sandbox.js';

const FILES = {
  'src/app.ts': 'export function app() {\n  return 1;\n}\n',
  'README.md': '# Title\n\n```\ncode\n```\n',
  '.git/config': '[core]\n',
};

async function apply(response: string, root: string): Promise<ApplyReport> {
  const flow = applyFlow({ response, root, dryRun: false }, { fs: new NodeFileSystem() });
  let step = await flow.next();
  while (step.done !== true) step = await flow.next();
  return step.value;
}

/** A tree to attack: files, a .git folder, a symlink out to `outside` and one to .git/config. */
function arena(t: Parameters<typeof tempDir>[0]) {
  const root = realpathSync(tempDir(t));
  const outside = realpathSync(tempDir(t, 'aide-outside-'));
  writeTree(outside, { 'notes.md': 'outside\n' });
  writeTree(root, FILES);
  symlinkSync(outside, join(root, 'docs'));
  symlinkSync('.git/config', join(root, 'settings.ini'));
  const snapshot = () => ({ root: fingerprint(root), outside: fingerprint(outside) });
  return { root, outside, snapshot };
}

test('garbage replies through applyFlow never throw, and a failed apply leaves the tree byte-identical', async (t) => {
  const { root, outside } = arena(t);
  const reset = () => {
    rmSync(join(root, 'src'), { recursive: true, force: true });
    writeTree(root, FILES);
  };
  await fc.assert(
    fc.asyncProperty(garbageResponse, async (response) => {
      reset();
      const before = {
        root: fingerprint(root),
        outside: fingerprint(outside),
        git: fingerprint(root, '.git'),
      };
      const report = await apply(response, root);
      if (!report.ok)
        assert.deepEqual(
          { root: fingerprint(root), outside: fingerprint(outside), git: fingerprint(root, '.git') },
          before,
        );
      assert.deepEqual(
        { outside: fingerprint(outside), git: fingerprint(root, '.git') },
        { outside: before.outside, git: before.git },
        'wrote outside or into .git',
      );
    }),
    { seed: 20240611, numRuns: 300, includeErrorInReport: true },
  );
});

/** Paths that name a protected place, with text that is really there (so only the jail stops the edit). */
function hostileTargets(outside: string): Array<{ path: string; search: string }> {
  const outsideName = outside.split('/').at(-1) ?? '';
  return [
    { path: 'docs/notes.md', search: 'outside' },
    { path: `../${outsideName}/notes.md`, search: 'outside' },
    { path: `${outside}/notes.md`, search: 'outside' },
    { path: 'docs/new.md', search: '' },
    { path: '.git/config', search: '[core]' },
    { path: '.GIT/config', search: '[core]' },
    { path: 'src/../.git/config', search: '[core]' },
    { path: 'settings.ini', search: '[core]' },
    { path: '.git/hooks/pre-commit', search: '' },
    { path: 'src/app\u200B.ts', search: '  return 1;' },
  ];
}

function srBlock(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`\n<<<<<<< SEARCH\n${search === '' ? '' : `${search}\n`}=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

function diffBlock(path: string, search: string, replace: string): string {
  const from = search === '' ? '/dev/null' : `a/${path}`;
  const hunk = search === '' ? `@@ -0,0 +1 @@\n+${replace}` : `@@ -1 +1 @@\n-${search}\n+${replace}`;
  return `\`\`\`diff\n--- ${from}\n+++ b/${path}\n${hunk}\n\`\`\`\n`;
}

test('well-formed edits aimed at .git, outside the repository or through symlinks are refused and write nothing', async (t) => {
  const { root, outside, snapshot } = arena(t);
  const targets = hostileTargets(outside);
  const attack = fc.record({
    targets: fc.subarray(targets, { minLength: 1 }),
    asDiff: fc.boolean(),
    withValidEdit: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(attack, async ({ targets: chosen, asDiff, withValidEdit }) => {
      const before = snapshot();
      const render = asDiff ? diffBlock : srBlock;
      const blocks = chosen.map((target) => render(target.path, target.search, 'pwned'));
      if (withValidEdit) blocks.unshift(srBlock('src/app.ts', '  return 1;', '  return 2;'));
      const report = await apply(blocks.join('\n'), root);
      assert.equal(report.ok, false);
      assert.ok(report.blocks.some((b) => !b.ok && b.failure.kind === 'path-rejected'));
      assert.deepEqual(snapshot(), before);
    }),
    { seed: 20240611, numRuns: 150, includeErrorInReport: true },
  );
});
