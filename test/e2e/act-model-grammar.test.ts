/**
 * Grammar mode in a model step of `aide act`, against the fake llama.cpp server (real HTTP, SSE):
 * with `model.grammar: auto` a call the parser rejects is asked again under the Act-mode grammar
 * (grammarFor('act'): the act tools, write tools included), and only that request carries it;
 * with `model.grammar: off` no request carries a grammar.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { grammarFor } from '../../src/core/agent/grammar.js';
import { PROJECT, planDoc, sandbox } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { startFakeOpenAi } from '../helpers/fake-openai-server.js';
import { gitRepo, tempDir, type Cleanup } from '../helpers/sandbox.js';

const SUB_TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sub } from '../src/calc.js';\n\ntest('sub', () => {\n  assert.equal(sub(5, 3), 2);\n});\n";

/** A write_file without its content: the parser rejects it as malformed. */
const BROKEN = '<write_file>\n<path>src/calc.js</path>\n</write_file>';
const WRITE = `<write_file>\n<path>src/calc.js</path>\n<content>\n${PROJECT['src/calc.js']}\nexport function sub(a, b) {\n  return a - b;\n}\n</content>\n</write_file>`;
const DONE = '<attempt_completion>\n<result>Added sub.</result>\n</attempt_completion>';

interface Chat {
  grammar?: string;
  messages: Array<{ role: string; content: string }>;
}

function repo(t: Cleanup, grammar: 'auto' | 'off'): string {
  return gitRepo(t, {
    ...PROJECT,
    'test/sub.test.js': SUB_TEST,
    '.aide/config.json': JSON.stringify({ model: { grammar } }),
    '.aide/sandbox.json': sandbox(),
    '.aide/plans/plan.md': planDoc('Add sub', [
      { title: 'Add sub', intent: 'Add `sub(a, b)` to src/calc.js.' },
    ]),
  });
}

async function act(t: Cleanup, grammar: 'auto' | 'off'): Promise<Chat[]> {
  const root = repo(t, grammar);
  const server = await startFakeOpenAi({
    kind: 'llama-server',
    replies: [BROKEN, WRITE, DONE].map((reply) => ({ chunks: [reply], promptTokens: 6000 })),
  });
  t.after(() => server.close());
  const result = await runAide(['act', '--yes', '--endpoint', server.url, '--model', 'qwen2.5-coder-14b'], {
    cwd: root,
    home: tempDir(t),
  });
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assert.match(readFileSync(join(root, 'src/calc.js'), 'utf8'), /return a - b;/);
  const chats = server.chats as Chat[];
  assert.equal(chats.length, 3);
  return chats;
}

test(
  'model.grammar auto: the re-ask of a malformed call carries the Act-mode grammar, the others none',
  { timeout: 120_000 },
  async (t) => {
    const [first, reask, last] = await act(t, 'auto');
    assert.equal(first?.grammar, undefined);
    assert.equal(reask?.grammar, grammarFor('act'));
    // The Act grammar, not Plan's: it offers the write tools.
    assert.notEqual(reask?.grammar, grammarFor('plan'));
    assert.match(reask?.grammar ?? '', /write_file/);
    assert.match(reask?.messages.at(-1)?.content ?? '', /Reply with just that call, corrected/);
    assert.equal(last?.grammar, undefined);
  },
);

test('model.grammar off: no act request carries a grammar', { timeout: 120_000 }, async (t) => {
  const chats = await act(t, 'off');
  assert.deepEqual(
    chats.map((c) => c.grammar),
    [undefined, undefined, undefined],
  );
  assert.doesNotMatch(chats[1]?.messages.at(-1)?.content ?? '', /Reply with just that call, corrected/);
});
