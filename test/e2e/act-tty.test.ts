/**
 * `aide act` on a real terminal (a pseudo-terminal from util-linux `script`): the listr2 task
 * tree, and the step review inside it — Approve / Show diff / Skip step / Abort with the verdict
 * and the files above it, the diff printed or paged, the second question for protected files,
 * and Ctrl-C in the prompt aborting instead of hanging.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ADD_SUB, BREAK_ADD, PROJECT, actRepo, edit, planDoc, sandbox, sharedGate } from '../helpers/act.js';
import { KEY, needScript, onTerminal } from '../helpers/pty.js';
import { tempDir } from '../helpers/sandbox.js';

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
const SWAP = edit('src/calc.js', '  return a + b;', '  return b + a;');
/** A test-only step that passes on its own (a protected path: **\/test/**). */
const TEST_MORE = edit(
  'test/calc.test.js',
  '  assert.equal(add(2, 3), 5);',
  '  assert.equal(add(2, 3), 5);\n  assert.equal(add(-2, 2), 0);',
);
/** A step whose diff is longer than the 40-row terminal. */
const LONG = edit(
  'src/calc.js',
  '  return a + b;\n}',
  `  return a + b;\n}\n${Array.from({ length: 60 }, (_, i) => `// note ${i + 1}`).join('\n')}`,
);

/** A pager that records what it was given and says so on the terminal. */
function recordingPager(dir: string): { command: string; seen: string } {
  const command = join(dir, 'pager.sh');
  writeFileSync(command, '#!/bin/sh\ncat > "$0.seen"\necho "pager got $(wc -l < "$0.seen") lines"\n');
  chmodSync(command, 0o755);
  return { command, seen: `${command}.seen` };
}

const question = (step: number, title: string) => `Write step ${step} (${title}) into your files?`;

test('a task per step; Enter approves step 1, Show diff then Skip step leaves step 2 unwritten', async (t) => {
  needScript();
  const root = actRepo(
    t,
    planDoc('Two steps', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Swap operands', edits: SWAP },
    ]),
  );
  const pager = recordingPager(tempDir(t));
  const run = onTerminal(root, ['act'], { PAGER: pager.command });
  await run.waitFor(question(1, 'Add sub'));
  run.press(KEY.enter);
  await run.waitFor(question(2, 'Swap operands'));
  run.press(KEY.down, KEY.enter);
  await run.waitFor('1 file changed');
  await run.waitFor(question(2, 'Swap operands'));
  run.press(KEY.down, KEY.down, KEY.enter);
  assert.equal(await run.exit(), 0, run.output());
  const output = run.output();
  // The verdict and the files right above the menu, then the menu itself.
  assert.match(
    output,
    /verified: 1 command, 1 test passed\n {2}M src\/calc\.js \+4 -0\n\? Write step 1 \(Add sub\) into your files\? … ?\n. Approve\n {2}Show diff\n {2}Skip step\n {2}Abort/,
  );
  // The diff: its files with their counts, then the hunk.
  assert.match(
    output,
    /1 file changed\n {2}M src\/calc\.js \+1 -1\n\ndiff --git a\/src\/calc\.js b\/src\/calc\.js\n[\s\S]*?@@ -1,5 \+1,5 @@\n export function add\(a, b\) \{\n- {2}return a \+ b;\n\+ {2}return b \+ a;\n/,
  );
  assert.equal(existsSync(pager.seen), false, 'a diff that fits on the screen is printed, not paged');
  // The tree as it stands at the end: each step, its subtasks, what happened.
  assert.match(
    output,
    /aide act: Two steps\n {2}› isolation: [^\n]+\n {2}✔ Step 1: Add sub\n {4}✔ Edits applied: src\/calc\.js \+4 -0\n {4}✔ test {2}1 test passed {2}\d+\.\d s\n {4}✔ Approved\n {4}✔ Checkpoint \w+, written: src\/calc\.js \+4 -0\n/,
  );
  // Skip step is the person's choice, and the tree says so (not "not approved").
  assert.match(
    output,
    /↓ Step 2: Swap operands — skipped: you chose Skip step\n {4}✔ Edits applied: src\/calc\.js \+1 -1\n {4}✔ test {2}1 test passed[^\n]*\n {4}↓ Skipped: you chose Skip step\n {4}↓ Not written\n/,
  );
  assert.doesNotMatch(output, /not approved/);
  assert.match(
    output,
    /\n1 step applied, 1 skipped, 0 failed\nCheckpoints: \w{10} \(step 1\)\nUndo with `aide restore \w+`/,
  );
  assert.match(read(root, 'src/calc.js'), /export function sub/);
  assert.match(read(root, 'src/calc.js'), /return a \+ b/);
});

test('a diff longer than the terminal goes through $PAGER, then the same menu comes back', async (t) => {
  needScript();
  const root = actRepo(t, planDoc('Notes', [{ title: 'Add notes', edits: LONG }]));
  const pager = recordingPager(tempDir(t));
  const run = onTerminal(root, ['act'], { PAGER: pager.command });
  await run.waitFor(question(1, 'Add notes'));
  run.press(KEY.down, KEY.enter);
  await run.waitFor(/pager got \d+ lines/);
  await run.waitFor(question(1, 'Add notes'));
  run.press(KEY.enter);
  assert.equal(await run.exit(), 0, run.output());
  const paged = readFileSync(pager.seen, 'utf8');
  assert.match(paged, /^1 file changed\n {2}M src\/calc\.js \+60 -0\n/);
  assert.match(paged, /\n\+\/\/ note 60\n/);
  assert.doesNotMatch(run.output(), /\+\/\/ note 60/, 'the long diff was not printed as well');
  assert.match(read(root, 'src/calc.js'), /\/\/ note 60/);
});

test('Abort stops the session: exit 5, the step not written, later steps not run', async (t) => {
  needScript();
  const root = actRepo(
    t,
    planDoc('Three steps', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Swap operands', edits: SWAP },
      { title: 'Test more', edits: TEST_MORE },
    ]),
  );
  const run = onTerminal(root, ['act']);
  await run.waitFor(question(1, 'Add sub'));
  run.press(KEY.enter);
  await run.waitFor(question(2, 'Swap operands'));
  run.press(KEY.down, KEY.down, KEY.down, KEY.enter);
  assert.equal(await run.exit(), 5, run.output());
  const output = run.output();
  assert.match(output, /↓ Step 2: Swap operands — aborted: nothing of this step was written\n/);
  assert.match(output, /↓ Step 3: Test more — not run\n/);
  assert.match(output, /1 step applied, 0 skipped, 0 failed, aborted, 1 not run/);
  assert.doesNotMatch(output, new RegExp(question(3, 'Test more').replace(/[()?]/g, '\\$&')));
  assert.match(read(root, 'src/calc.js'), /export function sub/);
  assert.match(read(root, 'src/calc.js'), /return a \+ b/, 'nothing of the aborted step was written');
  assert.equal(read(root, 'test/calc.test.js'), PROJECT['test/calc.test.js']);
});

test('Ctrl-C in the prompt aborts (exit 5) instead of hanging, and writes nothing', async (t) => {
  needScript();
  const root = actRepo(
    t,
    planDoc('Two steps', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Swap operands', edits: SWAP },
    ]),
  );
  const run = onTerminal(root, ['act']);
  await run.waitFor(question(1, 'Add sub'));
  run.press(KEY.ctrlC);
  assert.equal(await run.exit(), 5, run.output());
  assert.match(run.output(), /Step 2: Swap operands — not run/);
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
});

test('SIGINT while the review waits (a kill, not a key): aide handles it (exit 130, session recorded as interrupted), nothing written', async (t) => {
  needScript();
  const root = actRepo(
    t,
    planDoc('Two steps', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Swap operands', edits: SWAP },
    ]),
  );
  const run = onTerminal(root, ['act']);
  await run.waitFor(question(1, 'Add sub'));
  run.signal('SIGINT');
  assert.equal(await run.exit(), 130, run.output());
  const output = run.output();
  assert.match(output, /aide: interrupted/);
  assert.match(
    output,
    /↓ Step 1: Add sub — aborted: nothing of this step was written\n[\s\S]*↓ Step 2: Swap operands — interrupted\n/,
  );
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
  const [session] = readdirSync(join(root, '.aide/state/sessions')).filter((name) => name.startsWith('act-'));
  const state = JSON.parse(read(root, `.aide/state/sessions/${session ?? 'missing'}/state.json`)) as {
    status: string;
  };
  assert.equal(
    state.status,
    'interrupted',
    'aide recorded the session itself: it was not killed by the prompt library',
  );
});

test('keys typed while the tests run are not answers: an Enter pressed then does not approve', async (t) => {
  needScript();
  // The test command runs until this file exists, so the key is surely typed while it runs. It
  // is in the test's HOME, which commands see only through home_binds (read-only, live).
  const gate = sharedGate(t);
  const go = join(gate.path, 'go');
  const wait = { name: 'test', run: ['sh', '-c', `while [ ! -e "${gate.inside}/go" ]; do sleep 0.05; done`] };
  const root = actRepo(
    t,
    planDoc('One step', [{ title: 'Add sub', edits: ADD_SUB }]),
    sandbox({ commands: [wait], home_binds: gate.homeBinds }),
  );
  const run = onTerminal(root, ['act']);
  await run.waitFor('isolation:');
  run.press('§', KEY.enter);
  await run.keysDelivered();
  // Echo is off while the tree is live: typed keys and an Enter would land in the middle of it
  // and leave its header on the screen twice. Ctrl-C still interrupts (ISIG stays on).
  const settings = run.terminalSettings();
  assert.match(settings, /(^|\s)-echo(\s|;|$)/m, settings);
  assert.match(settings, /(^|\s)isig(\s|;|$)/m, settings);
  writeFileSync(go, '');
  await run.waitFor(question(1, 'Add sub'));
  run.press(KEY.down, KEY.down, KEY.enter);
  assert.equal(await run.exit(), 0, run.output());
  assert.match(run.output(), /↓ Step 1: Add sub — skipped: you chose Skip step/);
  assert.doesNotMatch(run.output(), /§/, 'the typed key was not echoed');
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
});

test('a protected file: a warning names it and its rule, Approve asks again, and no keeps the test file as it was', async (t) => {
  needScript();
  const root = actRepo(
    t,
    planDoc('Tests first', [
      { title: 'Test more', edits: TEST_MORE },
      { title: 'Add sub', edits: ADD_SUB },
    ]),
  );
  const run = onTerminal(root, ['act']);
  await run.waitFor(question(1, 'Test more'));
  run.press(KEY.enter);
  await run.waitFor('Write the protected file test/calc.test.js too? (no skips the step)');
  run.press('n');
  await run.waitFor(question(2, 'Add sub'));
  run.press(KEY.enter);
  assert.equal(await run.exit(), 0, run.output());
  const output = run.output();
  assert.match(
    output,
    /verified: 1 command, 1 test passed\n {2}M test\/calc\.test\.js \+1 -0\n! protected: test\/calc\.test\.js \(rule \*\*\/test\/\*\*\): writing it takes a second, explicit yes\n\? Write step 1/,
  );
  assert.match(
    output,
    /↓ Step 1: Test more — skipped: you did not approve writing its protected files\n[\s\S]*?↓ Skipped: you did not approve writing its protected files\n/,
  );
  // The second question shows no raw value ("(y/N) ‣ false") while it waits.
  assert.match(output, /too\? \(no skips the step\) \(y\/N\) ‣/);
  assert.doesNotMatch(output, /‣ (false|true)/);
  assert.equal(read(root, 'test/calc.test.js'), PROJECT['test/calc.test.js']);
  assert.match(read(root, 'src/calc.js'), /export function sub/, 'the run went on to the next step');
});

test('a step whose tests fail lists no approval or write rows: they would never come', async (t) => {
  needScript();
  const root = actRepo(t, planDoc('Break it', [{ title: 'Break add', edits: BREAK_ADD }]));
  const run = onTerminal(root, ['act']);
  assert.equal(await run.exit(), 1, run.output());
  const output = run.output();
  assert.match(
    output,
    /❯ Step 1: Break add\n {4}✔ Edits applied: src\/calc\.js \+1 -1\n {4}✖ test [^\n]*\n {6}› test exited 1/,
  );
  assert.doesNotMatch(
    output,
    /Approval|Checkpoint and write/,
    'no frame showed rows for what a failed step never reaches',
  );
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
});
