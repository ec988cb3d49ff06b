import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { parseCommandLine } from '../main.js';
import { doctorOptions, type DoctorOptions } from './doctor.js';

test('aide doctor: argv → options (--model, --endpoint; the globals are dropped)', async () => {
  const table: [string[], DoctorOptions][] = [
    [['doctor'], {}],
    [['doctor', '--json'], {}],
    [['doctor', '--cwd', 'sub'], {}],
    [['doctor', '--model', 'llama3.1:8b'], { model: 'llama3.1:8b' }],
    [
      ['doctor', '--endpoint', 'http://127.0.0.1:8080/v1', '--json'],
      { endpoint: 'http://127.0.0.1:8080/v1' },
    ],
    [['doctor', '--model', '7'], { model: '7' }],
  ];
  for (const [args, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command' && parsed.spec.command === 'doctor', args.join(' '));
    assert.deepEqual(doctorOptions(parsed.argv), expected, args.join(' '));
  }
});

test('aide doctor: unknown options and arguments are usage errors', async () => {
  for (const args of [
    ['doctor', '--fix'],
    ['doctor', '--model'],
    ['doctor', 'git'],
  ]) {
    await assert.rejects(
      parseCommandLine(args),
      (error) => error instanceof AideError && error.code === 'usage',
      args.join(' '),
    );
  }
});
