import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { parseCommandLine } from '../main.js';
import { installOptions, selectedHooks, type HooksInstallOptions } from './hooks.js';

test('aide hooks install: argv → options (pre-commit unless --hook; --force)', async () => {
  const table: [string[], HooksInstallOptions][] = [
    [['hooks', 'install'], { hook: 'pre-commit', force: false }],
    [['hooks', 'install', '--hook', 'pre-push'], { hook: 'pre-push', force: false }],
    [['hooks', 'install', '--force', '--json'], { hook: 'pre-commit', force: true }],
  ];
  for (const [args, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command' && parsed.spec.command === 'install', args.join(' '));
    assert.deepEqual(installOptions(parsed.argv), expected, args.join(' '));
  }
});

test('aide hooks uninstall and status: both hooks unless --hook names one', async () => {
  const table: [string[], string, string[]][] = [
    [['hooks', 'uninstall'], 'uninstall', ['pre-commit', 'pre-push']],
    [['hooks', 'uninstall', '--hook', 'pre-push'], 'uninstall', ['pre-push']],
    [['hooks', 'status'], 'status', ['pre-commit', 'pre-push']],
    [['hooks'], 'hooks', ['pre-commit', 'pre-push']],
  ];
  for (const [args, command, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command' && parsed.spec.command === command, args.join(' '));
    assert.deepEqual(selectedHooks(parsed.argv), expected, args.join(' '));
  }
});

test('aide hooks: an unknown hook, a missing value or a stray argument is a usage error', async () => {
  for (const args of [
    ['hooks', 'install', '--hook', 'post-merge'],
    ['hooks', 'install', '--hook'],
    ['hooks', 'status', 'extra'],
    ['hooks', 'install', '--keep'],
  ]) {
    await assert.rejects(
      parseCommandLine(args),
      (error) => error instanceof AideError && error.code === 'usage',
      args.join(' '),
    );
  }
});
