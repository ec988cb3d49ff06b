/**
 * A session around the act flow, with an in-memory session store (core/testing/fakes.ts; the
 * real one is infra/session, the whole thing end to end in test/e2e/act-resume.test.ts): a new
 * session recorded to its end, a resume that skips the steps done before, a plan changed since,
 * a killed write-back elsewhere, and a crash recorded as such.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError, ExitCode } from '../../shared/errors.js';
import type { AideEvent } from '../events.js';
import type { SessionPlan, SessionRecord } from '../ports/session-store.js';
import { FakeApprover, FakeRunner, FakeScratch, FakeSessionStore, FakeShadow } from '../testing/fakes.js';
import { writtenEdits, type ActStep } from './act.js';
import { ActSession, sessionExitCode, type SessionActInput } from './act-session.js';
import { drive } from './drive.js';
import { findResumable } from './session-select.js';

function edit(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

const STEPS: ActStep[] = [
  { number: 1, title: 'Greet', run: [], edits: edit('a.txt', 'hello', 'hello world') },
  { number: 2, title: 'Part', run: [], edits: edit('b.txt', 'bye', 'goodbye') },
];

const plan = (hashes: string[] = ['h1', 'h2'], planHash = 'p1'): SessionPlan => ({
  plan: '.aide/plans/plan.md',
  planHash,
  title: 'Plan',
  steps: STEPS.map((s, i) => ({ number: s.number, title: s.title, hash: hashes[i] ?? '' })),
  only: null,
});

function input(steps: readonly ActStep[] = STEPS): SessionActInput {
  return {
    steps,
    dryRun: false,
    commands: [{ name: 'test', run: ['npm', 'test'] }],
    policy: {
      timeoutMs: 1000,
      totalTimeoutMs: 10_000,
      flakeReruns: 0,
      tailBytes: 1024,
      maxLogBytes: 1 << 20,
      envAllow: [],
    },
    allowedCommands: [],
    protectedPaths: [],
    userEnv: {},
  };
}

function world() {
  const shadow = new FakeShadow();
  const workspace = new Map([
    ['a.txt', 'hello\n'],
    ['b.txt', 'bye\n'],
  ]);
  return { shadow, workspace, store: new FakeSessionStore(shadow, workspace) };
}

/** Opens the session and, if it goes on, carries out the steps: the events, the exit code, the log. */
async function carryOut(
  store: FakeSessionStore,
  request: { plan: SessionPlan; resuming: SessionRecord | null },
  approver = new FakeApprover(),
) {
  const session = new ActSession({ sessions: store, approver });
  const events: AideEvent[] = [];
  const push = (e: AideEvent) => {
    events.push(e);
  };
  const resuming = request.resuming === null ? null : findResumable(await store.list(), undefined, false);
  const opening = await drive(session.open({ plan: request.plan, dryRun: false, resuming }), push);
  if (opening.kind === 'ended')
    return { events, code: opening.exitCode, log: store.logs.at(-1), report: null };
  const open = opening.session;
  const scratch = new FakeScratch(store.shadow, open.session, opening.resume?.head ?? open.base);
  const runner = new FakeRunner();
  const report = await drive(
    session.carryOut(
      input(),
      { author: writtenEdits(), scratch, runner, fs: scratch.fs, approver, now: () => 0 },
      opening.resume,
    ),
    push,
  );
  const code = await session.end(report, null);
  return { events, code, log: store.logs.at(-1), report, runner };
}

/** A session that stopped after step 1 was applied (its checkpoint is the workspace with step 1 written). */
function stoppedAfterStep1(w: ReturnType<typeof world>, hashes = ['h1', 'h2']): SessionRecord {
  const base = w.shadow.checkpoint(w.shadow.tree(w.workspace));
  w.workspace.set('a.txt', 'hello world\n');
  const step1 = w.shadow.checkpoint(w.shadow.tree(w.workspace));
  const state: SessionRecord = {
    schema: 'aide.session/1',
    session: 'act-old',
    plan: '.aide/plans/plan.md',
    planHash: 'p1',
    title: 'Plan',
    dryRun: false,
    base,
    head: step1,
    status: 'stopped',
    only: null,
    startedAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:00.000Z',
    steps: [
      { number: 1, title: 'Greet', status: 'applied', checkpoint: step1, hash: hashes[0] ?? '', output: '' },
      { number: 2, title: 'Part', status: 'failed', checkpoint: null, hash: hashes[1] ?? '', output: null },
    ],
  };
  w.store.stored.push({ session: state.session, state, pendingWriteBack: null });
  return state;
}

test('a new session records every event before it is shown, and its end as finished', async () => {
  const w = world();
  const { events, code, log, report } = await carryOut(w.store, { plan: plan(), resuming: null });
  assert.equal(code, ExitCode.ok);
  assert.deepEqual(
    report?.steps.map((s) => s.status),
    ['applied', 'applied'],
  );
  assert.deepEqual(log?.events, events);
  assert.equal(log?.ended, 'finished');
  assert.deepEqual(
    log?.snapshot.steps.map((s) => s.status),
    ['applied', 'applied'],
  );
  assert.equal(w.workspace.get('b.txt'), 'goodbye\n');
});

test('a resumed session skips the steps done before and carries on from their checkpoint', async () => {
  const w = world();
  const state = stoppedAfterStep1(w);
  const { events, code, log, report, runner } = await carryOut(w.store, { plan: plan(), resuming: state });
  assert.equal(code, ExitCode.ok);
  const resumed = events.find((e) => e.type === 'session_resumed');
  assert.deepEqual(resumed?.type === 'session_resumed' ? resumed.done : null, [1]);
  assert.deepEqual(
    events.filter((e) => e.type === 'step_started').map((e) => (e.type === 'step_started' ? e.step : 0)),
    [2],
  );
  assert.equal(report?.steps[0]?.status, 'applied');
  assert.equal(report?.steps[0]?.checkpoint, state.head);
  assert.equal(report?.base, state.base);
  // Only step 2's verification ran.
  assert.deepEqual(
    runner?.calls.map((c) => c.logFile),
    ['/session/logs/step-2/01-test.log'],
  );
  assert.equal(log?.ended, 'finished');
  assert.equal(w.workspace.get('a.txt'), 'hello world\n');
  assert.equal(w.workspace.get('b.txt'), 'goodbye\n');
});

test('a plan changed since the session began is asked about; no leaves the session as it was', async () => {
  const w = world();
  const state = stoppedAfterStep1(w);
  const approver = new FakeApprover([], 'no');
  await assert.rejects(
    carryOut(w.store, { plan: plan(['h1', 'h2-new'], 'p2'), resuming: state }, approver),
    (error: unknown) => error instanceof AideError && error.code === 'aborted',
  );
  assert.equal(approver.questions.length, 1);
  assert.match(approver.questions[0] ?? '', /step 2 changed/);
  assert.equal(w.store.logs[0]?.ended, 'stopped');
  assert.equal(w.workspace.get('b.txt'), 'bye\n');
});

test('a plan changed since the session began, and carried on, runs the changed step as it is now', async () => {
  const w = world();
  const state = stoppedAfterStep1(w);
  const approver = new FakeApprover([], 'yes');
  const { code, log } = await carryOut(
    w.store,
    { plan: plan(['h1', 'h2-new'], 'p2'), resuming: state },
    approver,
  );
  assert.equal(code, ExitCode.ok);
  assert.equal(approver.questions.length, 1);
  assert.equal(log?.snapshot.planHash, 'p2');
  assert.equal(log?.snapshot.steps[1]?.hash, 'h2-new');
});

test('an unchanged plan is not asked about', async () => {
  const w = world();
  const state = stoppedAfterStep1(w);
  const approver = new FakeApprover([], 'no');
  const { code } = await carryOut(w.store, { plan: plan(), resuming: state }, approver);
  assert.equal(code, ExitCode.ok);
  assert.deepEqual(approver.questions, []);
});

test('a write-back killed half way in another session stops a new one before it starts', async () => {
  const w = world();
  stoppedAfterStep1(w);
  const first = w.store.stored[0];
  if (first !== undefined) first.pendingWriteBack = { step: 2, files: 1 };
  await assert.rejects(
    carryOut(w.store, { plan: plan(), resuming: null }),
    (error: unknown) => error instanceof AideError && error.code === 'workspace_conflict',
  );
  assert.equal(w.store.logs.length, 0);
});

test('an error in aide during the session is recorded as a crash; an expected error as stopped', async () => {
  for (const [error, ended, crashed] of [
    [new Error('a bug'), 'crashed', true],
    [new AideError('usage', 'expected'), 'stopped', false],
  ] as const) {
    const w = world();
    const session = new ActSession({ sessions: w.store, approver: new FakeApprover() });
    await drive(session.open({ plan: plan(), dryRun: false, resuming: null }), () => undefined);
    assert.equal(await session.fail(error), crashed);
    assert.equal(w.store.logs[0]?.ended, ended);
    // Recorded once: a second failure does not overwrite how it ended.
    assert.equal(await session.fail(error), false);
  }
});

test('exit codes: an interrupt wins, then conflict, abort, refusal, failure', () => {
  const report = (...statuses: string[]) =>
    ({ steps: statuses.map((status) => ({ status })) }) as unknown as Parameters<typeof sessionExitCode>[0];
  assert.equal(sessionExitCode(report('applied'), null), ExitCode.ok);
  assert.equal(sessionExitCode(report('applied'), 143), 143);
  assert.equal(sessionExitCode(report('cancelled'), null), 130);
  assert.equal(sessionExitCode(report('failed', 'conflict'), null), ExitCode.conflict);
  assert.equal(sessionExitCode(report('aborted', 'failed'), null), ExitCode.aborted);
  assert.equal(sessionExitCode(report('refused', 'failed'), null), ExitCode.approvalNeeded);
  assert.equal(sessionExitCode(report('failed'), null), ExitCode.failed);
});
