import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import { parseCommandLine } from '../main.js';
import { applyOptions, retryCommand, type ApplyOptions } from './apply.js';

test('aide apply: argv → options', async () => {
  const table: [string[], ApplyOptions][] = [
    [['apply'], { file: undefined, dryRun: false, allowProtected: false }],
    [['apply', 'reply.md'], { file: 'reply.md', dryRun: false, allowProtected: false }],
    [['apply', '-'], { file: '-', dryRun: false, allowProtected: false }],
    [['apply', '--dry-run', 'reply.md'], { file: 'reply.md', dryRun: true, allowProtected: false }],
    [
      ['apply', 'reply.md', '--json', '--cwd', 'repo'],
      { file: 'reply.md', dryRun: false, allowProtected: false },
    ],
    [['apply', '--allow-protected', 'reply.md'], { file: 'reply.md', dryRun: false, allowProtected: true }],
  ];
  for (const [args, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command' && parsed.spec.command === 'apply [file]', args.join(' '));
    assert.deepEqual(applyOptions(parsed.argv), expected, args.join(' '));
  }
});

test('aide apply: a second file or an unknown option is a usage error', async () => {
  for (const args of [
    ['apply', 'a.md', 'b.md'],
    ['apply', '--yes'],
  ]) {
    await assert.rejects(
      parseCommandLine(args),
      (error) => error instanceof AideError && error.code === 'usage',
      args.join(' '),
    );
  }
});

test('aide apply: the command that allows protected files repeats the reply, --cwd and --json', async () => {
  const table: [string[], boolean, string][] = [
    [['apply', 'reply.md'], false, 'aide apply --allow-protected reply.md'],
    [
      ['apply', "it's here.md", '--cwd', 'my repo'],
      true,
      "aide apply --allow-protected --cwd 'my repo' --json 'it'\\''s here.md'",
    ],
    [['apply', '-'], false, '… | aide apply --allow-protected -'],
    [['apply'], false, '… | aide apply --allow-protected -'],
  ];
  for (const [args, json, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command');
    assert.equal(retryCommand(applyOptions(parsed.argv), parsed.argv, json), expected, args.join(' '));
  }
});
