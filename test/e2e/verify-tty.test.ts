/** On a terminal, `aide verify` shows a live task list (listr2): one task per command, then the verdict. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { needScript, onTerminal } from '../helpers/pty.js';
import { verifyRepo } from '../helpers/verify.js';

test('a task per command with its result, then the failing output and the verdict', async (t) => {
  needScript();
  const root = verifyRepo(
    t,
    [
      { name: 'lint', run: 'echo lint ok' },
      {
        name: 'unit',
        run: [
          'node',
          '-e',
          'console.log("# tests 2\\n# suites 0\\n# pass 2\\n# fail 0\\n# cancelled 0\\n# skipped 0\\n# todo 0")',
        ],
      },
      { name: 'bad', run: 'echo oops; exit 4' },
      { name: 'never', run: 'echo never' },
    ],
    { flake_reruns: 0 },
  );
  const run = onTerminal(root, ['verify'], { NO_COLOR: '' });
  const code = await run.exit();
  const output = run.output();
  assert.equal(code, 1, output);
  assert.match(output, /✔ lint/);
  assert.match(output, /✔ unit {2}2 tests passed/);
  assert.match(output, /✖ bad/);
  assert.match(output, /bad exited 4/);
  assert.match(output, /never: not run/);
  assert.match(output, /│ oops/);
  assert.match(output, /failed: bad exited 4\n/);
  assert.doesNotMatch(output, /^→ lint$/m, 'the plain renderer was used on a terminal');
});
