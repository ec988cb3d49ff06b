import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { parseCommandLine } from '../main.js';
import { listOptions, pruneOptions, type ListOptions, type PruneOptions } from './checkpoints.js';

async function parsed(args: string[]) {
  const result = await parseCommandLine(args);
  assert.ok(result.kind === 'command', args.join(' '));
  return result;
}

test('aide checkpoints: argv → list options', async () => {
  const table: [string[], ListOptions][] = [
    [['checkpoints'], { session: undefined, limit: 20, stats: false, all: false }],
    [
      ['checkpoints', '--limit', '5', '--session', 'apply-x'],
      { limit: 5, session: 'apply-x', stats: false, all: false },
    ],
    [['checkpoints', '--stats', '--json'], { session: undefined, limit: 20, stats: true, all: false }],
  ];
  for (const [args, expected] of table) {
    const result = await parsed(args);
    assert.equal(result.spec.command, 'checkpoints');
    assert.deepEqual(listOptions(result.argv), expected, args.join(' '));
  }
});

test('aide checkpoints prune: argv → options, and it needs a limit', async () => {
  const table: [string[], PruneOptions][] = [
    [['checkpoints', 'prune', '--keep', '3'], { keep: 3, olderThan: undefined, dryRun: false }],
    [
      ['checkpoints', 'prune', '--older-than', '30', '--dry-run'],
      { keep: undefined, olderThan: 30, dryRun: true },
    ],
  ];
  for (const [args, expected] of table) {
    const result = await parsed(args);
    assert.equal(result.spec.command, 'prune');
    assert.deepEqual(pruneOptions(result.argv), expected, args.join(' '));
  }
  assert.throws(
    () => pruneOptions({}),
    (error) => error instanceof AideError && /--keep N/.test(error.message),
  );
});

test('aide checkpoints: subcommands are selected, and list options do not leak into them', async () => {
  assert.equal((await parsed(['checkpoints', 'show', 'abc'])).spec.command, 'show <id>');
  assert.equal((await parsed(['checkpoints', 'diff', 'a', 'b'])).spec.command, 'diff <id> [id2]');
  assert.equal((await parsed(['checkpoints', 'save', '-m', 'x'])).spec.command, 'save');
  await assert.rejects(
    parseCommandLine(['checkpoints', 'prune', '--stats']),
    (error) => error instanceof AideError && error.code === 'usage',
  );
  await assert.rejects(
    parseCommandLine(['checkpoints', 'show']),
    (error) => error instanceof AideError && error.code === 'usage',
  );
});
