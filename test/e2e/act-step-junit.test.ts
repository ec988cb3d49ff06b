/**
 * `aide act` end to end, the parts a CI job and a user fixing one step lean on: `--step N`
 * (one step alone, on the workspace as it is), `--junit FILE` (a test case per step), and the
 * verify commands a step names with `Verify:` (optional commands run only for it; an unknown
 * name stops aide before any work).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ADD_SUB, BREAK_ADD, PROJECT, TEST_SUB, actRepo, edit, planDoc, sandbox } from '../helpers/act.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, tempDir } from '../helpers/sandbox.js';
import { withoutState } from '../helpers/verify.js';
import { child, children, parseXml, type XmlElement } from '../helpers/xml.js';

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

/** A test of `add` alone: it needs nothing from the step that adds `sub`. */
const TEST_ADD_MORE = edit(
  'test/calc.test.js',
  "test('add', () => {\n  assert.equal(add(2, 3), 5);\n});",
  "test('add', () => {\n  assert.equal(add(2, 3), 5);\n  assert.equal(add(-1, 1), 0);\n});",
);

function sessionState(root: string): { status: string; steps: Array<{ number: number; status: string }> } {
  const [session] = readdirSync(join(root, '.aide/state/sessions')).filter((name) => name.startsWith('act-'));
  return JSON.parse(
    readFileSync(join(root, '.aide/state/sessions', session ?? 'missing', 'state.json'), 'utf8'),
  ) as { status: string; steps: Array<{ number: number; status: string }> };
}

/** The plain output of each step, by number. */
function stepOutputs(stdout: string): Map<number, string> {
  const parts = stdout.split(/^(?=Step \d+: )/m).filter((part) => /^Step \d+: /.test(part));
  return new Map(parts.map((part) => [Number(/^Step (\d+)/.exec(part)?.[1]), part]));
}

function testcases(xml: string): XmlElement[] {
  return children(child(parseXml(xml), 'testsuite') as XmlElement, 'testcase');
}

test('--step 2 carries out only step 2, on the workspace as it is', async (t) => {
  const root = actRepo(
    t,
    planDoc('Two things', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test add more', edits: TEST_ADD_MORE },
    ]),
  );
  const result = await runAideInProcess(['act', '--step', '2', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js'], 'step 1 did not run');
  assert.match(read(root, 'test/calc.test.js'), /add\(-1, 1\)/);
  assert.doesNotMatch(result.stdout, /Step 1/);
  assert.match(result.stdout, /Step 2: Test add more[\s\S]*✓ written: test\/calc\.test\.js/);
  assert.match(result.stdout, /\n1 step applied, 0 skipped, 0 failed\n/);
  const state = sessionState(root);
  assert.equal(state.status, 'finished');
  assert.deepEqual(
    state.steps.map((s) => `${s.number}:${s.status}`),
    ['2:applied'],
  );
});

test('--step 9 on a plan of steps 1 and 2: exit 2 naming the steps, nothing done', async (t) => {
  const root = actRepo(
    t,
    planDoc('Two things', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  const result = await runAideInProcess(['act', '--step', '9', '--yes'], { cwd: root });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /--step 9: \.aide\/plans\/plan\.md has no step 9/);
  assert.match(result.stderr, /Its steps are 1, 2/);
  assert.equal(existsSync(join(root, '.aide/state')), false);
  const nan = await runAideInProcess(['act', '--step', 'two', '--yes'], { cwd: root });
  assert.equal(nan.code, 2, nan.stderr);
  assert.match(nan.stderr, /--step needs the number of a step of the plan/);
});

test("--step 2 when step 2 uses step 1's output: the step fails saying why, exit 1, nothing written", async (t) => {
  const plan = planDoc('Versioned', [
    { title: 'Compute the version', run: ['node -e "console.log(40 + 2)"'] },
    {
      title: 'Write it',
      edits: edit(
        'src/calc.js',
        'export function add(a, b) {',
        'export const VERSION = {{ steps.1.output }};\n\nexport function add(a, b) {',
      ),
    },
  ]);
  const root = actRepo(t, plan, sandbox({ allowed_commands: ['node -e "console.log(40 + 2)"'] }));
  const result = await runAideInProcess(['act', '--step', '2', '--yes'], { cwd: root });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /✗ failed: step 2 runs alone \(--step 2\), so \{\{ steps\.1\.output \}\} cannot be filled in: it needs step 1's output, and step 1 does not run\. Run the whole plan/,
  );
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
  assert.deepEqual(
    sessionState(root).steps.map((s) => `${s.number}:${s.status}`),
    ['2:failed'],
  );
});

test('--junit: one test case per step, a failure for the failing step, skipped for the one not run', async (t) => {
  const root = actRepo(
    t,
    planDoc('Mixed <bag> & more', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Break add', edits: BREAK_ADD },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  const out = join(tempDir(t), 'act.xml');
  const result = await runAideInProcess(['act', '--yes', '--junit', out], { cwd: root });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  const xml = read('/', out);
  const suite = parseXml(xml);
  assert.equal(suite.attributes.name, 'Mixed <bag> & more');
  assert.deepEqual(
    [suite.attributes.tests, suite.attributes.failures, suite.attributes.skipped],
    ['3', '1', '1'],
  );
  const [added, broken, notRun] = testcases(xml) as [XmlElement, XmlElement, XmlElement];
  assert.deepEqual(
    testcases(xml).map((c) => c.attributes.name),
    ['Step 1: Add sub', 'Step 2: Break add', 'Step 3: Test sub'],
  );
  assert.ok(Number(added.attributes.time) > 0, 'the verify time');
  assert.deepEqual(
    added.children.map((c) => c.name),
    ['system-out'],
  );
  assert.match(child(added, 'system-out')?.text ?? '', /^verify: verified: 1 command, 1 test passed/);
  assert.deepEqual(child(broken, 'failure')?.attributes, {
    message: 'failed: test exited 1 (1 of 1 test failed)',
    type: 'failed',
  });
  assert.match(child(broken, 'failure')?.text ?? '', /not ok/);
  assert.equal(child(notRun, 'skipped')?.attributes.message, 'not run: step 2 failed');
});

test('--dry-run --junit in a CI job: every step verified and reported, the workspace untouched', async (t) => {
  const root = actRepo(
    t,
    planDoc('Add sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  const before = withoutState(fingerprint(root));
  const dir = tempDir(t);
  const result = await runAideInProcess(
    ['act', '--dry-run', '--junit', join(dir, 'aide-act.xml'), '--patch-out', join(dir, 'aide.patch')],
    { cwd: root, env: { CI: 'true' } },
  );
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.deepEqual(withoutState(fingerprint(root)), before);
  const xml = read(dir, 'aide-act.xml');
  assert.deepEqual(
    [parseXml(xml).attributes.tests, parseXml(xml).attributes.failures, parseXml(xml).attributes.skipped],
    ['2', '0', '0'],
  );
  assert.deepEqual(
    testcases(xml).map((c) => c.attributes.name),
    ['Step 1: Add sub', 'Step 2: Test sub'],
  );
  assert.match(xml, /<property name="aide.dry_run" value="true"\/>/);
  assert.match(read(dir, 'aide.patch'), /\+export function sub/);
});

test('an optional command runs only for the step whose Verify: names it, after the others', async (t) => {
  const commands = [
    { name: 'test', run: ['node', '--test', '--test-reporter=tap', 'test/'] },
    { name: 'smoke', run: 'echo smoke ran', optional: true },
  ];
  const root = actRepo(
    t,
    planDoc('Add sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB, verify: ['smoke'] },
    ]),
    sandbox({ commands }),
  );
  const result = await runAideInProcess(['act', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  // A command writes only its scratch: its log says whether, and for which step, it ran.
  const [session = ''] = readdirSync(join(root, '.aide/state/sessions')).filter((name) =>
    name.startsWith('act-'),
  );
  const logs = (step: number) =>
    readdirSync(join(root, '.aide/state/sessions', session, 'logs', `step-${step}`));
  assert.equal(logs(1).filter((name) => name.includes('smoke')).length, 0);
  const smoke = logs(2).filter((name) => name.includes('smoke'));
  assert.equal(smoke.length, 1, 'ran once');
  assert.equal(
    read(join(root, '.aide/state/sessions', session, 'logs', 'step-2'), smoke[0] ?? ''),
    'smoke ran\n',
  );
  const steps = stepOutputs(result.stdout);
  assert.doesNotMatch(steps.get(1) ?? '', /smoke/);
  assert.match(steps.get(1) ?? '', /verified: 1 command, 1 test passed/);
  assert.match(steps.get(2) ?? '', /✓ test [\s\S]*✓ smoke [\s\S]*verified: 2 commands, 2 tests passed/);
});

test('a Verify: name that is no command: exit 2 with the plan file:line and the known names, before any work', async (t) => {
  const root = actRepo(t, planDoc('Add sub', [{ title: 'Add sub', edits: ADD_SUB, verify: ['tset'] }]));
  const result = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /\.aide\/plans\/plan\.md:13:9: step 1: Verify: "tset" is not a command in \.aide\/sandbox\.json \(did you mean "test"\?\)/,
  );
  assert.match(
    result.stderr,
    /The commands in \.aide\/sandbox\.json are: test\. Add the command to "commands" in \.aide\/sandbox\.json, or correct the name in the plan\./,
  );
  assert.equal(existsSync(join(root, '.aide/state')), false, 'no session, no shadow');
});
