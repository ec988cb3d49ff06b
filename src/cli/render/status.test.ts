import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ListedSession } from '../session-history.js';
import { renderSession } from './status.js';

const noUndo = { applied: [], undo: null, laterWrites: 0 };
const now = new Date('2026-12-01T12:00:00Z');

function listed(status: string, steps: Array<{ number: number; status: string }>): ListedSession {
  const raw = {
    session: 'act-20261201-1200-abcd',
    plan: '.aide/plans/p.md',
    status,
    steps: steps.map((s) => ({ ...s, checkpoint: null })),
  };
  return { session: raw.session, state: null, raw, updated: 0, pendingWriteBack: null };
}

test('a step still marked running in a session that ended reads as not finished', () => {
  const lines = renderSession(
    listed('interrupted', [
      { number: 1, status: 'applied' },
      { number: 2, status: 'running' },
    ]),
    false,
    noUndo,
    now,
  );
  assert.ok(
    lines.includes('  step 2: not finished (it was running when the session ended)'),
    lines.join('\n'),
  );
  assert.ok(lines.includes('  step 1: applied'));
});

test('a killed session: its running step is not finished either', () => {
  const lines = renderSession(listed('running', [{ number: 1, status: 'running' }]), true, noUndo, now);
  assert.match(lines[0] ?? '', /killed or crashed/);
  assert.ok(
    lines.includes('  step 1: not finished (it was running when the session ended)'),
    lines.join('\n'),
  );
});

test('a session still running shows its step as running', () => {
  const lines = renderSession(listed('running', [{ number: 1, status: 'running' }]), false, noUndo, now);
  assert.ok(lines.includes('  step 1: running'), lines.join('\n'));
});
