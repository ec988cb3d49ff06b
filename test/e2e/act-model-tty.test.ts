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
import { startFakeOllama } from '../helpers/fake-ollama-server.js';
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
    /✔ Step 1: Add sub\n {4}✖ Attempt 1 of 3: verify failed: test exited 1 \(1 of 2 tests failed\)\n {4}✔ Attempt 2 of 3: verified\n {4}✔ Edits applied: src\/calc\.js \+4 -0\n {4}✔ test {2}2 tests passed/,
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

const MUL_CHECK =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { mul } from '../src/calc.js';\n\ntest('mul', () => {\n  assert.equal(mul(4, 3), 12);\n});\n";

/** src/calc.js with sub done right and `mul` returning `body`. */
const writeMul = (body: string) =>
  `<write_file>\n<path>src/calc.js</path>\n<content>\n${PROJECT['src/calc.js']}\nexport function sub(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return ${body};\n}\n</content>\n</write_file>`;

test('a passed step is approved and written; a failed one is shown as its best attempt, marked, and never written', async (t) => {
  needScript();
  const root = gitRepo(t, {
    ...PROJECT,
    'test/sub.test.js': SUB_TEST,
    // Outside test/: only step 2 runs it (its Verify: line names the optional command).
    'checks/mul.test.js': MUL_CHECK,
    '.aide/sandbox.json': sandbox({
      commands: [
        { name: 'test', run: ['node', '--test', '--test-reporter=tap', 'test/'] },
        { name: 'mul', run: ['node', '--test', '--test-reporter=tap', 'checks/'], optional: true },
      ],
    }),
    '.aide/plans/plan.md': planDoc('Sub and mul', [
      { title: 'Add sub', intent: 'Add `sub(a, b)` to src/calc.js.' },
      { title: 'Add mul', intent: 'Add `mul(a, b)` to src/calc.js.', verify: ['mul'] },
    ]),
  });
  const file = join(tempDir(t), 'replies.jsonl');
  const replies = [
    writeCalc('a - b'),
    DONE,
    writeMul('a + b'),
    DONE,
    writeMul('a - b'),
    DONE,
    writeMul('a'),
    DONE,
  ];
  writeFileSync(file, replies.map((reply) => JSON.stringify({ reply })).join('\n') + '\n');
  const run = onTerminal(root, ['act', '--model', `replay:${file}`]);
  await run.waitFor('Write step 1 (Add sub) into your files?');
  run.press(KEY.enter);
  assert.equal(await run.exit(), 1, run.output());
  const output = run.output();
  // Step 1 was asked about and written; step 2 never was.
  assert.match(readFileSync(join(root, 'src/calc.js'), 'utf8'), /return a - b;/);
  assert.doesNotMatch(readFileSync(join(root, 'src/calc.js'), 'utf8'), /mul/);
  assert.doesNotMatch(output, /Write step 2 \(Add mul\) into your files\?/);
  // Below the tree: the best attempt (attempt 1: 4 + 3 = 7, one failing test like the others), marked, its diff and tail.
  assert.match(
    output,
    /Step 2: Add mul — failed verification — review carefully: its best attempt is not written\nattempt 1 of the 3 made \(1 failing command, 1 failing test\); its patch is saved in \S+step-2-attempt-1\.patch\n {2}M src\/calc\.js \+4 -0\n/,
  );
  assert.match(output, /\+export function mul\(a, b\) \{\n\+ {2}return a \+ b;/);
  assert.match(output, /│ Failing tests: mul[\s\S]*│ .*7 !== 12/);
  assert.match(output, /1 step applied, 0 skipped, 1 failed/);
});

/**
 * A reply streamed in small chunks, slowly enough for a rate to show (after a quarter second) and
 * stay a while: ~0.7 s for a reply of ~170 characters. With 12-character chunks it streamed for
 * ~0.35 s, and on a machine loaded 2.5× no frame fell in the tenth of a second the rate was up.
 */
const streamed = (reply: string) => ({
  chunks: reply.match(/[\s\S]{1,6}/g) ?? [],
  chunkDelayMs: 25,
  promptTokens: 8000,
});

test('each attempt is a row: running with the tool call and the live tokens/s, then its verify result', async (t) => {
  needScript();
  const { root } = setup(t, []);
  const ollama = await startFakeOllama({
    replies: [writeCalc('a + b'), DONE, writeCalc('a - b'), DONE].map(streamed),
  });
  t.after(() => ollama.close());
  const run = onTerminal(root, ['act', '--endpoint', ollama.url, '--model', 'qwen2.5-coder:14b']);
  await run.waitFor(/Attempt 1 of 3: running…\n\s+› writing, \d+\.\d tokens\/s/);
  await run.waitFor(/Attempt 1 of 3: running…\n\s+› write_file src\/calc\.js/);
  await run.waitFor(
    /✖ Attempt 1 of 3: verify failed: test exited 1 \(1 of 2 tests failed\)\n\s+[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏◼] Attempt 2 of 3: running…/,
  );
  await run.waitFor('Write step 1 (Add sub) into your files?');
  run.press(KEY.enter);
  assert.equal(await run.exit(), 0, run.output());
  assert.match(
    run.output(),
    /✔ Step 1: Add sub\n {4}✖ Attempt 1 of 3: verify failed: test exited 1 \(1 of 2 tests failed\)\n {4}✔ Attempt 2 of 3: verified\n {4}✔ Edits applied: src\/calc\.js \+4 -0\n {4}✔ test {2}2 tests passed[^\n]*\n {4}✔ Approved\n/,
  );
  assert.match(readFileSync(join(root, 'src/calc.js'), 'utf8'), /return a - b;/);
});
