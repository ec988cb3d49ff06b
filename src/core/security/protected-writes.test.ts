import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProtectedApprover, ProtectedDecision, ProtectedWriteRequest } from '../ports/approval.js';
import type { ProtectedCandidate } from './protected-paths.js';
import { checkProtectedWrite, mayWrite } from './protected-writes.js';

const candidate = (path: string): ProtectedCandidate => ({
  path,
  before: () => Promise.resolve(null),
  after: () => Promise.resolve(new Uint8Array([1])),
});

function approver(decision: ProtectedDecision): ProtectedApprover & { asked: ProtectedWriteRequest[] } {
  const asked: ProtectedWriteRequest[] = [];
  return { asked, approveProtected: (request) => (asked.push(request), Promise.resolve(decision)) };
}

const policy = { rules: ['**/test/**'] };

test('nothing protected: the approver is not asked and the write may go ahead', async () => {
  const ask = approver({ kind: 'decline' });
  const check = await checkProtectedWrite(
    { command: 'aide apply', candidates: [candidate('src/a.ts')], files: [], dryRun: false },
    { policy, approver: ask },
  );
  assert.deepEqual(check, { protectedFiles: [], decision: null });
  assert.equal(mayWrite(check), true);
  assert.equal(ask.asked.length, 0);
});

test('a protected file is written only on approve; one file under two names is listed once', async () => {
  const candidates = [candidate('test/a.js'), candidate('test/a.js'), candidate('src/b.ts')];
  for (const [decision, may] of [
    [{ kind: 'approve' }, true],
    [{ kind: 'decline' }, false],
    [{ kind: 'refuse', reason: 'r', hint: 'h' }, false],
  ] as const) {
    const ask = approver(decision);
    const check = await checkProtectedWrite(
      { command: 'aide apply', candidates, files: [], dryRun: false },
      { policy, approver: ask },
    );
    assert.deepEqual(check.protectedFiles, [{ path: 'test/a.js', rule: '**/test/**' }]);
    assert.equal(mayWrite(check), may, decision.kind);
    assert.deepEqual(
      ask.asked.map((r) => r.protectedFiles.length),
      [1],
    );
  }
});

test('a dry run names the protected files and asks nobody', async () => {
  const ask = approver({ kind: 'approve' });
  const check = await checkProtectedWrite(
    { command: 'aide apply', candidates: [candidate('.aide/sandbox.json')], files: [], dryRun: true },
    { policy: { rules: [] }, approver: ask },
  );
  assert.deepEqual(check, {
    protectedFiles: [{ path: '.aide/sandbox.json', rule: '.aide/**' }],
    decision: null,
  });
  assert.equal(ask.asked.length, 0);
});
