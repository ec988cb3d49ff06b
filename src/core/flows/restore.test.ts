import assert from 'node:assert/strict';
import { test } from 'node:test';
import { approvalText } from '../../cli/render/approval.js';
import type { AideEvent } from '../events.js';
import type { Approval, YesNoSubject } from '../ports/approval.js';
import type {
  CheckpointRecord,
  CheckpointRequest,
  CheckpointResult,
  PendingRestore,
  RestoreOutcome,
  RestorePlan,
  Restorer,
} from '../ports/checkpoints.js';
import { restoreFlow, type RestoreReport } from './restore.js';

function record(id: string, reason = 'manual'): CheckpointRecord {
  return {
    id: id.padEnd(40, '0'),
    short: id,
    time: '2026-01-01T00:00:00.000Z',
    session: 's',
    reason,
    message: 'm',
    step: null,
    verdict: null,
    skipped: [],
    filesChanged: 1,
  };
}

const TARGET = record('aaaa');

function plan(changes: RestorePlan['changes']): RestorePlan {
  return { target: TARGET, changes, leftAlone: [] };
}

/** A restorer that records what the flow asked of it, in order. */
class FakeRestorer implements Restorer {
  calls: string[] = [];
  constructor(
    private readonly next: RestorePlan,
    private readonly pending: PendingRestore | null = null,
  ) {}
  pendingRestore(): Promise<PendingRestore | null> {
    this.calls.push('pending');
    return Promise.resolve(this.pending);
  }
  recover(): Promise<number> {
    this.calls.push('recover');
    return Promise.resolve(2);
  }
  planRestore(target: string): Promise<RestorePlan> {
    this.calls.push(`plan ${target}`);
    return Promise.resolve(this.next);
  }
  applyRestore(
    _plan: RestorePlan,
    safety: CheckpointRecord,
    pending: PendingRestore | null,
  ): Promise<RestoreOutcome> {
    this.calls.push(`apply after ${safety.short}${pending === null ? '' : ' resuming'}`);
    return Promise.resolve({ written: 1, removed: 1, foldersRemoved: ['gone'] });
  }
  finishPending(): Promise<RestoreOutcome> {
    this.calls.push('finish');
    return Promise.resolve({ written: 0, removed: 0, foldersRemoved: ['left-empty'] });
  }
}

function checkpointer(calls: string[]) {
  return {
    checkpoint: (request: CheckpointRequest): Promise<CheckpointResult> => {
      calls.push(`checkpoint ${request.reason}`);
      return Promise.resolve({ checkpoint: record('safe', request.reason), created: true, skipped: [] });
    },
  };
}

function approver(answer: Approval, calls: string[]) {
  return {
    confirm: (subject: YesNoSubject): Promise<Approval> => {
      // Worded as the CLI asks it.
      calls.push(`ask: ${approvalText(subject).question}`);
      return Promise.resolve(answer);
    },
    reviewStep: () => Promise.reject(new Error('restore never reviews a step')),
  };
}

async function run(
  restorer: FakeRestorer,
  answer: Approval,
  dryRun = false,
): Promise<{ events: AideEvent[]; report: RestoreReport }> {
  const flow = restoreFlow(
    { target: 'aaaa', dryRun },
    { restorer, checkpointer: checkpointer(restorer.calls), approver: approver(answer, restorer.calls) },
  );
  const events: AideEvent[] = [];
  let step = await flow.next();
  while (step.done !== true) {
    events.push(step.value);
    step = await flow.next();
  }
  return { events, report: step.value };
}

const TWO_CHANGES: RestorePlan['changes'] = [
  { path: 'new.txt', action: 'deleted', kind: null },
  { path: 'a.txt', action: 'modified', kind: 'file' },
];

test('restore: plan, ask, safety checkpoint, then write; the safety checkpoint undoes it', async () => {
  const restorer = new FakeRestorer(plan(TWO_CHANGES));
  const { events, report } = await run(restorer, 'yes');
  assert.deepEqual(restorer.calls, [
    'pending',
    'plan aaaa',
    'ask: Restore checkpoint aaaa: write 1 file and remove 1 file?',
    'checkpoint restore-safety',
    'apply after safe',
  ]);
  assert.deepEqual(
    events.map((e) => e.type),
    [
      'restore_planned',
      'approval_requested',
      'approval_decided',
      'checkpoint_created',
      'files_restored',
      'restore_finished',
    ],
  );
  assert.equal(report.result, 'restored');
  assert.equal(report.undo?.short, 'safe');
  assert.deepEqual([report.written, report.removed, report.foldersRemoved], [1, 1, ['gone']]);
});

test('restore: a no writes nothing and takes no checkpoint', async () => {
  const restorer = new FakeRestorer(plan(TWO_CHANGES));
  const { report } = await run(restorer, 'no');
  assert.equal(report.result, 'declined');
  assert.ok(!restorer.calls.some((c) => c.startsWith('checkpoint') || c.startsWith('apply')));
});

test('restore: a dry run neither asks nor writes nor recovers', async () => {
  const pending: PendingRestore = {
    target: TARGET,
    safety: record('safe'),
    undo: record('orig'),
    startedAt: 'then',
    pid: 1,
  };
  const restorer = new FakeRestorer(plan(TWO_CHANGES), pending);
  const { report } = await run(restorer, 'yes', true);
  assert.deepEqual(restorer.calls, ['pending', 'plan aaaa']);
  assert.equal(report.result, 'dry-run');
  assert.equal(report.pending, pending);
});

test('restore: nothing differs, nothing asked', async () => {
  const restorer = new FakeRestorer(plan([]));
  const { report } = await run(restorer, 'no');
  assert.deepEqual(restorer.calls, ['pending', 'plan aaaa']);
  assert.equal(report.result, 'already-there');
});

test('restore: finishing an interrupted restore to the same checkpoint undoes to the state before the first run', async () => {
  const pending: PendingRestore = {
    target: TARGET,
    safety: record('safe1'),
    undo: record('orig'),
    startedAt: 'then',
    pid: 1,
  };
  const restorer = new FakeRestorer(plan(TWO_CHANGES), pending);
  const { events, report } = await run(restorer, 'yes');
  assert.deepEqual(restorer.calls.slice(0, 3), ['pending', 'recover', 'plan aaaa']);
  assert.ok(restorer.calls.includes('apply after safe resuming'));
  assert.deepEqual(events[0], { type: 'restore_pending', pending, tempFilesRemoved: 2 });
  assert.equal(report.undo?.short, 'orig');
});

test('restore: an interrupted restore with every file already written only finishes up', async () => {
  const pending: PendingRestore = {
    target: TARGET,
    safety: record('safe1'),
    undo: record('orig'),
    startedAt: 'then',
    pid: 1,
  };
  const restorer = new FakeRestorer(plan([]), pending);
  const { report } = await run(restorer, 'no');
  assert.deepEqual(restorer.calls, ['pending', 'recover', 'plan aaaa', 'finish']);
  assert.equal(report.result, 'restored');
  assert.deepEqual(report.foldersRemoved, ['left-empty']);
  assert.equal(report.undo?.short, 'orig');
});

test("restore: restoring elsewhere while one is pending undoes to this run's safety checkpoint", async () => {
  const pending: PendingRestore = {
    target: record('bbbb'),
    safety: record('safe1'),
    undo: record('orig'),
    startedAt: 'then',
    pid: 1,
  };
  const restorer = new FakeRestorer(plan(TWO_CHANGES), pending);
  const { report } = await run(restorer, 'yes');
  assert.equal(report.undo?.short, 'safe');
});
