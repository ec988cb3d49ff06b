import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { parseCommandLine } from '../main.js';
import { initOptions, type InitOptions } from './init.js';

async function optionsFor(args: string[]): Promise<InitOptions> {
  const parsed = await parseCommandLine(args);
  assert.equal(parsed.kind, 'command');
  assert.ok(parsed.kind === 'command');
  assert.equal(parsed.spec.command, 'init');
  return initOptions(parsed.argv);
}

test('aide init: argv → options', async () => {
  const table: [string[], InitOptions][] = [
    [['init'], { force: false }],
    [['init', '--force'], { force: true }],
    [['init', '--no-force'], { force: false }],
    [['init', '--force', '--json', '--cwd', '/tmp'], { force: true }],
  ];
  for (const [args, expected] of table) assert.deepEqual(await optionsFor(args), expected, args.join(' '));
});

test('aide init: unknown options and arguments are usage errors', async () => {
  for (const args of [
    ['init', '--forse'],
    ['init', 'somewhere'],
  ]) {
    await assert.rejects(
      parseCommandLine(args),
      (error) => error instanceof AideError && error.code === 'usage',
      args.join(' '),
    );
  }
});
