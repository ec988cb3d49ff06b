/** `aide act` on a real terminal (util-linux `script`): one step approved, the next skipped. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { stripAnsi } from '../../src/shared/text.js';
import { ADD_SUB, actRepo, edit, planDoc } from '../helpers/act.js';
import { BIN } from '../helpers/cli.js';
import { testEnv } from '../helpers/sandbox.js';

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
const plain = (text: string) => stripAnsi(text).replace(/\r/g, '');

/** Runs aide act on a pseudo-terminal, answering each question in turn with the next key. */
function actAnswering(root: string, keys: string[]): Promise<{ code: number | null; output: string }> {
  const command = `stty cols 100 rows 40; ${[process.execPath, BIN, 'act'].map(quote).join(' ')}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: root, env: testEnv(undefined, { TERM: 'xterm' }), stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let answered = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    const asked = plain(output).split('(y/N)').length - 1;
    if (asked > answered && answered < keys.length) {
      child.stdin.write(keys[answered] ?? '');
      answered++;
    }
  });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      child.stdin.end();
      resolve({ code, output: plain(output) });
    });
  });
}

test('on a terminal: the verdict and files are shown, y writes a step, n skips the next', async (t) => {
  assert.ok(hasScript, 'this test needs util-linux `script` (Debian: apt-get install bsdutils)');
  const second = edit('src/calc.js', '  return a + b;', '  return b + a;');
  const root = actRepo(t, planDoc('Two steps', [{ title: 'Add sub', edits: ADD_SUB }, { title: 'Swap operands', edits: second }]));
  const result = await actAnswering(root, ['y', 'n']);
  assert.equal(result.code, 0, result.output);
  assert.match(result.output, /verified: 1 command, 1 test passed\nM src\/calc\.js \+4 -0\n.*Write step 1 \(Add sub\) into your files\? \(y\/N\)/);
  assert.match(result.output, /Write step 2 \(Swap operands\) into your files\? \(y\/N\)/);
  assert.match(result.output, /skipped: not approved/);
  assert.match(result.output, /1 step applied, 1 skipped, 0 failed/);
  const calc = readFileSync(join(root, 'src/calc.js'), 'utf8');
  assert.match(calc, /export function sub/);
  assert.match(calc, /return a \+ b/);
});
