import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommandLine } from '../main.js';
import { reviewOptions } from './review-options.js';

test('aide review: argv → options, --model and --endpoint for the model check included', async () => {
  const table: Array<[string[], Record<string, string>, Partial<ReturnType<typeof reviewOptions>>]> = [
    [['review', '--staged'], {}, { staged: true, skip: [] }],
    [
      ['review', '--staged', '--model', 'llama3.1:8b', '--endpoint', 'http://127.0.0.1:8080/v1'],
      {},
      { model: 'llama3.1:8b', endpoint: 'http://127.0.0.1:8080/v1' },
    ],
    [
      ['review', '--from-ref', 'main', '--skip', 'model'],
      { AIDE_SKIP: 'verify' },
      { skip: ['model', 'verify'] },
    ],
  ];
  for (const [args, env, expected] of table) {
    const parsed = await parseCommandLine(args);
    assert.ok(parsed.kind === 'command' && parsed.spec.command === 'review', args.join(' '));
    const options = reviewOptions(parsed.argv, env);
    for (const [key, value] of Object.entries(expected))
      assert.deepEqual(options[key as keyof typeof options], value, `${args.join(' ')}: ${key}`);
  }
  const parsed = await parseCommandLine(['review', '--staged']);
  assert.ok(parsed.kind === 'command');
  const plain = reviewOptions(parsed.argv, {});
  assert.equal(plain.model, undefined);
  assert.equal(plain.endpoint, undefined);
});
