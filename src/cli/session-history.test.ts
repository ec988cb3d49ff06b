import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Checkpoint } from '../infra/shadow/checkpoints.js';
import type { FoundSession, SessionState } from '../infra/session/session-state.js';
import { findSession, replayRestores, sessionUndo } from './session-history.js';

const id = (n: number) => n.toString(16).padStart(4, '0').repeat(10);
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute)).toISOString();

function checkpoint(
  n: number,
  minute: number,
  session: string,
  reason: string,
  message = reason,
): Checkpoint {
  return {
    id: id(n),
    short: id(n).slice(0, 10),
    tree: id(1000 + n),
    parent: null,
    time: at(minute),
    session,
    reason,
    message,
    step: null,
    verdict: null,
    skipped: [],
    filesChanged: 1,
    watched: 0,
  };
}

function session(
  name: string,
  minute: number,
  base: number,
  steps: Array<[number, string, number | null]>,
  dryRun = false,
): FoundSession {
  const state: SessionState = {
    schema: 'aide.session/1',
    session: name,
    plan: 'p.md',
    planHash: '0'.repeat(64),
    title: 't',
    dryRun,
    base: id(base),
    head: id(base),
    status: 'finished',
    only: null,
    startedAt: at(minute),
    updatedAt: at(minute),
    steps: steps.map(([number, status, cp]) => ({
      number,
      title: `s${number}`,
      status: status as SessionState['steps'][number]['status'],
      checkpoint: cp === null ? null : id(cp),
      hash: '0'.repeat(64),
      output: null,
    })),
  };
  return {
    session: name,
    dir: '',
    state,
    raw: state,
    updated: Date.parse(state.updatedAt),
    pendingWriteBack: null,
  };
}

const restore = (n: number, minute: number, target: number) =>
  checkpoint(
    n,
    minute,
    `restore-safety-${n}`,
    'restore-safety',
    `before aide restore ${id(target).slice(0, 10)}`,
  );

test('a restore to before a step marks it undone; restoring its safety checkpoint puts it back', () => {
  const a = session('act-a', 1, 1, [
    [1, 'applied', 2],
    [2, 'applied', 3],
  ]);
  const checkpoints = [
    checkpoint(1, 1, 'act-a', 'act'),
    checkpoint(2, 2, 'act-a', 'step'),
    checkpoint(3, 3, 'act-a', 'step'),
    restore(4, 5, 2),
  ];
  const undone = replayRestores([a], checkpoints);
  const undo = sessionUndo(a, [a], undone);
  assert.deepEqual(
    undo.applied.map((s) => [s.step, s.undoneBy?.target ?? null]),
    [
      [1, null],
      [2, id(2)],
    ],
    'the restore to step 1 took out step 2 only',
  );
  assert.equal(undo.undo, id(1));

  const redone = replayRestores([a], [...checkpoints, restore(5, 6, 4)]);
  assert.deepEqual(
    sessionUndo(a, [a], redone).applied.map((s) => s.undoneBy),
    [null, null],
  );

  const all = replayRestores([a], [...checkpoints, restore(5, 6, 1)]);
  const none = sessionUndo(a, [a], all);
  assert.equal(none.undo, null, 'everything restored away: nothing left to undo');
});

test('dry runs and steps that wrote nothing have nothing to undo; later sessions are counted', () => {
  const dry = session('act-dry', 1, 1, [[1, 'verified', 2]], true);
  const failed = session('act-failed', 2, 3, [[1, 'failed', null]]);
  const first = session('act-1', 3, 4, [[1, 'applied', 5]]);
  const later = session('act-2', 4, 6, [[2, 'applied', 7]]);
  const all = [later, first, failed, dry];
  const checkpoints = [
    checkpoint(1, 1, 'act-dry', 'act'),
    checkpoint(2, 1, 'act-dry', 'step'),
    checkpoint(3, 2, 'act-failed', 'act'),
    checkpoint(4, 3, 'act-1', 'act'),
    checkpoint(5, 3, 'act-1', 'step'),
    checkpoint(6, 4, 'act-2', 'act'),
    checkpoint(7, 4, 'act-2', 'step'),
  ];
  const undone = replayRestores(all, checkpoints);
  assert.equal(sessionUndo(dry, all, undone).undo, null);
  assert.equal(sessionUndo(failed, all, undone).undo, null);
  assert.deepEqual(sessionUndo(first, all, undone), {
    applied: [{ step: 1, checkpoint: id(5), undoneBy: null }],
    undo: id(4),
    laterWrites: 1,
  });
  assert.equal(sessionUndo(later, all, undone).laterWrites, 0);
});

test('a session by id or unique prefix; an ambiguous prefix lists what it could mean', () => {
  const all = [
    session('act-20261201-0911-aa', 1, 1, []),
    session('act-20261201-0911-bb', 2, 2, []),
    session('act-20261201-1000-cc', 3, 3, []),
  ];
  assert.equal((findSession(all, 'act-20261201-1000') as FoundSession).session, 'act-20261201-1000-cc');
  assert.deepEqual(findSession(all, 'act-20261201-0911'), ['act-20261201-0911-aa', 'act-20261201-0911-bb']);
  assert.deepEqual(findSession(all, 'nope'), []);
});
