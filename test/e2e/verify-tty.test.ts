/** On a terminal, `aide verify` shows a live task list (listr2): one task per command, then the verdict. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { stripAnsi } from '../../src/shared/text.js';
import { BIN } from '../helpers/cli.js';
import { testEnv } from '../helpers/sandbox.js';
import { verifyRepo } from '../helpers/verify.js';

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

function onTerminal(root: string, args: string[]): Promise<{ code: number | null; output: string }> {
  // A pseudo-terminal from `script` has no size until one is set; listr2 wraps to it.
  const command = `stty cols 100 rows 40; ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: root,
    env: testEnv(undefined, { TERM: 'xterm', NO_COLOR: '' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stdin.end();
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      resolve({ code, output: stripAnsi(output).replace(/\r/g, '') });
    });
  });
}

test('a task per command with its result, then the failing output and the verdict', async (t) => {
  assert.ok(hasScript, 'this test needs util-linux `script` (Debian: apt-get install bsdutils)');
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
  const { code, output } = await onTerminal(root, ['verify']);
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
