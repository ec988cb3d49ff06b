import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { chooseApprover } from '../approver.js';
import type { CliIo } from '../io.js';
import { parseCommandLine } from '../main.js';
import { restoreOptions, type RestoreOptions } from './restore.js';

test('aide restore: argv → options', async () => {
  const table: [string[], RestoreOptions][] = [
    [['restore', '3f9c2a'], { id: '3f9c2a', yes: false, dryRun: false }],
    [['restore', '3f9c2a', '--yes'], { id: '3f9c2a', yes: true, dryRun: false }],
    [['restore', '-y', '1234567'], { id: '1234567', yes: true, dryRun: false }],
    [
      ['restore', '--dry-run', '3f9c2a', '--json', '--cwd', 'repo'],
      { id: '3f9c2a', yes: false, dryRun: true },
    ],
  ];
  for (const [args, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command' && parsed.spec.command === 'restore <id>', args.join(' '));
    assert.deepEqual(restoreOptions(parsed.argv), expected, args.join(' '));
  }
});

test('aide restore: no id, two ids or an unknown option is a usage error', async () => {
  for (const args of [['restore'], ['restore', 'a', 'b'], ['restore', 'a', '--force']]) {
    await assert.rejects(
      parseCommandLine(args),
      (error) => error instanceof AideError && error.code === 'usage',
      args.join(' '),
    );
  }
});

function io(tty: boolean): CliIo {
  const stream = { write: () => true, isTTY: tty };
  return {
    stdout: stream,
    stderr: stream,
    stdin: Object.assign((async function* () {})(), { isTTY: tty }),
    env: {},
    cwd: '/',
  };
}

test('the approver: --dry-run never, --yes auto, a terminal asks, neither is exit 4 before any work', async () => {
  const never = () => {
    throw new Error('no prompt streams without a terminal');
  };
  assert.equal(
    await chooseApprover({ yes: false, dryRun: true, command: 'restore' }, io(false), never).confirm({
      kind: 'question',
      question: 'q',
      details: [],
    }),
    'no',
  );
  assert.equal(
    await chooseApprover({ yes: true, dryRun: false, command: 'restore' }, io(false), never).confirm({
      kind: 'question',
      question: 'q',
      details: [],
    }),
    'yes',
  );
  assert.throws(
    () => chooseApprover({ yes: false, dryRun: false, command: 'restore' }, io(false), never),
    (error) => error instanceof AideError && error.code === 'approval_needed' && error.exitCode === 4,
  );
  let asked = false;
  chooseApprover({ yes: false, dryRun: false, command: 'restore' }, io(true), () => {
    asked = true;
    return { stdin: process.stdin, stdout: process.stdout };
  });
  assert.ok(asked);
});
