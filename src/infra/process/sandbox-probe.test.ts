import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
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
