/**
 * The interactive question, answered through a real pseudo-terminal (util-linux `script`):
 * yes restores, no exits 5 with nothing written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { saveCheckpoint, workspaceState } from '../helpers/checkpoints.js';
import { needScript, onTerminal } from '../helpers/pty.js';
import { gitRepo, writeTree, type Cleanup } from '../helpers/sandbox.js';

/** Runs `aide restore ID` on a pseudo-terminal and types `key` once the question shows. */
async function restoreAnswering(
  root: string,
  id: string,
  key: string,
): Promise<{ code: number | null; output: string }> {
  const run = onTerminal(root, ['restore', id]);
  await run.waitFor('(y/N)');
  run.press(key);
  const code = await run.exit();
  return { code, output: run.output() };
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
