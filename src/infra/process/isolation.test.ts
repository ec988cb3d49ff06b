import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { CommandRun } from '../../core/ports/commands.js';
import { ProcessCommandRunner } from './command-runner.js';
import { prepareIsolation, selectIsolation, type IsolationOptions, type PlanTrial } from './isolation.js';
import type { SandboxTools } from './sandbox-argv.js';

const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

function tempDir(t: TestContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A scratch folder to run in and a read-only "workspace" holding one file. */
function folders(t: TestContext): { scratch: string; workspace: string; file: string } {
  const workspace = tempDir(t, 'aide-ws-');
  const file = join(workspace, 'src.txt');
  writeFileSync(file, 'original\n');
  return { scratch: tempDir(t, 'aide-scratch-'), workspace, file };
}

async function runnerFor(
  t: TestContext,
  workspace: string,
  options: Partial<IsolationOptions> = {},
): Promise<ProcessCommandRunner> {
  const isolation = await prepareIsolation({
    allowNetwork: false,
    readOnlyPaths: [workspace],
    env: { PATH },
    ...options,
  });
  // The private HOME and temp folder of the commands go with the test.
  t.after(() => {
    isolation.dispose();
  });
  return new ProcessCommandRunner({ isolation, killGraceMs: 300 });
}

function command(scratch: string, run: CommandRun['run'], extra: Partial<CommandRun> = {}): CommandRun {
  return {
    name: 'test',
    run,
    cwd: scratch,
    env: { PATH },
    timeoutMs: 10_000,
    logFile: join(scratch, 'run.log'),
    maxLogBytes: 1 << 20,
    tailBytes: 4096,
    ...extra,
  };
}

/** Host pids of processes whose command line starts with `prefix` (namespace pids differ). */
function pidsRunning(prefix: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // A zombie runs nothing; PID 1 here reaps orphans only about once a second.
        return (
          stat.replace(/^.*\) /s, '')[0] !== 'Z' &&
          readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').startsWith(prefix)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The runner gives a result only once the sandbox is empty: nothing may run when it is read. */
function assertNoneRunning(prefix: string): void {
  assert.deepEqual(pidsRunning(prefix), [], `nothing left running "${prefix}"`);
}

async function hostServer(t: TestContext): Promise<number> {
  const server = createServer((_request, response) => response.end('host'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return (server.address() as AddressInfo).port;
}

function fetchScript(port: number): string[] {
  const code = `fetch('http://127.0.0.1:${port}/').then(async (r) => console.log('reached', await r.text()), (e) => { console.log('failed', e.cause?.code ?? e.message); process.exitCode = 7; })`;
  return [process.execPath, '-e', code];
}

for (const mechanism of ['unshare', 'bwrap'] as const) {
  test(`${mechanism}: the report claims network off, a read-only workspace and a PID namespace`, async (t) => {
    const runner = await runnerFor(t, folders(t).workspace, { force: mechanism });
    assert.deepEqual(runner.isolation, {
      mechanism,
      network: 'off',
      workspaceReadOnly: true,
      writable: 'scratch',
      sockets: 'hidden',
      processTree: 'namespace',
      detail: null,
    });
  });

  test(`${mechanism}: a server on the host's loopback is unreachable, while loopback works inside`, async (t) => {
    const { scratch, workspace } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    const outside = await runner.run(command(scratch, fetchScript(await hostServer(t))));
    assert.equal(outside.tail, 'failed ECONNREFUSED');
    const inner = `const s = require('http').createServer((q, r) => r.end('inside')).listen(0, '127.0.0.1', () =>
      fetch('http://127.0.0.1:' + s.address().port).then(async (r) => { console.log('reached', await r.text()); s.close(); }))`;
    assert.equal(
      (await runner.run(command(scratch, [process.execPath, '-e', inner]))).tail,
      'reached inside',
    );
  });

  test(`${mechanism}: writing into the read-only workspace fails, even after trying to unmount it`, async (t) => {
    const { scratch, workspace, file } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    const result = await runner.run(command(scratch, `umount ${workspace}; echo changed > ${file}`));
    assert.notEqual(result.exitCode, 0);
    assert.match(result.tail, /Read-only file system/);
    assert.equal(readFileSync(file, 'utf8'), 'original\n');
    assert.equal(
      (await runner.run(command(scratch, 'echo scratch stays writable > out.txt && cat out.txt'))).tail,
      'scratch stays writable',
    );
  });

  test(`${mechanism}: /proc/sys cannot be written (the host's core_pattern names a helper the kernel runs as root)`, async (t) => {
    const { scratch, workspace } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    const pattern = '/proc/sys/kernel/core_pattern';
    const before = readFileSync(pattern, 'utf8');
    // Writes back the value it read: harmless even where the sandbox fails.
    const result = await runner.run(
      command(scratch, `cat ${pattern} > "$TMPDIR/p" && cat "$TMPDIR/p" > ${pattern}`),
    );
    assert.notEqual(result.exitCode, 0, result.tail);
    assert.match(
      result.tail,
      process.getuid?.() === 0 ? /Read-only file system/ : /Read-only|Permission denied/,
    );
    assert.equal(readFileSync(pattern, 'utf8'), before);
  });

  test(`${mechanism}: HOME and TMPDIR are private; the user's HOME, the host's /tmp and a socket listening there are out of sight`, async (t) => {
    const { scratch, workspace } = folders(t);
    const home = tempDir(t, 'aide-user-home-');
    writeFileSync(join(home, '.bashrc'), 'original\n');
    const socket = join(tempDir(t, 'aide-host-'), 's.sock');
    const server = createNetServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    t.after(() => server.close());
    const runner = await runnerFor(t, workspace, {
      force: mechanism,
      env: { PATH, HOME: home, TMPDIR: tmpdir() },
    });
    const connect = `require('net').connect(${JSON.stringify(socket)}).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => console.log('refused', e.code))`;
    const script = `echo "$HOME" > "$TMPDIR/home" && cat "$TMPDIR/home"; echo evil >> ${home}/.bashrc; ${process.execPath} -e "${connect.replaceAll('"', '\\"')}"`;
    const result = await runner.run(command(scratch, script, { env: { PATH, HOME: home } }));
    const [seenHome, ...rest] = result.tail.split('\n');
    assert.notEqual(seenHome, home);
    assert.match(rest.join('\n'), /refused ENOENT/);
    assert.equal(readFileSync(join(home, '.bashrc'), 'utf8'), 'original\n');
  });

  test(`${mechanism}: daemons holding the output open, setsid or not, die when the command ends`, async (t) => {
    const { scratch, workspace } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    const marker = mechanism === 'unshare' ? '1301' : '1302';
    let seen: number[] = [];
    // Looked up while the command still runs: in the namespace they die the moment it ends.
    const onLine = (line: string) => {
      if (line === 'started') seen = pidsRunning(`sleep ${marker}.`);
    };
    const script = `sleep ${marker}.1 & setsid sleep ${marker}.2 & (setsid sh -c 'sleep ${marker}.3 &'); sleep 0.1; echo started; sleep 0.2`;
    const result = await runner.run(command(scratch, script, { onLine }));
    assert.equal(result.exitCode, 0);
    assert.ok(result.durationMs < 5000, `took ${result.durationMs} ms`);
    assert.equal(seen.length, 3, 'the three daemons were running');
    assertNoneRunning(`sleep ${marker}.`);
  });

  test(`${mechanism}: the command holds no descriptor but its input and output: not bwrap's info pipe, not one aide inherited`, async (t) => {
    const { scratch, workspace } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    const result = await runner.run(command(scratch, ['/bin/sh', '-c', 'ls /proc/$$/fd']));
    assert.equal(result.exitCode, 0, result.tail);
    assert.deepEqual(result.tail.split('\n').sort(), ['0', '1', '2']);
  });

  test(`${mechanism}: the command starts with no signal ignored, so its own tests can interrupt children`, async (t) => {
    const { scratch, workspace } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    const result = await runner.run(command(scratch, ['grep', 'SigIgn', '/proc/self/status']));
    assert.equal(result.tail, 'SigIgn:\t0000000000000000');
  });

  test(`${mechanism}: a command killed by a signal reports 128 + its number, as a shell would`, async (t) => {
    const { scratch, workspace } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    // The sandbox's own process exits normally with the status it saw; it cannot re-raise the
    // signal (PID 1 ignores it), so `signal` stays null here, unlike without isolation.
    const result = await runner.run(command(scratch, 'kill -KILL $$'));
    assert.deepEqual([result.exitCode, result.signal], [137, null]);
  });

  test(`${mechanism}: on timeout the command's own TERM handler runs inside the namespace`, async (t) => {
    const { scratch, workspace } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    const script = `trap 'echo handled TERM; exit 5' TERM; echo ready; while :; do sleep 0.05; done`;
    const result = await runner.run(command(scratch, script, { timeoutMs: 300 }));
    assert.equal(result.timedOut, true);
    assert.match(result.tail, /handled TERM/);
  });

  test(`${mechanism}: a tree ignoring TERM is killed after the grace period; cancel works the same`, async (t) => {
    const { scratch, workspace } = folders(t);
    const runner = await runnerFor(t, workspace, { force: mechanism });
    const marker = mechanism === 'unshare' ? '1401' : '1402';
    const script = `trap '' TERM; sleep ${marker}.1 & sh -c 'trap "" TERM; sleep ${marker}.2' & echo ready; wait`;
    const timedOut = await runner.run(command(scratch, script, { timeoutMs: 300 }));
    assert.equal(timedOut.timedOut, true);
    assert.ok(timedOut.durationMs < 5000, `took ${timedOut.durationMs} ms`);
    assertNoneRunning(`sleep ${marker}.`);
    const controller = new AbortController();
    const onLine = (line: string) => {
      if (line === 'ready') controller.abort();
    };
    const cancelled = await runner.run(command(scratch, script, { signal: controller.signal, onLine }));
    assert.equal(cancelled.cancelled, true);
    assertNoneRunning(`sleep ${marker}.`);
  });
}

for (const mechanism of ['unshare', 'bwrap'] as const) {
  test(`${mechanism}: with the network allowed, the host server is reachable and the workspace still read-only`, async (t) => {
    const { scratch, workspace, file } = folders(t);
    const runner = await runnerFor(t, workspace, { allowNetwork: true, force: mechanism });
    assert.deepEqual(runner.isolation, {
      mechanism,
      network: 'allowed',
      workspaceReadOnly: true,
      writable: 'scratch',
      sockets: 'hidden',
      processTree: 'namespace',
      detail: null,
    });
    assert.equal((await runner.run(command(scratch, fetchScript(await hostServer(t))))).tail, 'reached host');
    assert.notEqual((await runner.run(command(scratch, `echo changed > ${file}`))).exitCode, 0);
    assert.equal(readFileSync(file, 'utf8'), 'original\n');
  });
}

test('unforced, bwrap is chosen where it works (one program start, where unshare needs seven)', async (t) => {
  for (const allowNetwork of [false, true]) {
    const runner = await runnerFor(t, folders(t).workspace, { allowNetwork });
    assert.equal(runner.isolation.mechanism, 'bwrap');
    assert.equal(runner.isolation.detail, null);
  }
});

test('forced off, the report says the network is unavailable and nothing is claimed', async (t) => {
  const { scratch, workspace, file } = folders(t);
  const runner = await runnerFor(t, workspace, { force: 'none' });
  assert.deepEqual(runner.isolation, {
    mechanism: 'none',
    network: 'unavailable',
    workspaceReadOnly: false,
    writable: 'anywhere',
    sockets: 'reachable',
    processTree: 'process-group',
    detail: 'network isolation: unavailable because it was turned off (AIDE_ISOLATION=none)',
  });
  // Honest: the same command now does write the workspace.
  assert.equal((await runner.run(command(scratch, `echo changed > ${file}`))).exitCode, 0);
  assert.equal(readFileSync(file, 'utf8'), 'changed\n');
});

test('forced off with the network allowed, the report still says why nothing is isolated', async (t) => {
  const runner = await runnerFor(t, folders(t).workspace, { force: 'none', allowNetwork: true });
  assert.equal(runner.isolation.network, 'allowed');
  assert.equal(runner.isolation.workspaceReadOnly, false);
  assert.equal(
    runner.isolation.detail,
    'isolation: unavailable because it was turned off (AIDE_ISOLATION=none)',
  );
});

test('a relative read-only path is a programming error', async () => {
  await assert.rejects(
    prepareIsolation({ allowNetwork: false, readOnlyPaths: ['src'], env: { PATH } }),
    /must be absolute/,
  );
});

// The fallbacks below cannot happen on this machine (every probe passes), so the probe is
// replaced by a table of which plans fail and with what words; each plan itself runs for real
// in sandbox-argv.test.ts.
const allTools: SandboxTools = {
  unshare: '/usr/bin/unshare',
  unshareMapsCurrentUser: true,
  bwrap: '/usr/bin/bwrap',
  mount: '/usr/bin/mount',
  umount: '/usr/bin/umount',
  pivotRoot: '/usr/sbin/pivot_root',
  setpriv: '/usr/bin/setpriv',
  ip: '/usr/sbin/ip',
};
const NO_PROC = 'unshare: mount /proc failed: Permission denied';
const NO_BWRAP = 'bwrap: No permissions to create new namespace';
const NO_USERNS = 'unshare: unshare failed: Operation not permitted';

function trial(
  works: (plan: Parameters<PlanTrial>[0]) => boolean,
  reason: (plan: Parameters<PlanTrial>[0]) => string,
): PlanTrial {
  return (plan) => Promise.resolve(works(plan) ? null : reason(plan));
}

const networkOff: IsolationOptions = {
  allowNetwork: false,
  readOnlyPaths: ['/work/repo'],
  env: { TMPDIR: tmpdir() },
};

test('without /proc for a PID namespace, the report keeps the rest and says what is missing and why', async (t) => {
  const isolation = await selectIsolation(
    networkOff,
    allTools,
    trial(
      (plan) => plan.mechanism === 'unshare' && !plan.pid,
      (plan) => (plan.mechanism === 'bwrap' ? NO_BWRAP : NO_PROC),
    ),
  );
  assert.deepEqual(isolation.report, {
    mechanism: 'unshare',
    network: 'off',
    workspaceReadOnly: true,
    writable: 'scratch',
    sockets: 'hidden',
    processTree: 'process-group',
    detail: `background processes are killed only through the process group (no PID namespace) because ${NO_BWRAP}; ${NO_PROC}`,
  });
  t.after(() => {
    isolation.dispose();
  });
  assert.ok(!isolation.wrap(['true'], tmpdir()).includes('--mount-proc'));
});

test('when only a network namespace works, the workspace is reported writable', async () => {
  const isolation = await selectIsolation(
    networkOff,
    allTools,
    trial(
      (plan) => plan.filesystem === 'open',
      () => NO_PROC,
    ),
  );
  assert.equal(isolation.report.network, 'off');
  assert.equal(isolation.report.workspaceReadOnly, false);
  assert.equal(isolation.report.writable, 'anywhere');
  assert.equal(isolation.report.sockets, 'reachable');
  assert.equal(
    isolation.report.detail,
    `the workspace and its git dirs are writable; $HOME, /tmp and the rest of the file system outside the workspace are writable and UNIX sockets on disk (/tmp, /run, $HOME) are reachable; background processes are killed only through the process group (no PID namespace) because ${NO_PROC}`,
  );
});

test('when the file system cannot be confined, only the workspace and git dirs are read-only, and the report says what is open', async () => {
  const isolation = await selectIsolation(
    networkOff,
    allTools,
    trial(
      (plan) => plan.filesystem === 'paths',
      (plan) => (plan.mechanism === 'bwrap' ? NO_BWRAP : 'pivot_root: failed to change root'),
    ),
  );
  assert.equal(isolation.report.workspaceReadOnly, true);
  assert.equal(isolation.report.writable, 'outside-workspace');
  assert.equal(isolation.report.sockets, 'reachable');
  assert.equal(isolation.report.processTree, 'namespace');
  assert.equal(
    isolation.report.detail,
    `$HOME, /tmp and the rest of the file system outside the workspace are writable and UNIX sockets on disk (/tmp, /run, $HOME) are reachable because ${NO_BWRAP}; pivot_root: failed to change root`,
  );
});

test('without setpriv the read-only mount is not trusted: a command could unmount it', async () => {
  const isolation = await selectIsolation(
    networkOff,
    { ...allTools, setpriv: null, bwrap: null },
    trial(
      () => true,
      () => '',
    ),
  );
  assert.equal(isolation.report.workspaceReadOnly, false);
  assert.match(
    isolation.report.detail ?? '',
    /because bwrap is not installed; setpriv is not installed \(util-linux\), so the workspace cannot be kept read-only$/,
  );
});

test('when no namespace can be made, network isolation is reported unavailable with the tools own words', async () => {
  const isolation = await selectIsolation(
    networkOff,
    allTools,
    trial(
      () => false,
      (plan) => (plan.mechanism === 'bwrap' ? NO_BWRAP : NO_USERNS),
    ),
  );
  assert.deepEqual(isolation.report, {
    mechanism: 'none',
    network: 'unavailable',
    workspaceReadOnly: false,
    writable: 'anywhere',
    sockets: 'reachable',
    processTree: 'process-group',
    detail: `network isolation: unavailable because ${NO_BWRAP}; ${NO_USERNS}`,
  });
  assert.deepEqual(isolation.wrap(['npm', 'test'], tmpdir()), ['npm', 'test']);
  isolation.dispose();
});

test('with no tools installed the reason says so', async () => {
  const isolation = await selectIsolation(
    networkOff,
    { ...allTools, unshare: null, bwrap: null },
    trial(
      () => true,
      () => '',
    ),
  );
  assert.equal(
    isolation.report.detail,
    'network isolation: unavailable because bwrap is not installed; unshare is not installed (util-linux)',
  );
});

test('bwrap is tried first; where it fails, unshare takes over with every protection and no note', async () => {
  const tried: string[] = [];
  const isolation = await selectIsolation(networkOff, allTools, (plan) => {
    tried.push(`${plan.mechanism} ${plan.filesystem} ${plan.pid ? 'pid' : 'no-pid'}`);
    return Promise.resolve(plan.mechanism === 'bwrap' ? NO_BWRAP : null);
  });
  assert.deepEqual(tried, ['bwrap confined pid', 'unshare confined pid']);
  assert.equal(isolation.report.mechanism, 'unshare');
  assert.equal(isolation.report.processTree, 'namespace');
  assert.equal(isolation.report.detail, null);
  isolation.dispose();
});

test('where runs name layers, unshare with an overlay is tried first; where it fails, bwrap follows without layers and with no note', async () => {
  const tried: string[] = [];
  const label = (plan: Parameters<PlanTrial>[0]) =>
    `${plan.mechanism} ${plan.filesystem} ${plan.pid ? 'pid' : 'no-pid'}${plan.layers === true ? ' layers' : ''}`;
  const layered = await selectIsolation({ ...networkOff, layers: true }, allTools, (plan) => {
    tried.push(label(plan));
    return Promise.resolve(null);
  });
  assert.deepEqual(tried, ['unshare confined pid layers']);
  assert.equal(layered.layers, true);
  assert.equal(layered.report.mechanism, 'unshare');
  layered.dispose();
  tried.length = 0;
  const refused = await selectIsolation({ ...networkOff, layers: true }, allTools, (plan) => {
    tried.push(label(plan));
    return Promise.resolve(
      plan.layers === true ? 'aide: cannot mount the sandbox: overlay: Operation not permitted' : null,
    );
  });
  assert.deepEqual(tried, ['unshare confined pid layers', 'bwrap confined pid']);
  assert.equal(refused.layers, false);
  assert.equal(refused.report.mechanism, 'bwrap');
  assert.equal(refused.report.detail, null, 'bwrap gives the same protections: no gap to report');
  refused.dispose();
  tried.length = 0;
  const bwrapOnly = await selectIsolation(
    { ...networkOff, layers: true, force: 'bwrap' },
    allTools,
    (plan) => {
      tried.push(label(plan));
      return Promise.resolve(null);
    },
  );
  assert.deepEqual(tried, ['bwrap confined pid'], 'forced bwrap: no overlay tried');
  bwrapOnly.dispose();
});

test('forcing unshare never tries bwrap', async () => {
  const tried: string[] = [];
  const isolation = await selectIsolation({ ...networkOff, force: 'unshare' }, allTools, (plan) => {
    tried.push(plan.mechanism);
    return Promise.resolve(null);
  });
  assert.deepEqual(tried, ['unshare']);
  assert.equal(isolation.report.mechanism, 'unshare');
  isolation.dispose();
});

test('forcing bwrap never falls back to unshare', async () => {
  const tried: string[] = [];
  const isolation = await selectIsolation({ ...networkOff, force: 'bwrap' }, allTools, (plan) => {
    tried.push(plan.mechanism);
    return Promise.resolve(NO_BWRAP);
  });
  assert.deepEqual(tried, ['bwrap']);
  assert.equal(isolation.report.detail, `network isolation: unavailable because ${NO_BWRAP}`);
});
