/**
 * The interactive question, answered through a real pseudo-terminal (util-linux `script`):
 * yes restores, no exits 5 with nothing written.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { stripAnsi } from '../../src/shared/text.js';
import { saveCheckpoint, workspaceState } from '../helpers/checkpoints.js';
import { BIN } from '../helpers/cli.js';
import { gitRepo, testEnv, testHome, writeTree, type Cleanup } from '../helpers/sandbox.js';

// util-linux `script` gives the child a real pseudo-terminal; .ci/run installs it (bsdutils).
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const needScript = () => {
  assert.ok(hasScript, 'these tests need util-linux `script` (Debian: apt-get install bsdutils)');
};

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
const plain = (text: string) => stripAnsi(text).replace(/\r/g, '');

/** Runs `aide restore ID` on a pseudo-terminal and types `key` once the question shows. */
function restoreAnswering(
  root: string,
  id: string,
  key: string,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, BIN, 'restore', id].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: root,
    env: testEnv(testHome(), { TERM: 'xterm' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (!answered && plain(output).includes('(y/N)')) {
      answered = true;
      child.stdin.write(key);
    }
  });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      child.stdin.end();
      resolve({ code, output: plain(output) });
    });
  });
}

async function setup(t: Cleanup) {
  const root = gitRepo(t, { 'a.txt': 'checkpointed\n' });
  const id = await saveCheckpoint(root);
  writeTree(root, { 'a.txt': 'edited\n', 'b.txt': 'new\n' });
  return { root, id, checkpointed: workspaceState(root) };
}

test('on a terminal, answering y restores', async (t) => {
  needScript();
  const { root, id } = await setup(t);
  const result = await restoreAnswering(root, id, 'y');
  assert.equal(result.code, 0, result.output);
  assert.match(result.output, /M a\.txt/);
  assert.match(result.output, /Restore checkpoint [0-9a-f]{10}: write 1 file and remove 1 file\? \(y\/N\)/);
  assert.match(result.output, /\nRestored checkpoint [0-9a-f]{10}: 1 file written, 1 removed\./);
  assert.deepEqual(
    Object.keys(workspaceState(root)).filter((p) => !p.startsWith('.')),
    ['a.txt'],
  );
});

test('on a terminal, answering n exits 5 and writes nothing', async (t) => {
  needScript();
  const { root, id } = await setup(t);
  const before = workspaceState(root);
  const result = await restoreAnswering(root, id, 'n');
  assert.equal(result.code, 5, result.output);
  assert.match(result.output, /Not restored: nothing was changed\./);
  assert.deepEqual(workspaceState(root), before);
});
