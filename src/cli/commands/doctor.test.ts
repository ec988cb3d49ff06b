import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { parseCommandLine } from '../main.js';
import { doctorOptions, type DoctorOptions } from './doctor.js';

test('aide doctor: argv → options (only the globals apply)', async () => {
  const table: [string[], DoctorOptions][] = [
    [['doctor'], {}],
    [['doctor', '--json'], {}],
    [['doctor', '--cwd', 'sub'], {}],
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
    ['doctor', 'git'],
  ]) {
    await assert.rejects(
      parseCommandLine(args),
      (error) => error instanceof AideError && error.code === 'usage',
      args.join(' '),
    );
  }
});
