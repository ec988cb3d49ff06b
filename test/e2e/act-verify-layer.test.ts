/**
 * Each step is verified on exactly its own files: what an earlier step's verify commands wrote
 * into the scratch (an ignored build output, a stray file) is gone before the next step's run,
 * while the commands of one run still see each other's writes (a build, then its tests).
 * sandbox.json `keep_verify_writes: true` keeps them, as aide did before.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT, edit, planDoc, sandbox } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { gitRepo } from '../helpers/sandbox.js';

const COMMANDS = [
  // Fails when an earlier verification's build output is still in the scratch.
  { name: 'fresh', run: 'if [ -e out/built ]; then echo "out/built is left from before"; exit 1; fi' },
  { name: 'build', run: 'mkdir -p out && echo built > out/built && echo stray > stray.txt' },
  { name: 'test', run: 'test -f out/built && test -f stray.txt' },
];

const PLAN = planDoc('Two steps', [
  { title: 'Subtract', edits: edit('src/calc.js', '  return a + b;', '  return a + b + 0;') },
  { title: 'Subtract again', edits: edit('src/calc.js', '  return a + b + 0;', '  return 0 + a + b;') },
]);

function repo(t: Parameters<typeof gitRepo>[0], extra: Record<string, unknown> = {}): string {
  return gitRepo(t, {
    ...PROJECT,
    '.gitignore': 'out/\n',
    '.aide/sandbox.json': sandbox({ commands: COMMANDS, ...extra }),
    '.aide/plans/plan.md': PLAN,
  });
}

test("each step's verification starts from that step's files; the commands of one run see each other's writes", async (t) => {
  const root = repo(t);
  const result = await runAide(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /2 steps applied/);
  assert.equal(
    readFileSync(join(root, 'src/calc.js'), 'utf8'),
    'export function add(a, b) {\n  return 0 + a + b;\n}\n',
  );
  // Nothing a command wrote reaches the workspace.
  assert.equal(existsSync(join(root, 'stray.txt')), false);
  assert.equal(existsSync(join(root, 'out')), false);
});

test("keep_verify_writes: the next step's commands find what the last verification wrote", async (t) => {
  const root = repo(t, { keep_verify_writes: true });
  const result = await runAide(['act', '--yes'], { cwd: root });
  assert.notEqual(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /out\/built is left from before/);
  assert.match(result.stdout, /1 step applied|1 applied/);
  assert.equal(existsSync(join(root, 'stray.txt')), false);
});
