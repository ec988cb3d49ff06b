/**
 * The verify flow's decisions, with a scripted runner standing in for processes (the real
 * runner is tested in infra/process and end to end in test/e2e/verify*.test.ts): order, stop at
 * the first failure, flake reruns, the total time limit, cancellation, the environment given.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AideEvent } from '../events.js';
import type { CommandResult, CommandRun, CommandRunner, IsolationReport } from '../ports/commands.js';
import type { VerifyReport } from '../verify/report.js';
import { verifyFlow, type VerifyCommand, type VerifyPolicy } from './verify.js';

const ISOLATED: IsolationReport = {
  mechanism: 'unshare',
  network: 'off',
  workspaceReadOnly: true,
  writable: 'scratch',
  sockets: 'hidden',
  processTree: 'namespace',
  detail: null,
};

type Script = (
  run: CommandRun,
  clock: { ms: number },
) => Partial<CommandResult> & { lines?: string[]; takesMs?: number };

class ScriptedRunner implements CommandRunner {
  readonly calls: CommandRun[] = [];
  constructor(
    private readonly script: Script,
    readonly clock: { ms: number },
    readonly isolation: IsolationReport = ISOLATED,
  ) {}

  run(command: CommandRun): Promise<CommandResult> {
    this.calls.push(command);
    const outcome = this.script(command, this.clock);
    for (const line of outcome.lines ?? []) command.onLine?.(line);
    const takes = Math.min(outcome.takesMs ?? 10, command.timeoutMs);
    this.clock.ms += takes;
    const timedOut = (outcome.takesMs ?? 0) > command.timeoutMs;
    return Promise.resolve({
      exitCode: timedOut ? null : 0,
      signal: timedOut ? 'SIGKILL' : null,
      timedOut,
      cancelled: false,
      truncated: false,
      durationMs: takes,
      outputBytes: 0,
      tail: (outcome.lines ?? []).join('\n'),
      startError: null,
      ...outcome,
    });
  }
}

const POLICY: VerifyPolicy = {
  timeoutMs: 1000,
  totalTimeoutMs: 10_000,
  flakeReruns: 1,
  tailBytes: 2048,
  maxLogBytes: 1 << 20,
  envAllow: [],
};

async function verify(
  commands: VerifyCommand[],
  runner: ScriptedRunner,
  policy: Partial<VerifyPolicy> = {},
  extra: { env?: Record<string, string>; signal?: AbortSignal } = {},
) {
  const events: AideEvent[] = [];
  const flow = verifyFlow(
    {
      cwd: '/scratch',
      commands,
      policy: { ...POLICY, ...policy },
      userEnv: extra.env ?? { PATH: '/bin' },
      logDir: '/logs',
      ...(extra.signal === undefined ? {} : { signal: extra.signal }),
    },
    { runner, now: () => runner.clock.ms },
  );
  let step = await flow.next();
  while (step.done !== true) {
    events.push(step.value);
    step = await flow.next();
  }
  return { report: step.value, events };
}

const statuses = (report: VerifyReport) => report.commands.map((c) => `${c.name}:${c.status}`);

test('commands run in order and all pass', async () => {
  const runner = new ScriptedRunner(() => ({}), { ms: 0 });
  const { report } = await verify(
    [
      { name: 'a', run: ['a'] },
      { name: 'b', run: 'b --x' },
    ],
    runner,
  );
  assert.deepEqual(
    runner.calls.map((c) => c.name),
    ['a', 'b'],
  );
  assert.equal(report.verdict, 'passed');
  assert.equal(report.summary, 'verified: 2 commands');
  assert.deepEqual(
    runner.calls.map((c) => c.logFile),
    ['/logs/01-a.log', '/logs/02-b.log'],
  );
});

test('the first failure stops the run; later commands are not run', async () => {
  const runner = new ScriptedRunner((run) => (run.name === 'b' ? { exitCode: 2 } : {}), { ms: 0 });
  const { report } = await verify(
    [
      { name: 'a', run: ['a'] },
      { name: 'b', run: ['b'] },
      { name: 'c', run: ['c'] },
    ],
    runner,
    { flakeReruns: 0 },
  );
  assert.deepEqual(statuses(report), ['a:passed', 'b:failed', 'c:not_run']);
  assert.equal(report.verdict, 'failed');
  assert.equal(report.summary, 'failed: b exited 2');
});

test('a failure then a pass is flaky and counts as passed; both runs have their own log', async () => {
  let runs = 0;
  const runner = new ScriptedRunner(() => (++runs === 1 ? { exitCode: 1 } : {}), { ms: 0 });
  const { report, events } = await verify([{ name: 'test', run: ['t'] }], runner);
  assert.deepEqual(statuses(report), ['test:flaky']);
  assert.equal(report.verdict, 'passed');
  assert.equal(report.summary, 'verified: 1 command (flaky: test)');
  assert.deepEqual(
    report.commands[0]?.runs.map((r) => r.logPath),
    ['/logs/01-test.log', '/logs/01-test.run2.log'],
  );
  assert.deepEqual(
    events.filter((e) => e.type === 'command_finished').map((e) => e.rerun),
    [true, false],
  );
});

test('tests are counted from the output lines, and the failing count is in the summary', async () => {
  const runner = new ScriptedRunner(
    () => ({
      exitCode: 1,
      lines: [
        '# tests 41',
        '# suites 0',
        '# pass 38',
        '# fail 3',
        '# cancelled 0',
        '# skipped 0',
        '# todo 0',
      ],
    }),
    { ms: 0 },
  );
  const { report } = await verify([{ name: 'test', run: ['t'] }], runner, { flakeReruns: 0 });
  assert.deepEqual(report.commands[0]?.tests, {
    runner: 'node:test',
    passed: 38,
    failed: 3,
    skipped: 0,
    total: 41,
  });
  assert.equal(report.summary, 'failed: test exited 1 (3 of 41 tests failed)');
});

test('a command timeout overrides the policy, and the total limit shortens the last command', async () => {
  const runner = new ScriptedRunner((run) => ({ takesMs: run.name === 'slow' ? 5000 : 900 }), { ms: 0 });
  const { report } = await verify(
    [
      { name: 'quick', run: ['q'], timeoutMs: 3000 },
      { name: 'slow', run: ['s'], timeoutMs: 9000 },
    ],
    runner,
    { totalTimeoutMs: 4000, flakeReruns: 0 },
  );
  assert.deepEqual(
    runner.calls.map((c) => c.timeoutMs),
    [3000, 3100],
  );
  assert.deepEqual(statuses(report), ['quick:passed', 'slow:timed_out']);
  assert.equal(report.summary, 'failed: slow timed out after 3.1 s');
});

test('when the total limit is spent, the remaining commands are not run and the verdict says why', async () => {
  const runner = new ScriptedRunner(() => ({ takesMs: 2000 }), { ms: 0 });
  const { report } = await verify(
    [
      { name: 'a', run: ['a'] },
      { name: 'b', run: ['b'] },
    ],
    runner,
    { timeoutMs: 5000, totalTimeoutMs: 2000 },
  );
  assert.deepEqual(statuses(report), ['a:passed', 'b:not_run']);
  assert.equal(report.verdict, 'failed');
  assert.equal(report.summary, 'failed: the total time limit of 2.0 s ran out before b');
});

test('an abort stops the run: the running command is cancelled, the rest not run', async () => {
  const controller = new AbortController();
  const runner = new ScriptedRunner(
    (run) => {
      if (run.name === 'b') controller.abort();
      return run.name === 'b' ? { exitCode: null, signal: 'SIGTERM', cancelled: true } : {};
    },
    { ms: 0 },
  );
  const { report } = await verify(
    [
      { name: 'a', run: ['a'] },
      { name: 'b', run: ['b'] },
      { name: 'c', run: ['c'] },
    ],
    runner,
    {},
    { signal: controller.signal },
  );
  assert.deepEqual(statuses(report), ['a:passed', 'b:cancelled', 'c:not_run']);
  assert.equal(report.verdict, 'cancelled');
  assert.equal(runner.calls.length, 2, 'a cancelled command is not rerun by the flake guard');
});

test('commands get a filtered environment: credentials withheld, their own env and the network flag set', async () => {
  const runner = new ScriptedRunner(() => ({}), { ms: 0 });
  const env = { PATH: '/bin', GITHUB_TOKEN: 'ghp_canary', GIT_DIR: '/repo/.git', LANG: 'C.UTF-8' };
  const { report, events } = await verify(
    [{ name: 'a', run: ['a'], env: { MODE: 'ci' } }],
    runner,
    {},
    { env },
  );
  const given = runner.calls[0]?.env ?? {};
  assert.equal(given['GITHUB_TOKEN'], undefined);
  assert.equal(given['GIT_DIR'], undefined);
  assert.equal(given['LANG'], 'C.UTF-8');
  assert.equal(given['MODE'], 'ci');
  assert.equal(given['AIDE_SANDBOX_NETWORK_DISABLED'], '1');
  assert.deepEqual(report.withheldEnv, ['GITHUB_TOKEN']);
  assert.ok(!JSON.stringify(events).includes('ghp_canary'), 'a withheld value appears in no event');
});

test('network allowed: the flag is not set', async () => {
  const runner = new ScriptedRunner(() => ({}), { ms: 0 }, { ...ISOLATED, network: 'allowed' });
  await verify([{ name: 'a', run: ['a'] }], runner);
  assert.equal(runner.calls[0]?.env['AIDE_SANDBOX_NETWORK_DISABLED'], undefined);
});
