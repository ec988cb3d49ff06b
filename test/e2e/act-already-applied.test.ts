/**
 * Re-running edits that are already in the files (issue 11, item 2): after `--yes` refuses a
 * protected step, the hint gives the command that carries the session on; and a step (or an
 * `aide apply`) whose edits were written before is "already applied", exit 0, nothing written,
 * never "SEARCH not found". A failed edit shows the person user text (item 3), not the text
 * written for a model, with the first difference visible.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ADD_SUB, PROJECT, TEST_SUB, actRepo, edit, planDoc } from '../helpers/act.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, gitRepo } from '../helpers/sandbox.js';
import { withoutState } from '../helpers/verify.js';

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
const count = (text: string, needle: string) => text.split(needle).length - 1;

test('after --yes refuses a protected step, the hint names the resume, and it carries the session on', async (t) => {
  const root = actRepo(
    t,
    planDoc('Add sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  const refused = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(refused.code, 4, refused.stdout + refused.stderr);
  assert.match(
    refused.stdout,
    /✗ not written: it changes protected files: test\/calc\.test\.js \(rule \*\*\/test\/\*\*\)\. --yes does not approve those; if you expect it, carry on with `aide act --resume --yes --allow-protected`/,
  );
  const hint = /Carry on from where it stopped with `([^`]+)`\./.exec(refused.stdout);
  assert.equal(hint?.[1], 'aide act --resume --yes --allow-protected', refused.stdout);
  const resumed = await runAideInProcess((hint?.[1] ?? '').split(' ').slice(1), { cwd: root });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.equal(count(read(root, 'src/calc.js'), 'export function sub'), 1);
  assert.match(read(root, 'test/calc.test.js'), /test\('sub'/);
});

test('the same command with --allow-protected starts a new session: step 1 is already applied, not a failure', async (t) => {
  const root = actRepo(
    t,
    planDoc('Add sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Test sub', edits: TEST_SUB },
    ]),
  );
  assert.equal((await runAideInProcess(['act', '--yes'], { cwd: root })).code, 4);
  const again = await runAideInProcess(['act', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(
    again.stdout,
    /Step 1: Add sub\n {2}- skipped: already applied: its edits are already in the files\n/,
  );
  assert.match(again.stdout, /Step 2: Test sub[\s\S]*✓ written: test\/calc\.test\.js/);
  assert.equal(
    count(read(root, 'src/calc.js'), 'export function sub'),
    1,
    'the append was not made a second time',
  );
});

test('a whole plan run twice: every step already applied, exit 0, nothing written', async (t) => {
  const root = actRepo(t, planDoc('Add sub', [{ title: 'Add sub', edits: ADD_SUB }]));
  assert.equal((await runAideInProcess(['act', '--yes'], { cwd: root })).code, 0);
  const before = withoutState(fingerprint(root));
  const again = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(again.stdout, /- skipped: already applied/);
  assert.doesNotMatch(again.stdout, /not found|failed:/);
  assert.deepEqual(withoutState(fingerprint(root)), before);
});

const REPLY = edit('src/calc.js', '  return a + b;', '  return Number(a) + Number(b);');

test('aide apply of a reply already applied: exit 0, says so, writes nothing', async (t) => {
  const repo = gitRepo(t, PROJECT);
  writeFileSync(join(repo, 'reply.md'), REPLY);
  assert.equal((await runAideInProcess(['apply', 'reply.md'], { cwd: repo })).code, 0);
  const before = fingerprint(repo);
  const again = await runAideInProcess(['apply', 'reply.md'], { cwd: repo });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(
    again.stdout,
    /^aide apply: already applied: the edit is already in the files; nothing written\.\n {2}= block 1 src\/calc\.js \(line 2\)\n$/,
  );
  assert.deepEqual(fingerprint(repo), before);
  const json = await runAideInProcess(['apply', 'reply.md', '--json'], { cwd: repo });
  const report = JSON.parse(json.stdout) as {
    ok: boolean;
    written: boolean;
    blocks: Array<{ action?: string }>;
  };
  assert.deepEqual(
    [json.code, report.ok, report.written, report.blocks.map((b) => b.action)],
    [0, true, false, ['already-applied']],
  );
});

/** A SEARCH whose second line differs from the file only in its indentation (a tab for two spaces), and which has a line the file lacks. */
const MISCOPIED = edit(
  'src/calc.js',
  'export function add(a, b) {\n\treturn a + b;\n}\nexport const zero = 0;',
  'export function add(a, b) {\n\treturn a + b;\n}\nexport const one = 1;',
);

test('a failed edit in aide act shows user text and the difference made visible, not the model feedback', async (t) => {
  const root = actRepo(t, planDoc('Constants', [{ title: 'Add one', edits: MISCOPIED }]));
  const result = await runAideInProcess(['act', '--yes'], { cwd: root });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /✗ failed: the edits did not apply \(1 of 1 edit failed; none is written\):\n {4}block 1, src\/calc\.js \(line 3 of the step's edits\): the SEARCH text was not found in src\/calc\.js\n/,
  );
  assert.match(
    result.stdout,
    /\n {6}first difference at line 2:\n {8}file: {3}··return a \+ b;\n {8}SEARCH: →return a \+ b;\n {16}\^\n/,
  );
  assert.match(result.stdout, /hint: SEARCH must match lines of the file exactly/);
  assert.doesNotMatch(result.stdout, /send ALL|your reply|None of your edits/);
  assert.equal(read(root, 'src/calc.js'), PROJECT['src/calc.js']);
});

test('aide apply shows the same visible difference', async (t) => {
  const repo = gitRepo(t, PROJECT);
  const result = await runAideInProcess(['apply', '-'], { cwd: repo, input: MISCOPIED });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /\n {6}first difference at line 2:\n {8}file: {3}··return a \+ b;\n {8}SEARCH: →return a \+ b;\n {16}\^\n/,
  );
});
