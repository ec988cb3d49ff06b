import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, type TestContext } from 'node:test';
import { ProcessCommandRunner } from './command-runner.js';
import { findSandboxTools } from './isolation.js';
import {
  sandboxArgv,
  sandboxFstab,
  type SandboxLayout,
  type SandboxPlan,
  type SandboxTools,
} from './sandbox-argv.js';
import { Sandbox } from './sandbox.js';

const env = { PATH: '/usr/bin:/bin', TMPDIR: tmpdir() };
const tools = await findSandboxTools(env);

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-plan-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** What a command sees inside a plan, one fact a line. */
const REPORT = [
  'if (: > "$1/f") 2>/dev/null; then echo writable; else echo read-only; fi',
  'grep -c : /proc/net/dev',
  'echo "ppid $PPID"',
  'id -u',
  'if [ -e "$2" ]; then echo "outside in sight"; else echo "outside hidden"; fi',
  'if (: > "$HOME/f") 2>/dev/null; then echo "home writable"; else echo "home read-only"; fi',
].join('\n');

/** Runs `sh -c script args…` under `plan` with `readOnly` kept read-only; its output's lines. */
async function shellInside(
  t: TestContext,
  plan: SandboxPlan,
  withTools: SandboxTools,
  readOnly: readonly string[],
  script: string,
  args: readonly string[],
): Promise<string[]> {
  const sandbox = new Sandbox(plan, withTools, {
    env,
    readOnlyPaths: readOnly,
    homeBinds: [],
    allowNetwork: !plan.network,
  });
  t.after(() => {
    sandbox.dispose();
  });
  const report = {
    mechanism: plan.mechanism,
    network: 'off',
    workspaceReadOnly: true,
    writable: 'scratch',
    sockets: 'hidden',
    processTree: 'namespace',
    detail: null,
  } as const;
  const runner = new ProcessCommandRunner({
    isolation: {
      report,
      reportsInit: sandbox.reportsInit,
      wrap: (argv, cwd) => sandbox.wrap(argv, cwd),
      environment: (e) => sandbox.environment(e),
    },
  });
  const scratch = tempDir(t);
  const result = await runner.run({
    name: 'plan',
    run: ['/bin/sh', '-c', script, 'sh', ...args],
    cwd: scratch,
    env,
    timeoutMs: 10_000,
    logFile: join(scratch, 'log'),
    maxLogBytes: 10_000,
    tailBytes: 1000,
  });
  assert.equal(result.exitCode, 0, result.tail);
  return result.tail.split('\n');
}

function runInside(t: TestContext, plan: SandboxPlan, withTools: SandboxTools): Promise<string[]> {
  const workspace = tempDir(t);
  return shellInside(t, plan, withTools, [workspace], REPORT, [workspace, tempDir(t)]);
}

// Every fallback plan runs for real here, although this machine passes the strongest probe.
const plans: SandboxPlan[] = [
  { mechanism: 'unshare', network: true, filesystem: 'confined', pid: true },
  { mechanism: 'unshare', network: true, filesystem: 'confined', pid: false },
  { mechanism: 'unshare', network: true, filesystem: 'paths', pid: true },
  { mechanism: 'unshare', network: true, filesystem: 'paths', pid: false },
  { mechanism: 'unshare', network: true, filesystem: 'open', pid: false },
  { mechanism: 'unshare', network: false, filesystem: 'confined', pid: true },
  { mechanism: 'unshare', network: false, filesystem: 'paths', pid: false },
  { mechanism: 'bwrap', network: true, filesystem: 'confined', pid: true },
  { mechanism: 'bwrap', network: false, filesystem: 'confined', pid: true },
];

for (const plan of plans) {
  for (const mapsCurrentUser of plan.mechanism === 'unshare' ? [true, false] : [false]) {
    const name = `${plan.mechanism}${plan.mechanism === 'unshare' ? (mapsCurrentUser ? ' --map-current-user' : ' -r') : ''}`;
    test(`${name} with network ${plan.network ? 'off' : 'on'}, file system ${plan.filesystem}, ${plan.pid ? 'own' : 'shared'} PIDs: the command sees exactly that`, async (t) => {
      const [write, interfaces, ppid, uid, outside, home] = await runInside(t, plan, {
        ...tools,
        unshareMapsCurrentUser: mapsCurrentUser,
      });
      assert.equal(write, plan.filesystem === 'open' ? 'writable' : 'read-only');
      assert.equal(interfaces === '1', plan.network, `interfaces: ${interfaces ?? ''}`);
      assert.equal(ppid === 'ppid 1', plan.pid, ppid);
      assert.equal(uid, String(process.getuid?.()));
      assert.equal(outside, plan.filesystem === 'confined' ? 'outside hidden' : 'outside in sight');
      assert.equal(home, 'home writable', 'the private HOME is writable under every plan');
    });
  }
}

test('without --map-current-user, unshare maps root; with it, the user keeps their uid', () => {
  const plan: SandboxPlan = { mechanism: 'unshare', network: true, filesystem: 'confined', pid: true };
  const layout: SandboxLayout = {
    cwd: '/s',
    writable: [],
    readOnly: ['/w'],
    hidden: [],
    homeBinds: [],
    masked: [],
    newRoot: '/r',
    fstab: '/f',
  };
  const old = sandboxArgv(plan, { ...tools, unshareMapsCurrentUser: false }, layout, ['true']);
  const current = sandboxArgv(plan, { ...tools, unshareMapsCurrentUser: true }, layout, ['true']);
  assert.deepEqual(old.slice(1, 5), ['-r', '-mnipf', '--kill-child', '--mount-proc']);
  assert.deepEqual(current.slice(1, 6), [
    '--map-current-user',
    '--keep-caps',
    '-mnipf',
    '--kill-child',
    '--mount-proc',
  ]);
});

test('the confined fstab: a read-only copy of /, the hidden folders covered, the scratch and private folders bound back last', () => {
  const plan: SandboxPlan = { mechanism: 'unshare', network: true, filesystem: 'confined', pid: true };
  const layout: SandboxLayout = {
    cwd: '/tmp/aide-scratch/h/s',
    writable: ['/tmp/p/home', '/tmp/p/tmp'],
    readOnly: ['/tmp/my ws', '/tmp/my ws/.git', '/home/u/.nvm/v20', '/usr/lib'],
    hidden: ['/tmp', '/run', '/home/u', '/tmp/sub'],
    homeBinds: [{ source: '/home/u/.cache/pip', target: '/tmp/p/home/.cache/pip' }],
    masked: ['/dev/log'],
    newRoot: '/tmp/p/root',
    fstab: '/tmp/p/fstab',
  };
  const mounts = [
    { point: '/', options: ['rw', 'relatime'] },
    { point: '/proc', options: ['rw', 'nosuid', 'nodev', 'noexec'] },
    { point: '/mnt/ro', options: ['ro', 'nosuid'] },
    { point: '/tmp', options: ['rw', 'nosuid', 'nodev'] },
  ];
  assert.deepEqual(sandboxFstab(plan, layout, mounts).trimEnd().split('\n'), [
    '/ /tmp/p/root none rbind 0 0',
    'none /tmp/p/root none remount,bind,ro,relatime 0 0',
    'none /tmp/p/root/proc none remount,bind,ro,nosuid,nodev,noexec 0 0',
    'aide /tmp/p/root/tmp tmpfs mode=1777,nosuid,nodev 0 0',
    'aide /tmp/p/root/run tmpfs mode=755,nosuid,nodev 0 0',
    'aide /tmp/p/root/home/u tmpfs mode=755,nosuid,nodev 0 0',
    '/dev/null /tmp/p/root/dev/log none bind 0 0',
    '/tmp/my\\040ws /tmp/p/root/tmp/my\\040ws none bind,X-mount.mkdir 0 0',
    'none /tmp/p/root/tmp/my\\040ws none remount,bind,ro,nosuid,nodev 0 0',
    '/home/u/.nvm/v20 /tmp/p/root/home/u/.nvm/v20 none bind,X-mount.mkdir 0 0',
    'none /tmp/p/root/home/u/.nvm/v20 none remount,bind,ro,relatime 0 0',
    '/tmp/p/home /tmp/p/root/tmp/p/home none bind,X-mount.mkdir 0 0',
    '/tmp/p/tmp /tmp/p/root/tmp/p/tmp none bind,X-mount.mkdir 0 0',
    '/tmp/aide-scratch/h/s /tmp/p/root/tmp/aide-scratch/h/s none bind,X-mount.mkdir 0 0',
    '/home/u/.cache/pip /tmp/p/root/tmp/p/home/.cache/pip none bind 0 0',
    'none /tmp/p/root/tmp/p/home/.cache/pip none remount,bind,ro,relatime 0 0',
  ]);
});

// A workspace (or a scratch) on /dev/shm, a tmpfs where people put fast checkouts: confined, the
// sandbox hides /dev/shm, and bwrap's fresh /dev hid the workspace with it (the command saw no
// such folder) until read-only paths under /dev were bound back like those under /tmp.
for (const mechanism of ['unshare', 'bwrap'] as const) {
  test(`${mechanism}, confined: a workspace under /dev/shm is in sight and read-only; the rest of /dev/shm is hidden`, async (t) => {
    const shm = mkdtempSync('/dev/shm/aide-plan-');
    t.after(() => {
      rmSync(shm, { recursive: true, force: true });
    });
    const workspace = join(shm, 'ws');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'seen.txt'), 'in sight\n');
    writeFileSync(join(shm, 'beside.txt'), 'beside\n');
    const plan: SandboxPlan = { mechanism, network: true, filesystem: 'confined', pid: true };
    const script = [
      'cat "$1/seen.txt" || echo "workspace missing"',
      'if (: > "$1/f") 2>/dev/null; then echo writable; else echo read-only; fi',
      'if [ -e "$2" ]; then echo "beside in sight"; else echo "beside hidden"; fi',
    ].join('\n');
    const lines = await shellInside(t, plan, tools, [workspace], script, [
      workspace,
      join(shm, 'beside.txt'),
    ]);
    assert.deepEqual(lines, ['in sight', 'read-only', 'beside hidden']);
    assert.equal(existsSync(join(workspace, 'f')), false);
  });
}

// Run as root (containers, CI), a command could open a root-owned System V shared-memory segment
// of the host by its permissions alone: confined, it has an IPC namespace of its own.
for (const mechanism of ['unshare', 'bwrap'] as const) {
  test(`${mechanism}, confined: the host's System V shared memory is out of sight`, async (t) => {
    const made = spawnSync('ipcmk', ['-M', '4096'], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const id = /(\d+)\s*$/.exec(made.stdout)?.[1] ?? '';
    t.after(() => {
      spawnSync('ipcrm', ['-m', id]);
    });
    assert.match(
      spawnSync('ipcs', ['-m', '-i', id], { encoding: 'utf8' }).stdout,
      /shmid=|Shared memory Segment/i,
    );
    const plan: SandboxPlan = { mechanism, network: true, filesystem: 'confined', pid: true };
    // ipcs exits 0 for an id it does not find; what it prints tells.
    const script =
      'if ipcs -m -i "$1" 2>&1 | grep -q "shmid=$1"; then echo "segment in sight"; else echo "segment hidden"; fi';
    assert.deepEqual(await shellInside(t, plan, tools, [], script, [id]), ['segment hidden']);
  });
}

test('with a layer, the confined fstab mounts the scratch as the lower layer of an overlay instead of binding it', () => {
  const plan: SandboxPlan = { mechanism: 'unshare', network: true, filesystem: 'confined', pid: true };
  const layout: SandboxLayout = {
    cwd: '/tmp/aide-scratch/h/s',
    writable: ['/tmp/p/home'],
    readOnly: [],
    hidden: ['/tmp'],
    homeBinds: [],
    masked: [],
    newRoot: '/tmp/p/root',
    fstab: '/tmp/p/fstab',
    layer: { upper: '/tmp/p/layer/upper', work: '/tmp/p/layer/work' },
  };
  const mounts = [{ point: '/', options: ['rw'] }];
  const lines = sandboxFstab(plan, layout, mounts).trimEnd().split('\n');
  assert.deepEqual(lines.slice(-2), [
    '/tmp/p/home /tmp/p/root/tmp/p/home none bind,X-mount.mkdir 0 0',
    'aide-layer /tmp/p/root/tmp/aide-scratch/h/s overlay lowerdir=/tmp/aide-scratch/h/s,upperdir=/tmp/p/layer/upper,workdir=/tmp/p/layer/work,userxattr,X-mount.mkdir 0 0',
  ]);
  assert.ok(!lines.some((l) => l.startsWith('/tmp/aide-scratch/h/s ')), 'the scratch itself is not bound');
  // Mount options cannot hold a "," or ":" (nor an fstab field a space): refused, never mounted wrong.
  for (const cwd of ['/tmp/a,b', '/tmp/a:b', '/tmp/a b'])
    assert.throws(() => sandboxFstab(plan, { ...layout, cwd }, mounts), /overlay mount cannot name/);
});
