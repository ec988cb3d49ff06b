/**
 * A model step of `aide act` killed with SIGKILL (or stopped with Ctrl-C) in the middle of its second attempt (while aide
 * waits on the fake Ollama's reply to the attempt's first request: the server has received it),
 * then `aide act --resume`: attempt 1 keeps its record and its number, the interrupted attempt 2
 * starts again as attempt 2 in a fresh conversation that tells the model how attempt 1 failed,
 * and passes. state.json and `aide status` show attempts 1 and 2; the user's files get the step,
 * and the user's .git is untouched.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT, planDoc, sandbox } from '../helpers/act.js';
import { BIN, runAide } from '../helpers/cli.js';
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama-server.js';
import { fingerprint, gitRepo, tempDir, testEnv } from '../helpers/sandbox.js';

const SUB_TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sub } from '../src/calc.js';\n\ntest('sub', () => {\n  assert.equal(sub(5, 3), 2);\n});\n";

const writeCalc = (body: string) =>
  `<write_file>\n<path>src/calc.js</path>\n<content>\n${PROJECT['src/calc.js']}\nexport function sub(a, b) {\n  return ${body};\n}\n</content>\n</write_file>`;
const DONE = '<attempt_completion>\n<result>Added sub.</result>\n</attempt_completion>';
const MODEL = 'qwen2.5-coder:14b';

interface Chat {
  messages: Array<{ role: string; content: string }>;
}

interface StateJson {
  status: string;
  steps: Array<{ status: string; attempts?: Array<{ attempt: number; passed: boolean; feedback?: string }> }>;
}

/** Resolves once the fake server has received `count` chat requests (polled: no fixed sleep). */
async function received(server: FakeOllama, count: number, exited: Promise<unknown>): Promise<void> {
  let done = false;
  void exited.then(() => (done = true));
  while (server.chats.length < count) {
    if (done) throw new Error(`aide exited after ${server.chats.length} requests, before ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const [signal, how] of [
  ['SIGKILL', 'kill -9'],
  ['SIGINT', 'Ctrl-C'],
] as const)
  test(
    `${how} in the middle of attempt 2, then --resume: attempt 1 kept, attempt 2 made again under its number`,
    { timeout: 120_000 },
    async (t) => {
      const root = gitRepo(t, {
        ...PROJECT,
        'test/sub.test.js': SUB_TEST,
        '.aide/sandbox.json': sandbox(),
        '.aide/plans/plan.md': planDoc('Add sub', [
          { title: 'Add sub', intent: 'Add `sub(a, b)` to src/calc.js.' },
        ]),
      });
      const dotGit = fingerprint(root, '.git');
      const home = tempDir(t);
      // Attempt 1: a wrong sub, its finish; attempt 2's first request never gets its answer.
      const first = await startFakeOllama({
        replies: [
          { chunks: [writeCalc('a + b')], promptTokens: 8000 },
          { chunks: [DONE], promptTokens: 8000 },
          { chunks: [], hang: true },
        ],
      });
      t.after(() => first.close());
      const child = spawn(
        process.execPath,
        [BIN, 'act', '--yes', '--endpoint', first.url, '--model', MODEL],
        {
          cwd: root,
          env: testEnv(home),
          stdio: 'ignore',
        },
      );
      const exited = new Promise((resolve) => {
        child.on('exit', (code, signal) => {
          resolve({ code, signal });
        });
      });
      await received(first, 3, exited);
      child.kill(signal);
      // Ctrl-C ends aide as an interrupt does (130); kill -9 ends it at once.
      assert.deepEqual(
        await exited,
        signal === 'SIGKILL' ? { code: null, signal } : { code: 130, signal: null },
      );

      const [session] = readdirSync(join(root, '.aide/state/sessions')).filter((n) => n.startsWith('act-'));
      const stateFile = join(root, '.aide/state/sessions', session ?? 'missing', 'state.json');
      const killed = JSON.parse(readFileSync(stateFile, 'utf8')) as StateJson;
      assert.equal(killed.steps[0]?.status, signal === 'SIGKILL' ? 'running' : 'cancelled');
      // The attempt under way when aide stopped did not finish: it is not recorded.
      assert.deepEqual(
        killed.steps[0]?.attempts?.map((a) => [a.attempt, a.passed]),
        [[1, false]],
      );
      assert.equal(readFileSync(join(root, 'src/calc.js'), 'utf8'), PROJECT['src/calc.js']);

      const second = await startFakeOllama({
        replies: [writeCalc('a - b'), DONE].map((reply) => ({ chunks: [reply], promptTokens: 8000 })),
      });
      t.after(() => second.close());
      const resumed = await runAide(
        ['act', '--resume', '--yes', '--endpoint', second.url, '--model', MODEL],
        {
          cwd: root,
          home,
        },
      );
      assert.equal(resumed.code, 0, `${resumed.stdout}\n${resumed.stderr}`);
      assert.match(resumed.stdout, /attempt 2 of 3[\s\S]*✓ attempt 2 passed/);
      assert.doesNotMatch(resumed.stdout, /attempt 1 of 3/);
      // A fresh conversation (the system prompt and one task), told how attempt 1 failed, as data.
      const [retry] = second.chats as Chat[];
      assert.equal(retry?.messages.length, 2);
      const task = retry?.messages.at(-1)?.content ?? '';
      assert.match(task, /# Step 1: Add sub/);
      assert.match(task, /tried once before aide was stopped; the files are back as the step started/);
      assert.match(task, /\[\[tool_result name=verify status=error fence=\w+\]\][\s\S]*Failing tests: sub/);
      assert.match(task, /8 !== 2/);
      assert.match(task, /This is attempt 2 of 3\./);

      assert.match(
        readFileSync(join(root, 'src/calc.js'), 'utf8'),
        /export function sub\(a, b\) \{\n {2}return a - b;/,
      );
      assert.deepEqual(fingerprint(root, '.git'), dotGit, "the user's .git is untouched");
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as StateJson;
      assert.equal(state.status, 'finished');
      assert.deepEqual(
        state.steps[0]?.attempts?.map((a) => [a.attempt, a.passed]),
        [
          [1, false],
          [2, true],
        ],
      );
      assert.match(state.steps[0]?.attempts?.[0]?.feedback ?? '', /Failing tests: sub/);
      const status = await runAide(['status'], { cwd: root, home });
      assert.match(status.stdout, /step 1: applied \(checkpoint \w+\); 2 attempts, 1 failed/, status.stdout);
    },
  );
