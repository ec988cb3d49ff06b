/**
 * `aide act` end to end on a real project with its own tests: verified steps written and
 * checkpointed, a failing step not written and the rest not run, dry runs, conflicts with the
 * user's own edits, Run commands and templates, and no work at all without a way to approve.
 * The first test runs the built bin as a child process; the rest run its runCli in this process
 * (the verify commands are real processes either way; act-resume, act-crash and act-tty drive
 * real aide processes with signals and a terminal).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  ADD_SUB,
  BREAK_ADD,
  PROJECT,
  TEST_SUB,
  actRepo,
  commandSaid,
  edit,
  planDoc,
  sandbox,
  sharedGate,
} from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, tempDir, testEnv } from '../helpers/sandbox.js';
import { withoutState } from '../helpers/verify.js';

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

test('every step passes: each is verified, written and checkpointed; the summary says how to undo', async (t) => {
  const root = actRepo(
    t,
    planDoc('Add sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  // Step 2 edits a test: a protected path.
  const result = await runAide(['act', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(read(root, 'src/calc.js'), /export function sub/);
  assert.match(read(root, 'test/calc.test.js'), /test\('sub'/);
  assert.match(
    result.stdout,
    /Step 1: Add sub[\s\S]*verified: 1 command, 1 test passed[\s\S]*✓ written: src\/calc\.js \+4 -0/,
  );
  assert.match(result.stdout, /Step 2: Test sub[\s\S]*2 tests passed/);
  assert.match(
    result.stdout,
    /2 steps applied, 0 skipped, 0 failed\nCheckpoints: \w{10} \(step 1\), \w{10} \(step 2\)\n/,
  );
  const undo = /Undo with `aide restore (\w+)`/.exec(result.stdout)?.[1];
  assert.ok(undo !== undefined, result.stdout);
  const restored = await runAideInProcess(['restore', undo, '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
});

test('a step that fails verification is not written, exit 1, and later steps do not run', async (t) => {
  const root = actRepo(
    t,
    planDoc('Mixed', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Break add', edits: BREAK_ADD },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  const result = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(read(root, 'src/calc.js'), /export function sub/, 'step 1 was written');
  assert.match(read(root, 'src/calc.js'), /return a \+ b/, 'step 2 was not');
  assert.doesNotMatch(read(root, 'test/calc.test.js'), /sub/, 'step 3 did not run');
  assert.match(result.stdout, /Step 2: Break add[\s\S]*✗ failed: test exited 1 \(1 of 1 test failed\)/);
  assert.match(result.stdout, /1 step applied, 0 skipped, 1 failed, 1 not run/);
  const [session] = readdirSync(join(root, '.aide/state/sessions')).filter((name) => name.startsWith('act-'));
  const dir = join(root, '.aide/state/sessions', session ?? 'missing');
  const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as {
    status: string;
    steps: Array<{ number: number; status: string }>;
  };
  assert.equal(state.status, 'stopped');
  assert.deepEqual(
    state.steps.map((s) => `${s.number}:${s.status}`),
    ['1:applied', '2:failed', '3:not_run'],
  );
  const audit = readFileSync(join(dir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; step: number | null; time: string });
  assert.ok(audit.every((e) => !Number.isNaN(Date.parse(e.time))));
  assert.deepEqual(
    audit.filter((e) => e.type === 'step_finished').map((e) => e.step),
    [1, 2],
  );
  assert.equal(audit.at(-1)?.type, 'session_finished');
  const status = await runAideInProcess(['status'], { cwd: root });
  assert.equal(status.code, 0);
  assert.match(
    status.stdout,
    /session act-[\w-]+: stopped\nplan: \.aide\/plans\/plan\.md — Mixed\n {2}step 1: applied \(checkpoint \w+\)\n {2}step 2: failed\n {2}step 3: not run\nundo this session: `aide restore \w+` puts the files back as they were before it\ncarry it on with `aide act --resume`\n$/,
  );
});

test('--dry-run writes nothing, and its --patch-out patch applies cleanly with git apply', async (t) => {
  const root = actRepo(
    t,
    planDoc('Add sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  const before = withoutState(fingerprint(root));
  const patch = join(tempDir(t), 'aide.patch');
  const result = await runAideInProcess(['act', '--dry-run', '--patch-out', patch], { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /2 steps verified \(dry run: nothing written\)/);
  assert.deepEqual(withoutState(fingerprint(root)), before);
  execFileSync('git', ['apply', '--check', patch], { cwd: root, env: testEnv() });
  execFileSync('git', ['apply', patch], { cwd: root, env: testEnv() });
  assert.match(read(root, 'src/calc.js'), /export function sub/);
  assert.match(read(root, 'test/calc.test.js'), /test\('sub'/);
});

test('without a terminal and without --yes or --dry-run: exit 4 before any work', async (t) => {
  const root = actRepo(t, planDoc('Add sub', [{ title: 'Add sub', edits: ADD_SUB }]));
  const result = await runAideInProcess(['act'], { cwd: root });
  assert.equal(result.code, 4, result.stderr);
  assert.match(result.stderr, /--yes|--dry-run/);
  assert.equal(existsSync(join(root, '.aide/state')), false, 'no session, no shadow, nothing');
});

test('no network isolation: exit 2 with the fix, nothing created on a first run; on a later one the lock is left free', async (t) => {
  const root = actRepo(t, planDoc('Add sub', [{ title: 'Add sub', edits: ADD_SUB }]));
  const refused = { cwd: root, env: { AIDE_ISOLATION: 'none' } };
  const first = await runAide(['act', '--yes'], refused);
  assert.equal(first.code, 2, first.stdout + first.stderr);
  assert.match(first.stderr, /^aide: network isolation: unavailable because it was turned off/m);
  assert.match(first.stderr, /hint: .*"allow_network": true/);
  assert.equal(existsSync(join(root, '.aide/state')), false, 'no session, no shadow, nothing');
  // A shadow from an earlier session: the isolation is then proven while the shadow opens.
  const dry = await runAide(['act', '--dry-run'], { cwd: root });
  assert.equal(dry.code, 0, dry.stdout + dry.stderr);
  const later = await runAide(['act', '--yes'], refused);
  assert.equal(later.code, 2, later.stdout + later.stderr);
  assert.match(later.stderr, /^aide: network isolation: unavailable/m);
  assert.doesNotMatch(later.stderr, /at openVerifyRunner|Node\.js v/, 'an error, not a crash');
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
  const after = await runAide(['act', '--yes'], { cwd: root });
  assert.equal(after.code, 0, `the lock was left free: ${after.stderr}`);
  assert.match(read(root, 'src/calc.js'), /export function sub/);
});

test('a file the user edits while a step is verified: exit 6, the edit kept, the verified patch saved', async (t) => {
  const gate = sharedGate(t);
  const wait = `echo started; while [ ! -e ${gate.inside}/go ]; do sleep 0.05; done; node --test test/`;
  const root = actRepo(
    t,
    planDoc('Add sub', [{ title: 'Add sub', edits: ADD_SUB }]),
    sandbox({ commands: [{ name: 'test', run: wait }], home_binds: gate.homeBinds }),
  );
  const running = runAideInProcess(['act', '--yes'], { cwd: root });
  await commandSaid(root, /^started$/m);
  writeFileSync(join(root, 'src/calc.js'), '// the user was here\n' + PROJECT['src/calc.js']);
  writeFileSync(join(gate.path, 'go'), '');
  const result = await running;
  assert.equal(result.code, 6, result.stdout + result.stderr);
  assert.equal(read(root, 'src/calc.js'), '// the user was here\n' + PROJECT['src/calc.js']);
  const saved = /saved in (\S+\.patch)/.exec(result.stdout)?.[1];
  assert.ok(saved !== undefined && existsSync(saved), result.stdout);
  assert.match(readFileSync(saved, 'utf8'), /\+export function sub/);
});

test('Run commands must be allowed; their output flows into later steps through templates', async (t) => {
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
  const denied = actRepo(t, plan);
  const refused = await runAideInProcess(['act', '--yes'], { cwd: denied });
  assert.equal(refused.code, 1, refused.stdout);
  assert.match(
    refused.stdout,
    /not allowed; add it, exactly as written, to "allowed_commands" in \.aide\/sandbox\.json/,
  );
  const allowed = actRepo(t, plan, sandbox({ allowed_commands: ['node -e "console.log(40 + 2)"'] }));
  const result = await runAideInProcess(['act', '--yes'], { cwd: allowed });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(read(allowed, 'src/calc.js'), /export const VERSION = 42;/);
});

test('an invalid plan: exit 2 naming the file and line, nothing done', async (t) => {
  const root = actRepo(
    t,
    '---\naide_plan: 1\ntitle: Broken\ncreated: 2026-11-30T10:00:00.000Z\n---\n\n## Step 1: One\n\nFile: src/calc.js\n',
  );
  const result = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /\.aide\/plans\/plan\.md:9/);
  assert.match(result.stderr, /Files:/);
  assert.equal(existsSync(join(root, '.aide/state')), false);
});

test('--json streams one aide.act.event/1 object per line, and every type is documented in the README', async (t) => {
  const root = actRepo(t, planDoc('Add sub', [{ title: 'Add sub', edits: ADD_SUB }]));
  const result = await runAideInProcess(['act', '--yes', '--json'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  const events = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { schema: string; type: string });
  assert.ok(events.every((e) => e.schema === 'aide.act.event/1'));
  const types = [...new Set(events.map((e) => e.type))];
  assert.deepEqual(types, [
    'step_started',
    'step_edited',
    'verify_started',
    'command_started',
    'command_finished',
    'verify_finished',
    'approval_requested',
    'approval_decided',
    'checkpoint_created',
    'patch_applied',
    'step_finished',
    'session_finished',
  ]);
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(
    readme.indexOf('### Events (`aide act --json`)'),
    readme.indexOf('## Checkpoints and undo'),
  );
  for (const type of [...types, 'session_resumed'])
    assert.match(table, new RegExp(`^\\| \`${type}\` \\|`, 'm'), `${type} is in the README's event table`);
});
