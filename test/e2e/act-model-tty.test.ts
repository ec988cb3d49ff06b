/**
 * A model step of `aide act` on a real terminal (a pseudo-terminal from util-linux `script`):
 * the task tree waits through a failed attempt (it is followed by another, not by the step's
 * end), then shows the passing attempt's verify run and asks; a step no attempt passes fails
 * in the tree and is never asked about.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT, planDoc, sandbox } from '../helpers/act.js';
import { KEY, needScript, onTerminal } from '../helpers/pty.js';
import { gitRepo, tempDir, type Cleanup } from '../helpers/sandbox.js';

const SUB_TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sub } from '../src/calc.js';\n\ntest('sub', () => {\n  assert.equal(sub(5, 3), 2);\n});\n";

const writeCalc = (body: string) =>
  `<write_file>\n<path>src/calc.js</path>\n<content>\n${PROJECT['src/calc.js']}\nexport function sub(a, b) {\n  return ${body};\n}\n</content>\n</write_file>`;
const DONE = '<attempt_completion>\n<result>Added sub.</result>\n</attempt_completion>';

function setup(t: Cleanup, replies: string[]): { root: string; model: string } {
  const root = gitRepo(t, {
    ...PROJECT,
    'test/sub.test.js': SUB_TEST,
    '.aide/sandbox.json': sandbox(),
    '.aide/plans/plan.md': planDoc('Add sub', [
      { title: 'Add sub', intent: 'Add `sub(a, b)` to src/calc.js.' },
    ]),
  });
  const file = join(tempDir(t), 'replies.jsonl');
  writeFileSync(file, replies.map((reply) => JSON.stringify({ reply })).join('\n') + '\n');
  return { root, model: `replay:${file}` };
}

test('a failed attempt, then a passing one: the tree asks about the passing one and Enter writes it', async (t) => {
  needScript();
  const { root, model } = setup(t, [writeCalc('a + b'), DONE, writeCalc('a - b'), DONE]);
  const run = onTerminal(root, ['act', '--model', model]);
  await run.waitFor('Write step 1 (Add sub) into your files?');
  run.press(KEY.enter);
  assert.equal(await run.exit(), 0, run.output());
  assert.match(readFileSync(join(root, 'src/calc.js'), 'utf8'), /return a - b;/);
  assert.match(
    run.output(),
    /✔ Step 1: Add sub\n {4}✔ Edits applied: src\/calc\.js \+4 -0\n {4}✔ test {2}2 tests passed/,
  );
  // The review says the step passed on a second try.
  assert.match(run.output(), /\(attempt 2 of 3: the one before failed verification\)/);
});

test('no attempt passes: the step fails in the tree, nothing is asked or written, exit 1', async (t) => {
  needScript();
  const { root, model } = setup(t, [
    writeCalc('a + b'),
    DONE,
    writeCalc('a * b'),
    DONE,
    writeCalc('b - a'),
    DONE,
  ]);
  const run = onTerminal(root, ['act', '--model', model]);
  assert.equal(await run.exit(), 1, run.output());
  assert.doesNotMatch(run.output(), /into your files\?/);
  assert.match(run.output(), /failed verification — review carefully/);
  assert.equal(readFileSync(join(root, 'src/calc.js'), 'utf8'), PROJECT['src/calc.js']);
});
