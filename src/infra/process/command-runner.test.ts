import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { CommandRun } from '../../core/ports/commands.js';
import { ProcessCommandRunner, type Isolation } from './command-runner.js';

const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;
/** Plain process groups: the isolation wrappers are tested in isolation.test.ts. */
const direct: Isolation = {
  report: {
    mechanism: 'none',
    network: 'allowed',
    workspaceReadOnly: false,
    writable: 'anywhere',
    sockets: 'reachable',
    processTree: 'process-group',
    detail: 'not isolated in this test',
  },
  wrap: (argv) => [...argv],
};
const runner = new ProcessCommandRunner({ isolation: direct, killGraceMs: 300 });

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-runner-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function command(dir: string, run: CommandRun['run'], extra: Partial<CommandRun> = {}): CommandRun {
  return {
    name: 'test',
    run,
    cwd: dir,
    env: { PATH },
    timeoutMs: 10_000,
    logFile: join(dir, 'logs', 'run.log'),
    maxLogBytes: 1 << 20,
    tailBytes: 4096,
    ...extra,
  };
}

/**
 * A killed process whose parent is gone is reparented to PID 1, which here reaps only every
 * second or so (measured: a zombie for ~0.7 s); until then kill(pid, 0) succeeds. A zombie
 * runs nothing, so it counts as dead.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The result is given only once the group is gone: nothing may still run when it is read. */
function assertGoneNow(pids: number[]): void {
  assert.deepEqual(pids.filter(alive), [], 'every process of the run is gone when its result is given');
}

/** After aide's own exit: its exit hook sends SIGKILL, which lands when each process next runs. */
async function assertGone(pids: number[]): Promise<void> {
  const deadline = Date.now() + 2000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(pids.filter(alive), [], 'every process of the run is gone');
}

function pidLines(lines: string[]): number[] {
  return lines
    .map((line) => /^pid (\d+)$/.exec(line)?.[1])
    .filter((pid): pid is string => pid !== undefined)
    .map(Number);
}

test('a passing command exits 0 and its output is logged and tailed', async (t) => {
  const dir = tempDir(t);
  const result = await runner.run(command(dir, ['echo', 'all good']));
  assert.equal(result.exitCode, 0);
  assert.equal(result.tail, 'all good');
  assert.equal(readFileSync(join(dir, 'logs', 'run.log'), 'utf8'), 'all good\n');
  assert.deepEqual(
    [result.signal, result.timedOut, result.cancelled, result.truncated, result.startError],
    [null, false, false, false, null],
  );
});

test('a failing command reports its exit code', async (t) => {
  const result = await runner.run(command(tempDir(t), 'echo failing >&2; exit 3'));
  assert.equal(result.exitCode, 3);
  assert.equal(result.tail, 'failing');
});

test('a command killed by a signal reports the signal and no exit code', async (t) => {
  const result = await runner.run(command(tempDir(t), 'kill -KILL $$'));
  assert.equal(result.exitCode, null);
  assert.equal(result.signal, 'SIGKILL');
});

test('a program that does not exist is a start error, not a rejection', async (t) => {
  const dir = tempDir(t);
  const result = await runner.run(command(dir, ['aide-no-such-program', '--version']));
  assert.equal(result.startError, 'spawn aide-no-such-program ENOENT');
  assert.equal(result.exitCode, null);
  assert.match(
    readFileSync(join(dir, 'logs', 'run.log'), 'utf8'),
    /could not start: spawn aide-no-such-program ENOENT/,
  );
});

test('a program without execute permission and a missing folder are start errors', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'script.sh'), 'echo hi\n');
  chmodSync(join(dir, 'script.sh'), 0o644);
  assert.equal((await runner.run(command(dir, ['./script.sh']))).startError, 'spawn ./script.sh EACCES');
  const missing = join(dir, 'gone');
  assert.equal(
    (await runner.run({ ...command(dir, 'true'), cwd: missing })).startError,
    `cannot run in ${missing}: no such folder`,
  );
});

test('an argv runs without a shell; a string runs through /bin/sh', async (t) => {
  const dir = tempDir(t);
  const argv = await runner.run(command(dir, ['printf', '%s|', 'a b', '$HOME', '*']));
  assert.equal(argv.tail, 'a b|$HOME|*|');
  const line = await runner.run(command(dir, 'echo $((1 + 2)) | tr 3 x'));
  assert.equal(line.tail, 'x');
});

test('the environment is exactly the one given: nothing is inherited', async (t) => {
  process.env['AIDE_TEST_INHERITED'] = 'leak';
  t.after(() => {
    delete process.env['AIDE_TEST_INHERITED'];
  });
  const result = await runner.run(command(tempDir(t), ['env'], { env: { PATH, ONLY_THIS: 'yes' } }));
  assert.deepEqual(result.tail.split('\n').sort(), [`PATH=${PATH}`, 'ONLY_THIS=yes'].sort());
});

test('stdout and stderr are interleaved in order and every line reaches onLine', async (t) => {
  const lines: string[] = [];
  const script =
    'echo out1; sleep 0.05; echo err1 >&2; sleep 0.05; for i in 1 2 3; do echo "n $i"; done; printf "\\033[1mlast\\033[0m"';
  const result = await runner.run(command(tempDir(t), script, { onLine: (line) => lines.push(line) }));
  assert.deepEqual(lines, ['out1', 'err1', 'n 1', 'n 2', 'n 3', 'last']);
  assert.equal(result.tail, 'out1\nerr1\nn 1\nn 2\nn 3\nlast');
});

test('the tail is cut at a line boundary with escapes and progress redraws removed', async (t) => {
  const script =
    'for i in 1 2 3 4 5; do printf "\\033[32mline %s\\033[0m\\n" $i; done; printf "10%%\\r50%%\\r100%%\\n"';
  const result = await runner.run(command(tempDir(t), script, { tailBytes: 20 }));
  assert.equal(result.tail, 'line 4\nline 5\n100%');
});

test('a timeout kills a whole tree that ignores SIGTERM, after the grace period', async (t) => {
  const lines: string[] = [];
  const script = `trap '' TERM; echo "pid $$"; sh -c 'echo "pid $$"; sleep 1001' & sleep 1002 & echo "pid $!"; wait`;
  const result = await runner.run(
    command(tempDir(t), script, { timeoutMs: 300, onLine: (line) => lines.push(line) }),
  );
  assert.equal(result.timedOut, true);
  assert.equal(result.signal, 'SIGKILL');
  assert.ok(result.durationMs >= 550 && result.durationMs < 5000, `took ${result.durationMs} ms`);
  const pids = pidLines(lines);
  assert.equal(pids.length, 3, lines.join('\n'));
  assertGoneNow(pids);
});

test('a background process holding the output open does not hold up the run, and dies with its group', async (t) => {
  const lines: string[] = [];
  const started = Date.now();
  const result = await runner.run(
    command(tempDir(t), 'sleep 1003 & echo "pid $!"; echo started', { onLine: (line) => lines.push(line) }),
  );
  assert.ok(Date.now() - started < 5000);
  assert.equal(result.exitCode, 0);
  assert.equal(result.tail.split('\n').at(-1), 'started');
  assertGoneNow(pidLines(lines));
});

test('without a PID namespace a setsid daemon escapes the group: the run still returns', async (t) => {
  const lines: string[] = [];
  const script = 'setsid sh -c \'echo "pid $$"; exec sleep 1004\' & sleep 0.2; echo started';
  const result = await runner.run(command(tempDir(t), script, { onLine: (line) => lines.push(line) }));
  const [daemon] = pidLines(lines);
  assert.ok(daemon !== undefined);
  t.after(() => {
    if (alive(daemon)) process.kill(daemon, 'SIGKILL');
  });
  assert.equal(result.exitCode, 0);
  assert.ok(result.durationMs < 5000);
  // This is why the report says processTree: 'process-group' here; the namespace test kills it.
  assert.equal(alive(daemon), true);
});

test('aborting mid-run kills the group and reports cancelled', async (t) => {
  const lines: string[] = [];
  const controller = new AbortController();
  const onLine = (line: string) => {
    lines.push(line);
    if (line === 'ready') controller.abort();
  };
  const script = 'sleep 1005 & echo "pid $!"; echo ready; wait';
  const result = await runner.run(command(tempDir(t), script, { signal: controller.signal, onLine }));
  assert.equal(result.cancelled, true);
  assert.equal(result.timedOut, false);
  assert.equal(result.signal, 'SIGTERM');
  assertGoneNow(pidLines(lines));
});

test('an already aborted signal starts nothing', async (t) => {
  const dir = tempDir(t);
  const result = await runner.run(command(dir, ['touch', join(dir, 'ran')], { signal: AbortSignal.abort() }));
  assert.equal(result.cancelled, true);
  assert.equal(result.exitCode, null);
  assert.equal(existsSync(join(dir, 'ran')), false);
});

test('100 MB of output: log capped with a marker, exact tail, memory bounded', async (t) => {
  const dir = tempDir(t);
  // 3,276,800 lines of 32 bytes, then one more.
  const script = 'yes 0123456789abcdefghijklmnopqrstu | head -c 104857600; echo "the end"';
  let lines = 0;
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const result = await runner.run(
    command(dir, script, { maxLogBytes: 1 << 20, tailBytes: 100, onLine: () => lines++ }),
  );
  clearInterval(sampler);
  const growth = Math.max(peak, process.memoryUsage().rss) - before;
  t.diagnostic(`rss growth ${(growth / 2 ** 20).toFixed(1)} MiB in ${result.durationMs} ms`);
  assert.ok(growth < 64 * 2 ** 20, `rss grew by ${growth} bytes`);
  assert.equal(result.outputBytes, 104_857_600 + 8);
  assert.equal(lines, 3_276_801);
  assert.equal(result.truncated, true);
  assert.equal(result.tail, '0123456789abcdefghijklmnopqrstu\n0123456789abcdefghijklmnopqrstu\nthe end');
  const log = readFileSync(join(dir, 'logs', 'run.log'), 'utf8');
  assert.ok(log.endsWith('\n[aide: output truncated after 1048576 bytes; 103809032 bytes dropped]\n'));
  assert.equal(
    log.length,
    (1 << 20) + '[aide: output truncated after 1048576 bytes; 103809032 bytes dropped]\n'.length,
  );
});

for (const [how, ending, status] of [
  ['process.exit()', 'process.exit(0)', 0],
  ['a crash', "setImmediate(() => { throw new Error('crash'); })", 1],
] as const) {
  test(`aide's own exit by ${how} kills every group still running`, (t) => {
    const dir = tempDir(t);
    const modulePath = fileURLToPath(new URL('./command-runner.js', import.meta.url));
    const script = `
      const { ProcessCommandRunner } = await import(${JSON.stringify(modulePath)});
      const isolation = { report: {}, wrap: (argv) => argv };
      const runner = new ProcessCommandRunner({ isolation });
      let seen = 0;
      void runner.run({ name: 'x', run: 'sleep 1006 & echo "pid $!"; echo "pid $$"; wait', cwd: ${JSON.stringify(dir)}, env: { PATH: '/usr/bin:/bin' },
        timeoutMs: 60000, logFile: ${JSON.stringify(join(dir, 'x.log'))}, maxLogBytes: 1000, tailBytes: 100,
        onLine: (line) => { process.stdout.write(line + '\\n'); if (line.startsWith('pid') && ++seen === 2) { ${ending}; } } });
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(child.status, status, child.stderr);
    const pids = pidLines(child.stdout.split('\n'));
    assert.equal(pids.length, 2, child.stdout + child.stderr);
    return assertGone(pids);
  });
}

test('a wrapper that cannot be spawned is a start error, not a rejection', async (t) => {
  const isolation: Isolation = {
    report: direct.report,
    wrap: (argv) => ['/nonexistent/aide-wrapper', ...argv],
  };
  const result = await new ProcessCommandRunner({ isolation }).run(command(tempDir(t), ['true']));
  assert.equal(result.startError, 'spawn /nonexistent/aide-wrapper ENOENT');
  assert.equal(result.exitCode, null);
});
