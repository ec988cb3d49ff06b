import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { findSandboxTools } from './isolation.js';
import type { SandboxPlan } from './sandbox-argv.js';
import { probePlan } from './sandbox-probe.js';

const env = { PATH: '/usr/bin:/bin', TMPDIR: tmpdir() };
const tools = await findSandboxTools(env);
const confined: SandboxPlan = { mechanism: 'unshare', network: true, filesystem: 'confined', pid: true };

test('the probe passes the sandboxes that hold on this machine', async () => {
  assert.equal(await probePlan(confined, tools, env), null);
  assert.equal(await probePlan({ ...confined, mechanism: 'bwrap' }, tools, env), null);
  assert.equal(await probePlan({ ...confined, filesystem: 'paths' }, tools, env), null);
});

// A tool that does nothing and exits 0 stands for a sandbox that silently fails to set up.
test('a sandbox that never enters its new root is caught: the workspace is still writable', async () => {
  assert.match(
    (await probePlan(confined, { ...tools, pivotRoot: '/bin/true' }, env)) ?? '',
    /is still writable/,
  );
});

test('a sandbox that mounts nothing is caught', async () => {
  assert.notEqual(await probePlan(confined, { ...tools, mount: '/bin/true' }, env), null);
});

// Only root may write sysctls by file permission, so only there is a writable /proc an escape.
test(
  'a bwrap whose /proc stays writable is caught when aide runs as root',
  { skip: process.getuid?.() !== 0 },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'aide-bwrap-shim-'));
    t.after(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const shim = join(dir, 'bwrap');
    // bwrap without its `--remount-ro /proc`: the plan as it was before /proc was made read-only.
    writeFileSync(
      shim,
      `#!/bin/sh\nfor a; do shift; if [ "$a" = --remount-ro ]; then skip=1; elif [ -n "$skip" ]; then skip=; else set -- "$@" "$a"; fi; done\nexec ${tools.bwrap ?? 'bwrap'} "$@"\n`,
    );
    chmodSync(shim, 0o755);
    assert.match(
      (await probePlan({ ...confined, mechanism: 'bwrap' }, { ...tools, bwrap: shim }, env)) ?? '',
      /\/proc\/sys is writable/,
    );
  },
);
