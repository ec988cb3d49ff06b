/**
 * The start of a resumed act session, with a recorder standing in for the shadow (the real one
 * is tested in infra/shadow, the whole thing end to end in test/e2e/act-resume.test.ts): which
 * steps changed, the roll-forward of a killed write-back, and the question about a changed plan.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { approvalText } from '../../cli/render/approval.js';
import { describePlanChanges } from '../../cli/render/plan-changes.js';
import type { AideEvent } from '../events.js';
import type { ChangedFile } from '../ports/changes.js';
import type { Approval } from '../ports/approval.js';
import type { CheckpointRecord } from '../ports/checkpoints.js';
import type { PendingWriteBack, SessionRecorder, WriteBackResult } from '../ports/session.js';
import {
  comparePlanSteps,
  earlierAttempts,
  resumeFlow,
  type RecordedStep,
  type ResumeInput,
  type ResumeOutcome,
} from './act-resume.js';

const id = (c: string) => c.repeat(40);

function recorded(number: number, status: RecordedStep['status'], hash = `h${number}`): RecordedStep {
  return {
    number,
    title: `Step ${number}`,
    status,
    checkpoint: status === 'applied' ? id(String(number)) : null,
    hash,
    output: status === 'applied' ? `out ${number}` : null,
  };
}

const PATCH =
  'diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n';

class FakeRecorder implements SessionRecorder {
  calls: string[] = [];
  constructor(
    private readonly pending: PendingWriteBack | null = null,
    private readonly result: WriteBackResult = { written: 1, conflicts: [] },
  ) {}
  checkpointTree(): Promise<CheckpointRecord> {
    throw new Error('a resume takes no checkpoint');
  }
  writeBack(): Promise<WriteBackResult> {
    throw new Error('a resume writes back only what was pending');
  }
  pendingWriteBack(): Promise<PendingWriteBack | null> {
    return Promise.resolve(this.pending);
  }
  finishWriteBack(pending: PendingWriteBack): Promise<WriteBackResult> {
    this.calls.push(`finish ${pending.step}`);
    return Promise.resolve(this.result);
  }
  diff(from: string, to: string): Promise<string> {
    this.calls.push(`diff ${from.slice(0, 1)} ${to.slice(0, 1)}`);
    return Promise.resolve(PATCH);
  }
  changedFiles(): Promise<ChangedFile[]> {
    return Promise.resolve([{ path: 'a.txt', action: 'modified', added: 1, removed: 1, diff: PATCH }]);
  }
  readBlob(): Promise<Uint8Array> {
    return Promise.reject(new Error('a resume reads no blob'));
  }

  saveFile(name: string): Promise<string> {
    this.calls.push(`save ${name}`);
    return Promise.resolve(`/session/${name}`);
  }
}

async function resume(input: Partial<ResumeInput>, recorder: FakeRecorder, answer: Approval = 'yes') {
  const questions: string[] = [];
  const full: ResumeInput = {
    session: 'act-1',
    dryRun: false,
    head: id('1'),
    recorded: [recorded(1, 'applied'), recorded(2, 'cancelled')],
    steps: [
      { number: 1, title: 'Step 1', hash: 'h1' },
      { number: 2, title: 'Step 2', hash: 'h2' },
    ],
    planChanged: false,
    ...input,
  };
  const flow = resumeFlow(full, {
    recorder,
    approver: {
      confirm: (s) => (questions.push(approvalText(s).question), Promise.resolve(answer)),
      reviewStep: () => Promise.reject(new Error('a resume reviews no step')),
    },
  });
  const events: AideEvent[] = [];
  let next = await flow.next();
  while (next.done !== true) {
    events.push(next.value);
    next = await flow.next();
  }
  const outcome: ResumeOutcome = next.value;
  return { events, outcome, questions };
}

test('changed, added and removed steps are found by number and hash; finished ones are said not to be redone', () => {
  const before = [
    recorded(1, 'applied'),
    recorded(2, 'skipped'),
    recorded(3, 'failed'),
    recorded(4, 'pending'),
    recorded(5, 'applied'),
  ];
  const now = [
    { number: 1, hash: 'h1 edited' },
    { number: 2, hash: 'h2' },
    { number: 3, hash: 'h3 edited' },
    { number: 6, hash: 'h6' },
  ];
  const changes = comparePlanSteps(before, now);
  assert.deepEqual(changes, [
    { step: 1, kind: 'changed', done: true },
    { step: 3, kind: 'changed', done: false },
    { step: 4, kind: 'removed', done: false },
    { step: 5, kind: 'removed', done: true },
    { step: 6, kind: 'added', done: false },
  ]);
  assert.deepEqual(describePlanChanges(changes), [
    'step 1 changed, but it was done before the interruption: not redone',
    'step 3 changed: it runs as the plan has it now',
    'step 4 was removed from the plan: it will not run',
    'step 5 was removed from the plan; it was done before the interruption, so its changes stay',
    'step 6 is new',
  ]);
});

test('an unchanged plan: the finished steps and the head carry over, nothing is asked', async () => {
  const { events, outcome, questions } = await resume({}, new FakeRecorder());
  assert.deepEqual(events, [
    { type: 'session_resumed', session: 'act-1', done: [1], writeBack: null, planChanges: null },
  ]);
  assert.deepEqual(questions, []);
  assert.deepEqual(outcome, {
    kind: 'carry_on',
    resume: { head: id('1'), done: [{ number: 1, status: 'applied', checkpoint: id('1'), output: 'out 1' }] },
  });
});

test('a changed plan is asked about; no means the session does not go on', async () => {
  const steps = [
    { number: 1, title: 'Step 1', hash: 'h1' },
    { number: 2, title: 'Step 2', hash: 'h2 edited' },
  ];
  const { events, outcome, questions } = await resume({ planChanged: true, steps }, new FakeRecorder(), 'no');
  assert.deepEqual(questions, [
    'The plan changed since the session stopped (step 2 changed). Carry on with the plan as it is now?',
  ]);
  assert.deepEqual(
    events.map((e) => e.type),
    ['session_resumed', 'approval_requested', 'approval_decided'],
  );
  assert.deepEqual(outcome, { kind: 'declined' });
  const dry = await resume({ planChanged: true, steps, dryRun: true }, new FakeRecorder(), 'no');
  assert.deepEqual(dry.questions, [], 'a dry run writes nothing, so it does not ask');
  assert.equal(dry.outcome.kind, 'carry_on');
});

const PENDING: PendingWriteBack = {
  step: 2,
  checkpoint: id('2'),
  from: id('1'),
  output: 'out 2',
  pid: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  changes: [],
};

test('a write-back killed half way is finished first: the step is applied, and it is the new head', async () => {
  const recorder = new FakeRecorder(PENDING);
  // Step 2 changed in the plan too: it was approved and checkpointed, so it counts as done.
  const steps = [
    { number: 1, title: 'Step 1', hash: 'h1' },
    { number: 2, title: 'Step 2', hash: 'h2 edited' },
  ];
  const { events, outcome } = await resume({ planChanged: true, steps }, recorder);
  assert.deepEqual(recorder.calls, ['finish 2', 'diff 1 2']);
  assert.deepEqual(
    events.map((e) => (e.type === 'step_finished' ? `${e.type} ${e.report.status}` : e.type)),
    [
      'session_resumed',
      'step_started',
      'patch_applied',
      'step_finished applied',
      'approval_requested',
      'approval_decided',
    ],
  );
  const resumed = events[0];
  assert.ok(resumed?.type === 'session_resumed');
  assert.deepEqual(resumed.writeBack, { step: 2, files: 0 });
  assert.deepEqual(resumed.planChanges, [{ step: 2, kind: 'changed', done: true }]);
  assert.deepEqual(outcome, {
    kind: 'carry_on',
    resume: {
      head: id('2'),
      done: [
        { number: 1, status: 'applied', checkpoint: id('1'), output: 'out 1' },
        { number: 2, status: 'applied', checkpoint: id('2'), output: 'out 2' },
      ],
    },
  });
});

test('a write-back that cannot be finished (a file changed meanwhile) is a conflict: the verified patch is saved', async () => {
  const recorder = new FakeRecorder(PENDING, {
    written: 0,
    conflicts: [{ path: 'a.txt', reason: 'changed' }],
  });
  const { events, outcome } = await resume({}, recorder);
  assert.deepEqual(recorder.calls, ['finish 2', 'diff 1 2', 'save step-2.patch']);
  assert.equal(events.at(-1)?.type, 'step_finished');
  assert.ok(outcome.kind === 'conflict');
  assert.equal(outcome.report.status, 'conflict');
  assert.equal(outcome.report.patchFile, '/session/step-2.patch');
  assert.match(outcome.report.reason ?? '', /a\.txt \(changed\)/);
});

test('a journal left after state.json recorded its step (killed in between) is finished again, and the step listed once', async () => {
  const { outcome } = await resume(
    {
      recorded: [recorded(1, 'applied'), { ...recorded(2, 'applied'), checkpoint: id('2'), output: 'out 2' }],
      head: id('2'),
    },
    new FakeRecorder(PENDING),
  );
  assert.ok(outcome.kind === 'carry_on');
  assert.deepEqual(
    outcome.resume.done.map((d) => d.number),
    [1, 2],
  );
  assert.equal(outcome.resume.head, id('2'));
});

test('the attempts a resumed step carries on from: its failed ones, unless the step changed or finished', () => {
  const attempts = [
    { attempt: 1, passed: false, reason: 'failed: test', feedback: 'Failing tests: sub' },
    { attempt: 2, passed: true, reason: null },
  ];
  const steps = [
    { ...recorded(1, 'applied'), attempts },
    { ...recorded(2, 'running'), attempts },
    { ...recorded(3, 'running', 'old'), attempts },
    recorded(4, 'pending'),
  ];
  const now = [1, 2, 3, 4].map((n) => ({ number: n, hash: `h${n}` }));
  assert.deepEqual(earlierAttempts(steps, now), [
    // The passed attempt was stopped at its review: it is made again, as attempt 2.
    { step: 2, attempts: [{ attempt: 1, reason: 'failed: test', feedback: 'Failing tests: sub' }] },
  ]);
});
