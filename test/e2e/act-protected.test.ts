/**
 * Protected paths in `aide act` (threats T6, T7): a verified step that changes a test, a
 * lockfile, package scripts or another protected path is never written by --yes alone; it
 * takes --allow-protected (or a second yes at the terminal: act-tty.test.ts). Dry runs name
 * the protected files so a CI log shows them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ADD_SUB, PROJECT, TEST_SUB, actRepo, edit, planDoc, sandbox } from '../helpers/act.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, gitRepo } from '../helpers/sandbox.js';
import { withoutState } from '../helpers/verify.js';

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
/** A test-only step that passes on its own. */
const TEST_MORE = edit(
  'test/calc.test.js',
  '  assert.equal(add(2, 3), 5);',
  '  assert.equal(add(2, 3), 5);\n  assert.equal(add(-2, 2), 0);',
);

function sessionState(root: string): { status: string; steps: Array<{ number: number; status: string }> } {
  const [session] = readdirSync(join(root, '.aide/state/sessions')).filter((name) => name.startsWith('act-'));
  return JSON.parse(
    readFileSync(join(root, '.aide/state/sessions', session ?? 'missing', 'state.json'), 'utf8'),
  ) as never;
}

test('--yes refuses a step that edits a test: exit 4, earlier steps written, the test file untouched, the fix named', async (t) => {
  const root = actRepo(
    t,
    planDoc('Add sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  const result = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 4, result.stdout + result.stderr);
  assert.match(read(root, 'src/calc.js'), /export function sub/, 'step 1 (not protected) was written');
  assert.equal(
    read(root, 'test/calc.test.js'),
    PROJECT['test/calc.test.js'],
    'the protected test file is as it was',
  );
  assert.match(
    result.stdout,
    /Step 2: Test sub[\s\S]*verified: 1 command, 2 tests passed[\s\S]*✗ not written: it changes protected files: test\/calc\.test\.js \(rule \*\*\/test\/\*\*\)\. --yes does not approve those; if you expect it, carry on with `aide act --resume --yes --allow-protected`/,
  );
  assert.match(
    result.stdout,
    /1 step applied, 0 skipped, 0 failed, 1 refused \(protected files\)\nCheckpoints: \w{10} \(step 1\)\n/,
  );
  const state = sessionState(root);
  assert.equal(state.status, 'stopped');
  assert.deepEqual(
    state.steps.map((s) => `${s.number}:${s.status}`),
    ['1:applied', '2:refused'],
  );
});

test('--yes --allow-protected writes it, and the step still says it changed a protected file', async (t) => {
  const root = actRepo(t, planDoc('More tests', [{ title: 'Test negatives', edits: TEST_MORE }]));
  const result = await runAideInProcess(['act', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(read(root, 'test/calc.test.js'), /add\(-2, 2\)/);
  assert.match(
    result.stdout,
    /! changes protected files: test\/calc\.test\.js \(rule \*\*\/test\/\*\*\)\n {2}✓ written: test\/calc\.test\.js/,
  );
});

test('a dry run names the protected files and writes nothing; --json carries them in the step report', async (t) => {
  const root = actRepo(t, planDoc('More tests', [{ title: 'Test negatives', edits: TEST_MORE }]));
  const before = withoutState(fingerprint(root));
  const plain = await runAideInProcess(['act', '--dry-run'], { cwd: root });
  assert.equal(plain.code, 0, plain.stdout + plain.stderr);
  assert.match(plain.stdout, /! changes protected files: test\/calc\.test\.js/);
  const json = await runAideInProcess(['act', '--dry-run', '--json'], { cwd: root });
  assert.equal(json.code, 0, json.stderr);
  const finished = json.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; report?: { protectedFiles?: unknown } })
    .find((e) => e.type === 'step_finished');
  assert.deepEqual(finished?.report?.protectedFiles, [{ path: 'test/calc.test.js', rule: '**/test/**' }]);
  assert.deepEqual(withoutState(fingerprint(root)), before);
});

const PACKAGE =
  '{\n  "name": "calc",\n  "type": "module",\n  "scripts": {\n    "test": "node --test"\n  },\n  "dependencies": {\n    "left-pad": "1.0.0"\n  }\n}\n';

test('package.json: a dependency bump is an ordinary edit, a new script is protected', async (t) => {
  const bump = edit('package.json', '    "left-pad": "1.0.0"', '    "left-pad": "1.3.0"');
  const script = edit(
    'package.json',
    '    "test": "node --test"',
    '    "test": "node --test",\n    "postinstall": "node steal.js"',
  );
  const root = gitRepo(t, {
    ...PROJECT,
    'package.json': PACKAGE,
    '.aide/sandbox.json': sandbox(),
    '.aide/plans/plan.md': planDoc('Deps', [
      { title: 'Bump', edits: bump },
      { title: 'Script', edits: script },
    ]),
  });
  const result = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 4, result.stdout + result.stderr);
  assert.match(read(root, 'package.json'), /"left-pad": "1\.3\.0"/);
  assert.doesNotMatch(read(root, 'package.json'), /postinstall/);
  assert.match(
    result.stdout,
    /Step 2: Script[\s\S]*not written: it changes protected files: package\.json \(rule \*\*\/package\.json#\/scripts\)/,
  );
});

test('protected_paths in .aide/config.json replaces the defaults', async (t) => {
  const config = JSON.stringify({ protected_paths: ['src/**'] });
  const root = gitRepo(t, {
    ...PROJECT,
    '.aide/config.json': config,
    '.aide/sandbox.json': sandbox(),
    '.aide/plans/plan.md': planDoc('Add sub', [
      { title: 'Test negatives', edits: TEST_MORE },
      { title: 'Add sub', edits: ADD_SUB },
    ]),
  });
  const result = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 4, result.stdout + result.stderr);
  assert.match(read(root, 'test/calc.test.js'), /add\(-2, 2\)/, 'tests are not protected under this config');
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
  assert.match(result.stdout, /not written: it changes protected files: src\/calc\.js \(rule src\/\*\*\)/);
});

test('a session stopped at a refused step carries on with --resume --yes --allow-protected', async (t) => {
  const root = actRepo(
    t,
    planDoc('Add sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  assert.equal((await runAideInProcess(['act', '--yes'], { cwd: root })).code, 4);
  const resumed = await runAideInProcess(['act', '--resume', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(read(root, 'test/calc.test.js'), /test\('sub'/);
  assert.deepEqual(
    sessionState(root).steps.map((s) => `${s.number}:${s.status}`),
    ['1:applied', '2:applied'],
  );
});

test('.aide/ is protected whatever protected_paths says: an empty list still refuses a step that rewrites sandbox.json', async (t) => {
  const hijack = edit(
    '.aide/sandbox.json',
    '  "flake_reruns": 0',
    '  "flake_reruns": 0,\n  "allow_network": true',
  );
  const root = gitRepo(t, {
    ...PROJECT,
    '.aide/config.json': JSON.stringify({ protected_paths: [] }),
    '.aide/sandbox.json': sandbox(),
    '.aide/plans/plan.md': planDoc('Network', [{ title: 'Network on', edits: hijack }]),
  });
  const result = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 4, result.stdout + result.stderr);
  assert.equal(read(root, '.aide/sandbox.json'), sandbox());
  assert.match(
    result.stdout,
    /not written: it changes protected files: \.aide\/sandbox\.json \(rule \.aide\/\*\*\)/,
  );
});
