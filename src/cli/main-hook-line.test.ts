import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOOK_ARGS } from '../core/hooks/hook-script.js';
import { hookCommandLine, parseCommandLine, parseWithYargs } from './main.js';

test("the pre-commit hook's command line, parsed without yargs, is what yargs makes of it", async () => {
  const line = HOOK_ARGS['pre-commit'];
  const fast = hookCommandLine(line);
  assert.notEqual(fast, undefined, 'the hook line has its own parse');
  assert.deepStrictEqual(fast, await parseWithYargs(line));
  assert.deepStrictEqual(await parseCommandLine(line), fast);
});

test('any other command line goes to yargs', () => {
  for (const args of [
    ['review'],
    ['review', '--staged', '--json'],
    ['review', '--staged', '--staged'],
    ['--json', 'review', '--staged'],
    ['review', '--stage'],
    ['status', '--staged'],
  ])
    assert.equal(hookCommandLine(args), undefined, args.join(' '));
});
