/**
 * state.json (aide.session/1) as an act session's events shape it, what the schema refuses, and
 * how sessions are found: newest first, a killed write-back noticed.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { StepReport } from '../../core/act-report.js';
import { tempDir } from '../../../test/helpers/sandbox.js';
import type { SessionPlan } from '../../core/ports/session-store.js';
import { ActSessionLog } from './act-session.js';
import { SessionFiles } from './session-files.js';
import { listSessionStates, sessionStateSchema } from './session-state.js';
import { writeWriteBackJournal } from './write-back-journal.js';

const BASE = 'b'.repeat(40);
const STEP1 = '1'.repeat(40);
const HASH = (n: number) => String(n).repeat(64);
const PLAN: SessionPlan = {
  plan: '.aide/plans/plan.md',
  planHash: 'f'.repeat(64),
  title: 'Two steps',
  only: null,
  steps: [
    { number: 1, title: 'One', hash: HASH(1) },
    { number: 2, title: 'Two', hash: HASH(2) },
  ],
};

function stepReport(
  number: number,
  status: StepReport['status'],
  checkpoint: string | null,
  output: string | null,
): StepReport {
  return {
    number,
    title: `Step ${number}`,
    status,
    reason: null,
    files: [],
    protectedFiles: [],
    verify: null,
    checkpoint,
    patchFile: null,
    output,
  };
}

function clock() {
  let ms = Date.parse('2026-01-01T00:00:00.000Z');
  return () => new Date((ms += 1000));
}

test('state.json follows the events: pending, running, applied with its output, the head moved, then the end', async (t) => {
  const files = await SessionFiles.create(tempDir(t), 'act-1');
  const log = await ActSessionLog.start(
    files,
    { session: 'act-1', dryRun: false, base: BASE },
    PLAN,
    clock(),
  );
  const read = () =>
    sessionStateSchema.parse(JSON.parse(readFileSync(join(files.dir, 'state.json'), 'utf8')));
  assert.deepEqual(
    read().steps.map((s) => s.status),
    ['pending', 'pending'],
  );
  assert.equal(read().head, BASE);
  await log.event({ type: 'step_started', step: 1, title: 'One' });
  assert.deepEqual(
    read().steps.map((s) => s.status),
    ['running', 'pending'],
  );
  await log.event({ type: 'step_finished', report: stepReport(1, 'applied', STEP1, '42') });
  assert.deepEqual(read().steps[0], {
    number: 1,
    title: 'One',
    status: 'applied',
    checkpoint: STEP1,
    hash: HASH(1),
    output: '42',
  });
  assert.equal(read().head, STEP1);
  await log.event({ type: 'step_started', step: 2, title: 'Two' });
  await log.event({ type: 'step_finished', report: stepReport(2, 'cancelled', null, null) });
  await log.end('interrupted', null);
  const state = read();
  assert.equal(state.status, 'interrupted');
  assert.equal(state.startedAt, '2026-01-01T00:00:01.000Z');
  assert.ok(state.updatedAt > state.startedAt);
  const audit = readFileSync(join(files.dir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; step: number | null });
  assert.deepEqual(
    audit.map((e) => `${e.type}:${e.step}`),
    ['step_started:1', 'step_finished:1', 'step_started:2', 'step_finished:2'],
  );
});

test('a resumed session adopts the plan as it is now: finished steps kept, the others pending again, removed ones gone', async (t) => {
  const files = await SessionFiles.create(tempDir(t), 'act-1');
  const log = await ActSessionLog.start(
    files,
    { session: 'act-1', dryRun: false, base: BASE },
    PLAN,
    clock(),
  );
  await log.event({ type: 'step_finished', report: stepReport(1, 'applied', STEP1, '42') });
  await log.event({ type: 'step_finished', report: stepReport(2, 'failed', null, null) });
  await log.end('stopped', null);
  const resumed = await ActSessionLog.resume(files, log.snapshot, clock());
  assert.equal(resumed.snapshot.status, 'running');
  const edited: SessionPlan = {
    ...PLAN,
    planHash: 'e'.repeat(64),
    steps: [
      { number: 1, title: 'One, reworded', hash: HASH(7) },
      { number: 3, title: 'Three', hash: HASH(3) },
    ],
  };
  await resumed.adoptPlan(edited, [{ number: 1, status: 'applied', checkpoint: STEP1, output: '42' }], []);
  const state = resumed.snapshot;
  assert.equal(state.planHash, 'e'.repeat(64));
  assert.deepEqual(state.steps, [
    { number: 1, title: 'One, reworded', status: 'applied', checkpoint: STEP1, hash: HASH(7), output: '42' },
    { number: 3, title: 'Three', status: 'pending', checkpoint: null, hash: HASH(3), output: null },
  ]);
});

test("a resumed session keeps a finished step's attempts and the failed ones a step carries on from", async (t) => {
  const files = await SessionFiles.create(tempDir(t), 'act-1');
  const log = await ActSessionLog.start(
    files,
    { session: 'act-1', dryRun: false, base: BASE },
    PLAN,
    clock(),
  );
  const finish = (step: number, attempt: number, passed: boolean) =>
    log.event({
      type: 'attempt_finished',
      step,
      attempt,
      passed,
      reason: passed ? null : 'failed: test',
      feedback: passed ? null : 'Failing tests: sub',
    });
  await log.event({ type: 'step_started', step: 1, title: 'One' });
  await finish(1, 1, false);
  await finish(1, 2, true);
  await log.event({ type: 'step_finished', report: stepReport(1, 'applied', STEP1, null) });
  await log.event({ type: 'step_started', step: 2, title: 'Two' });
  await finish(2, 1, false);
  const resumed = await ActSessionLog.resume(files, log.snapshot, clock());
  await resumed.adoptPlan(
    PLAN,
    [{ number: 1, status: 'applied', checkpoint: STEP1, output: null }],
    [{ step: 2, attempts: [{ attempt: 1, reason: 'failed: test', feedback: 'Failing tests: sub' }] }],
  );
  const [one, two] = resumed.snapshot.steps;
  assert.deepEqual(
    one?.attempts?.map((a) => [a.attempt, a.passed]),
    [
      [1, false],
      [2, true],
    ],
  );
  assert.deepEqual(two?.attempts, [
    { attempt: 1, passed: false, reason: 'failed: test', feedback: 'Failing tests: sub' },
  ]);
  assert.equal(two?.status, 'pending');
});

test('sessions are listed newest first; a state.json that is not aide.session/1 is listed but not parsed; a journal is noticed', async (t) => {
  const stateDir = tempDir(t);
  const older = await SessionFiles.create(stateDir, 'act-older');
  await ActSessionLog.start(
    older,
    { session: 'act-older', dryRun: false, base: BASE },
    PLAN,
    () => new Date('2026-01-01T00:00:00.000Z'),
  );
  const newer = await SessionFiles.create(stateDir, 'act-newer');
  await ActSessionLog.start(
    newer,
    { session: 'act-newer', dryRun: true, base: BASE },
    PLAN,
    () => new Date('2026-01-02T00:00:00.000Z'),
  );
  await writeWriteBackJournal(older.dir, {
    step: 2,
    checkpoint: STEP1,
    from: BASE,
    output: null,
    pid: 1,
    startedAt: 'then',
    changes: [],
  });
  const ancient = await SessionFiles.create(stateDir, 'act-ancient');
  writeFileSync(
    join(ancient.dir, 'state.json'),
    JSON.stringify({ schema: 'aide.session/1', session: 'act-ancient', status: 'stopped', steps: [] }),
  );
  const found = await listSessionStates(stateDir);
  const newest = found.findIndex((s) => s.session === 'act-newer');
  assert.ok(newest < found.findIndex((s) => s.session === 'act-older'));
  const oldest = found.find((s) => s.session === 'act-ancient');
  assert.equal(oldest?.state, null);
  assert.deepEqual(oldest?.raw, {
    schema: 'aide.session/1',
    session: 'act-ancient',
    status: 'stopped',
    steps: [],
  });
  assert.deepEqual(found.find((s) => s.session === 'act-older')?.pendingWriteBack, { step: 2, files: 0 });
  assert.equal(found[newest]?.pendingWriteBack, null);
});

test('the schema refuses a state with an unknown status or a step without its hash', () => {
  const valid = {
    schema: 'aide.session/1',
    session: 'act-1',
    plan: 'p.md',
    planHash: 'f'.repeat(64),
    title: 'T',
    dryRun: false,
    base: BASE,
    head: BASE,
    status: 'running',
    startedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    steps: [{ number: 1, title: 'One', status: 'pending', checkpoint: null, hash: HASH(1), output: null }],
  };
  assert.ok(sessionStateSchema.safeParse(valid).success);
  assert.equal(sessionStateSchema.safeParse({ ...valid, status: 'paused' }).success, false);
  assert.equal(
    sessionStateSchema.safeParse({
      ...valid,
      steps: [{ number: 1, title: 'One', status: 'pending', checkpoint: null, output: null }],
    }).success,
    false,
  );
  assert.equal(sessionStateSchema.safeParse({ ...valid, schema: 'aide.session/2' }).success, false);
});
