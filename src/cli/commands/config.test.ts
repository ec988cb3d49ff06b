import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { parseCommandLine } from '../main.js';
import { configOptions, type ConfigOptions } from './config.js';

test('aide config: argv → options (--model, --endpoint; the globals are dropped)', async () => {
  const table: [string[], ConfigOptions][] = [
    [['config'], {}],
    [['config', '--json'], {}],
    [['config', '--cwd', 'sub'], {}],
    [['config', '--model', 'llama3.1:8b'], { model: 'llama3.1:8b' }],
    [
      ['config', '--endpoint', 'http://127.0.0.1:8080/v1', '--json'],
      { endpoint: 'http://127.0.0.1:8080/v1' },
    ],
    [['config', '--model', '7'], { model: '7' }],
  ];
  for (const [args, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command' && parsed.spec.command === 'config', args.join(' '));
    assert.deepEqual(configOptions(parsed.argv), expected, args.join(' '));
  }
});

test('aide config: unknown options and arguments are usage errors', async () => {
  for (const args of [
    ['config', '--force'],
    ['config', '--model'],
    ['config', 'model.name'],
  ]) {
    await assert.rejects(
      parseCommandLine(args),
      (error) => error instanceof AideError && error.code === 'usage',
      args.join(' '),
    );
  }
});

test('aide config --help is text, not a run', async () => {
  const parsed = await parseCommandLine(['config', '--help']);
  assert.ok(parsed.kind === 'output');
  assert.match(parsed.text, /where each value comes from/);
});
