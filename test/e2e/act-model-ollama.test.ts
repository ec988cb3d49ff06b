/**
 * A model step of `aide act` against the fake Ollama (real HTTP, streaming NDJSON): a wrong fix,
 * then the right one after the failure's tail. The recorded requests show what the model got:
 * the tail as untrusted data, and the retry's request extending the first attempt's byte for
 * byte (the server's prompt cache keeps hitting), with one fixed num_ctx throughout.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT, planDoc, sandbox } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { startFakeOllama } from '../helpers/fake-ollama-server.js';
import { gitRepo, tempDir } from '../helpers/sandbox.js';

const SUB_TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sub } from '../src/calc.js';\n\ntest('sub', () => {\n  assert.equal(sub(5, 3), 2);\n});\n";

function writeCalc(body: string): string {
  return `<write_file>\n<path>src/calc.js</path>\n<content>\n${PROJECT['src/calc.js']}\nexport function sub(a, b) {\n  return ${body};\n}\n</content>\n</write_file>`;
}

const DONE = '<attempt_completion>\n<result>Added sub.</result>\n</attempt_completion>';

interface Chat {
  messages: Array<{ role: string; content: string }>;
  options?: { num_ctx?: number };
}

test(
  'a wrong fix, then the right one: the tail reaches the model and the retry extends the conversation',
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
    // The prompt counts are at least what aide sends: a smaller one would read as a cut prompt.
    const ollama = await startFakeOllama({
      replies: [writeCalc('a + b'), DONE, writeCalc('a - b'), DONE].map((reply) => ({
        chunks: [reply],
        promptTokens: 8000,
      })),
    });
    t.after(() => ollama.close());
    const result = await runAide(['act', '--yes', '--endpoint', ollama.url, '--model', 'qwen2.5-coder:14b'], {
      cwd: root,
      home: tempDir(t),
    });
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(readFileSync(join(root, 'src/calc.js'), 'utf8'), /return a - b;/);
    const chats = ollama.chats as Chat[];
    assert.equal(chats.length, 4);
    const [, endOfFirst, retry] = chats;
    const tail = retry?.messages.at(-1)?.content ?? '';
    assert.match(tail, /\[\[tool_result name=verify status=error fence=\w+\]\]/);
    assert.match(tail, /Failing tests: sub/);
    assert.match(tail, /8 !== 2/);
    // The retry sends the first attempt's messages again, byte for byte, then the model's finish and the failure.
    const before = endOfFirst?.messages ?? [];
    assert.deepEqual(retry?.messages.slice(0, before.length), before);
    assert.equal(retry?.messages.length, before.length + 2);
    assert.equal(new Set(chats.map((c) => c.options?.num_ctx)).size, 1, 'one num_ctx for the session');
  },
);
