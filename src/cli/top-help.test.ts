import assert from 'node:assert/strict';
import { test } from 'node:test';
import { packageVersion, parseCommandLine, parseWithYargs } from './main.js';
import { TOP_HELP, TOP_HELP_WIDTH } from './top-help.js';

test('the static `aide --help` text is what yargs renders at the default width', async () => {
  for (const flag of ['--help', '-h']) {
    const rendered = await parseWithYargs([flag], TOP_HELP_WIDTH);
    assert.deepEqual(
      rendered,
      { kind: 'output', text: TOP_HELP },
      'update src/cli/top-help.ts to yargs’ text',
    );
  }
});

test('a bare --version or --help is answered without yargs, with the text yargs prints', async () => {
  assert.deepEqual(await parseWithYargs(['--version']), { kind: 'output', text: packageVersion() });
  assert.deepEqual(await parseCommandLine(['--version']), { kind: 'output', text: packageVersion() });
  // Under the test runner stdout is a pipe: the default width, so the static text is used.
  if (process.stdout.columns === undefined) {
    assert.deepEqual(await parseCommandLine(['--help']), { kind: 'output', text: TOP_HELP });
    assert.deepEqual(await parseCommandLine(['-h']), { kind: 'output', text: TOP_HELP });
  }
});
