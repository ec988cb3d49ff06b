import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { parseCommandLine } from '../main.js';
import { applyOptions, type ApplyOptions } from './apply.js';

test('aide apply: argv → options', async () => {
  const table: [string[], ApplyOptions][] = [
    [['apply'], { file: undefined, dryRun: false }],
    [['apply', 'reply.md'], { file: 'reply.md', dryRun: false }],
    [['apply', '-'], { file: '-', dryRun: false }],
    [['apply', '--dry-run', 'reply.md'], { file: 'reply.md', dryRun: true }],
    [['apply', 'reply.md', '--json', '--cwd', 'repo'], { file: 'reply.md', dryRun: false }],
  ];
  for (const [args, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command' && parsed.spec.command === 'apply [file]', args.join(' '));
    assert.deepEqual(applyOptions(parsed.argv), expected, args.join(' '));
  }
});

test('aide apply: a second file or an unknown option is a usage error', async () => {
  for (const args of [['apply', 'a.md', 'b.md'], ['apply', '--yes']]) {
    await assert.rejects(parseCommandLine(args), (error) => error instanceof AideError && error.code === 'usage', args.join(' '));
  }
});
