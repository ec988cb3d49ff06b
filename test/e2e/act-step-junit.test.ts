/**
 * `aide act` end to end: the verify commands a step names with `Verify:` (optional commands
 * run only for it; an unknown name stops aide before any work).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ADD_SUB, TEST_SUB, actRepo, planDoc, sandbox } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { tempDir } from '../helpers/sandbox.js';

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

/** The plain output of each step, by number. */
function stepOutputs(stdout: string): Map<number, string> {
  const parts = stdout.split(/^(?=Step \d+: )/m).filter((part) => /^Step \d+: /.test(part));
  return new Map(parts.map((part) => [Number(/^Step (\d+)/.exec(part)?.[1]), part]));
}

test('an optional command runs only for the step whose Verify: names it, after the others', async (t) => {
  const marks = join(tempDir(t), 'marks');
  const commands = [
    { name: 'test', run: ['node', '--test', '--test-reporter=tap', 'test/'] },
    { name: 'smoke', run: `echo smoke >> ${marks}`, optional: true },
  ];
  const root = actRepo(t, planDoc('Add sub', [{ title: 'Add sub', edits: ADD_SUB }, { title: 'Test sub', edits: TEST_SUB, verify: ['smoke'] }]), sandbox({ commands }));
  const result = await runAide(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.equal(read('/', marks), 'smoke\n', 'ran once');
  const steps = stepOutputs(result.stdout);
  assert.doesNotMatch(steps.get(1) ?? '', /smoke/);
  assert.match(steps.get(1) ?? '', /verified: 1 command, 1 test passed/);
  assert.match(steps.get(2) ?? '', /✓ test [\s\S]*✓ smoke [\s\S]*verified: 2 commands, 2 tests passed/);
});

test('a Verify: name that is no command: exit 2 with the plan file:line and the known names, before any work', async (t) => {
  const root = actRepo(t, planDoc('Add sub', [{ title: 'Add sub', edits: ADD_SUB, verify: ['tset'] }]));
  const result = await runAide(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /\.aide\/plans\/plan\.md:13:9: step 1: Verify: "tset" is not a command in \.aide\/sandbox\.json \(did you mean "test"\?\)/);
  assert.match(result.stderr, /The commands in \.aide\/sandbox\.json are: test\. Add the command to "commands" in \.aide\/sandbox\.json, or correct the name in the plan\./);
  assert.equal(existsSync(join(root, '.aide/state')), false, 'no session, no shadow');
});
