/**
 * Nothing a verify command writes decides what aide deletes (issue 10, item 1). A hostile
 * command plants, next to its own scratch, everything that could pass for a stale scratch of
 * aide's: owner records naming a folder outside and the workspace itself (and a symlink
 * outside as one of "its links"), and symlinks in the scratch home named like sessions that
 * point at both. The next `aide verify` and `aide act --dry-run` clean up stale scratches;
 * both folders, the workspace's .git and the symlink outside must survive. Run with the
 * platform's isolation and with none (AIDE_ISOLATION=none), where the command can also write
 * the workspace's `.aide/state`: the fix must not rely on the scratch home being unwritable.
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scratchHome } from '../../src/infra/shadow/scratch/registry.js';
import { edit, planDoc } from '../helpers/act.js';
import { runAide, type CliResult } from '../helpers/cli.js';
import { fingerprint, gitRepo, tempDir, testTemp, writeTree } from '../helpers/sandbox.js';

/** The attack, as a verify command: its cwd is its scratch, whose parent is the scratch home. */
function plantScript(outside: string, workspace: string): string {
  const record = (path: string, links: string[]) => ({
    version: 1,
    pid: 2_147_483_000,
    identity: null,
    session: 'x',
    workspace,
    path,
    adminDir: null,
    links,
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const records = {
    'evil-outside': record(outside, [join(outside, 'keep-link')]),
    'evil-workspace': record(workspace, []),
    'act-20260101-000000-dead': record(outside, [join(outside, 'keep-link')]),
  };
  return `
const fs = require('fs'), path = require('path');
const home = path.dirname(process.cwd());
const records = ${JSON.stringify(records)};
const tryIt = (f) => { try { f(); } catch {} };
for (const dir of [path.join(home, '.owners'), ${JSON.stringify(join(workspace, '.aide/state/scratches'))}]) {
  tryIt(() => fs.mkdirSync(dir, { recursive: true }));
  for (const [name, r] of Object.entries(records)) tryIt(() => fs.writeFileSync(path.join(dir, name + '.json'), JSON.stringify(r)));
}
tryIt(() => fs.symlinkSync(${JSON.stringify(outside)}, path.join(home, 'act-20260101-000000-dead')));
tryIt(() => fs.symlinkSync(${JSON.stringify(workspace)}, path.join(home, 'verify-20260101-000000-beef')));
tryIt(() => fs.symlinkSync(${JSON.stringify(workspace)}, path.join(home, 'evil-workspace')));
console.log('planted');
`;
}

const SOURCE = 'export const a = 1;\n';

function setup(t: { after(fn: () => void): void }, allowNetwork: boolean) {
  const outside = tempDir(t, 'aide-outside-');
  writeTree(outside, { 'precious.txt': 'keep me\n', 'deep/data.txt': 'me too\n' });
  mkdirSync(join(outside, 'link-target'));
  symlinkSync(join(outside, 'link-target'), join(outside, 'keep-link'));
  const root = gitRepo(t, {
    'src/a.js': SOURCE,
    '.aide/plans/plan.md': planDoc('Edit', [
      { title: 'Edit a', edits: edit('src/a.js', 'export const a = 1;', 'export const a = 2;') },
    ]),
  });
  writeTree(root, {
    '.aide/sandbox.json': JSON.stringify({
      commands: [{ name: 'plant', run: ['node', '-e', plantScript(outside, root)] }],
      flake_reruns: 0,
      allow_network: allowNetwork,
    }),
  });
  return { outside, root, outsidePrint: fingerprint(outside), gitPrint: fingerprint(join(root, '.git')) };
}

function assertSurvived(s: ReturnType<typeof setup>, after: string, result: CliResult): void {
  const said = `after ${after} (exit ${result.code}):\n${result.stdout}\n${result.stderr}`;
  assert.ok(existsSync(join(s.outside, 'precious.txt')), `the folder outside survives ${said}`);
  assert.deepEqual(
    fingerprint(s.outside),
    s.outsidePrint,
    `the folder outside is untouched, its symlink included, ${said}`,
  );
  assert.ok(lstatSync(join(s.outside, 'keep-link')).isSymbolicLink());
  assert.ok(existsSync(join(s.root, 'src/a.js')), `the workspace survives ${said}`);
  assert.ok(existsSync(join(s.root, '.aide/sandbox.json')), `the workspace's .aide survives ${said}`);
  assert.deepEqual(
    fingerprint(join(s.root, '.git')),
    s.gitPrint,
    `the workspace's .git is untouched ${said}`,
  );
}

for (const isolation of ['default', 'none'] as const) {
  test(`planted scratch records and links (isolation ${isolation}): aide verify and aide act --dry-run delete neither the folder named nor the workspace`, async (t) => {
    // Without isolation there is no network isolation either: sandbox.json has to accept that.
    const s = setup(t, isolation === 'none');
    const env: Record<string, string> = isolation === 'none' ? { AIDE_ISOLATION: 'none' } : {};
    const planted = await runAide(['verify'], { cwd: s.root, env });
    assert.equal(planted.code, 0, planted.stdout + planted.stderr);
    assertSurvived(s, 'the verify that planted them', planted);
    if (isolation === 'none') {
      // Nothing stopped the command: the bait is really there for the next run to take.
      const home = scratchHome(testTemp(), s.root);
      assert.ok(lstatSync(join(home, 'verify-20260101-000000-beef')).isSymbolicLink());
      assert.ok(existsSync(join(home, '.owners', 'evil-workspace.json')));
      assert.ok(existsSync(join(s.root, '.aide/state/scratches/act-20260101-000000-dead.json')));
    }
    const verify = await runAide(['verify'], { cwd: s.root, env });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    assertSurvived(s, 'aide verify', verify);
    const act = await runAide(['act', '--dry-run'], { cwd: s.root, env });
    assert.equal(act.code, 0, act.stdout + act.stderr);
    assertSurvived(s, 'aide act --dry-run', act);
    const again = await runAide(['verify'], { cwd: s.root, env });
    assertSurvived(s, 'the verify after the act', again);
    assert.equal(again.code, 0, again.stdout + again.stderr);
  });
}
