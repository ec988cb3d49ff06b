/**
 * The grammar checked by llama.cpp's own parser and matcher (test/helpers/llama-grammar.ts), and
 * against the protocol corpus: every malformed reply rejected, every valid one accepted when it
 * is written in the grammar's canonical form (one call, contract names, no tags in prose), and
 * every accepted call's canonical rendering accepted and read back unchanged by the parser.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  loadLlamaGrammar,
  type LlamaGrammarChecker,
  type ParsedGrammar,
} from '../../../test/helpers/llama-grammar.js';
import { checkCall } from './check-call.js';
import { grammarFor } from './grammar.js';
import { parseCalls } from './parse-calls.js';
import { TOOLS, toolsFor, type AgentMode, type ToolName } from './tools.js';

/** dist/src/core/agent/grammar.test.js → <repo>/test/fixtures/protocol/ */
const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/protocol/', import.meta.url));

interface Case {
  name: string;
  mode: AgentMode;
  reply: string;
  calls: { tool: string; input: Record<string, unknown> }[];
  valid: boolean;
}

const cases: Case[] = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.reply.md'))
  .sort()
  .map((file) => {
    const name = file.slice(0, -'.reply.md'.length);
    const expect = JSON.parse(readFileSync(`${FIXTURES}${name}.expect.json`, 'utf8')) as {
      mode: AgentMode;
      calls: Case['calls'];
      rejected: unknown[];
    };
    const reply = readFileSync(`${FIXTURES}${file}`, 'utf8');
    return { name, mode: expect.mode, reply, calls: expect.calls, valid: expect.rejected.length === 0 };
  });

/**
 * Valid replies the parser forgives but the grammar does not write: each with why. The test
 * asserts they are rejected, so this list cannot go stale.
 */
const NOT_CANONICAL: Readonly<Record<string, string>> = {
  '01-prose-before-and-after': 'prose after the call',
  '02-two-calls-in-order': 'two calls',
  '03-uppercase-tool-name': 'a tool name in another case',
  '04-camelcase-tool-name': 'a camelCase tool name',
  '05-alias-file-path': 'parameter aliases, two calls',
  '06-alias-cmd': 'a parameter alias',
  '07-call-in-xml-fence': 'a ``` fence around the call',
  '12-think-draft-ignored': 'reasoning before the call',
  '13-orphan-think-close': 'reasoning before the call',
  '14-tool-result-quoted-back': 'a quoted result holding tags',
  '15-inline-code-mention': 'tags in prose',
  '16-prose-mention-before-call': 'a tag in prose',
  '17-bare-run-command': 'a bare value without its parameter tag',
  '18-bare-attempt-completion': 'a bare value without its parameter tag',
  '20-list-files-aliases-and-flag': 'parameter aliases and a yes flag',
  '22-cline-tool-names': "another agent's tool names, two calls",
  '23-search-aliases': 'parameter aliases',
  '26-dashed-tool-name': 'a dashed tool name',
  '27-attributes-self-closing': 'parameters as attributes, two calls',
  '28-attribute-and-bare-content': 'a parameter as an attribute',
  '29-name-without-underscores': 'tool names without underscores, two calls',
};

/** A call in the grammar's form: one line per tag, text values from the line after their tag. */
function canonical(call: { tool: string; input: Record<string, unknown> }): string {
  const tool = TOOLS.find((t) => t.name === call.tool);
  assert.ok(tool, call.tool);
  const parameters = Object.entries(call.input).map(([name, value]) => {
    const text = typeof value === 'string' ? value : String(value);
    return tool.kinds[name] === 'text' ? `<${name}>\n${text}</${name}>\n` : `<${name}>${text}</${name}>\n`;
  });
  return `<${call.tool}>\n${parameters.join('')}</${call.tool}>\n`;
}

/** The calls the parser and the checks make of a reply; a rejected one as its message. */
function readBack(reply: string, mode: AgentMode): unknown[] {
  const { calls, problems } = parseCalls(reply);
  assert.deepEqual(problems, []);
  return calls.map((raw) => checkCall(raw, mode)).map((c) => (c.ok ? c.call : c.forModel));
}

describe('grammar mode', () => {
  let llama: LlamaGrammarChecker;
  const grammars = new Map<string, ParsedGrammar>();
  /** The parsed grammar for a mode (and tool), parsed once. */
  const grammar = (mode: AgentMode, tool?: ToolName) => {
    const parsed = grammars.get(`${mode}/${tool ?? ''}`);
    assert.ok(parsed, `no grammar for ${mode}/${tool ?? ''}`);
    return parsed;
  };

  before(async () => {
    llama = await loadLlamaGrammar();
    for (const mode of ['plan', 'act'] as const) {
      grammars.set(`${mode}/`, await llama.parse(grammarFor(mode)));
      for (const tool of toolsFor(mode))
        grammars.set(`${mode}/${tool.name}`, await llama.parse(grammarFor(mode, tool.name)));
    }
  });

  test("llama.cpp's parser takes the grammar of each mode and each tool, and refuses a broken one", async () => {
    assert.equal(grammars.size, 2 + toolsFor('plan').length + toolsFor('act').length);
    await assert.rejects(llama.parse('root ::= "<read_file'), /Failed to parse grammar/);
  });

  test('the same mode and tool give the same text, root first, no underscore in a rule name', () => {
    const text = grammarFor('act');
    assert.equal(grammarFor('act'), text);
    assert.match(text, /^root ::= /);
    for (const line of text.trimEnd().split('\n')) assert.match(line, /^[a-z0-9-]+ ::= /);
    assert.match(
      grammarFor('plan', 'read_file'),
      /^read-file ::= "<read_file>" sep "<path>" line-value "<\/path>" sep \("<offset>" number-value "<\/offset>" sep\)\? /m,
    );
  });

  test('a tool the mode does not offer has no grammar', () => {
    assert.throws(() => grammarFor('plan', 'write_file'), /write_file is not a tool of plan mode/);
  });

  for (const c of cases) {
    const expected = c.valid && NOT_CANONICAL[c.name] === undefined;
    const why = c.valid ? (NOT_CANONICAL[c.name] ?? 'canonical') : 'malformed';
    test(`${c.name}: ${expected ? 'accepted' : 'rejected'} (${why})`, () => {
      assert.equal(grammar(c.mode).accepts(c.reply), expected);
    });
  }

  test("every valid case's calls, each written in the canonical form, are accepted and read back unchanged", () => {
    for (const c of cases.filter((k) => k.valid)) {
      for (const call of c.calls) {
        const reply = `Reading first.\n${canonical(call)}`;
        assert.ok(grammar(c.mode).accepts(reply), `${c.name}:\n${reply}`);
        assert.ok(grammar(c.mode, call.tool as ToolName).accepts(reply), `${c.name} (${call.tool} only)`);
        assert.deepEqual(readBack(reply, c.mode), [call], c.name);
      }
    }
  });

  test("one tool's grammar refuses the other tools", () => {
    const edit = grammar('act', 'replace_in_file');
    const byName = new Map(cases.map((c) => [c.name, c.reply]));
    assert.ok(edit.accepts(byName.get('09-diff-with-generics') ?? ''));
    assert.equal(edit.accepts(byName.get('10-write-file-keeps-final-newline') ?? ''), false);
    assert.equal(grammar('plan', 'read_file').accepts('<list_files>\n</list_files>\n'), false);
  });

  test('a diff must be SEARCH/REPLACE blocks: one or more, markers in order', () => {
    const edit = grammar('act', 'replace_in_file');
    const call = (diff: string) =>
      `<replace_in_file>\n<path>a.ts</path>\n<diff>\n${diff}</diff>\n</replace_in_file>`;
    const block = '<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n';
    assert.ok(edit.accepts(call(block)));
    assert.ok(edit.accepts(call(`${block}\n${block}`)), 'two blocks');
    assert.ok(edit.accepts(call('<<<<<<< SEARCH\n=======\nadded\n>>>>>>> REPLACE\n')), 'an empty SEARCH');
    assert.equal(edit.accepts(call('old\nnew\n')), false, 'no markers');
    assert.equal(edit.accepts(call('<<<<<<< SEARCH\nold\n>>>>>>> REPLACE\n')), false, 'no divider');
    assert.equal(edit.accepts(call('<<<<<<< SEARCH\nold\n=======\nnew\n')), false, 'no REPLACE');
  });

  test('text may hold its closing tag only where the parser reads on: not before a space, a line break or <', () => {
    const write = grammar('act', 'write_file');
    const call = (content: string) =>
      `<write_file>\n<path>a.html</path>\n<content>\n${content}</content>\n</write_file>`;
    assert.ok(write.accepts(call("const end = '</content>';\n")));
    assert.ok(write.accepts(call('<T>(a: T) => a < b && Map<string, Array<T>>\n')));
    assert.equal(write.accepts(call('text </content> more\n')), false);
    assert.equal(write.accepts(call('text </CONTENT >\n<path>\n')), false);
    assert.equal(write.accepts(call('text </content><b>\n')), false);
  });

  test('scalars are typed: line numbers from 1, flags true or false, no empty path', () => {
    const plan = grammar('plan');
    assert.ok(plan.accepts('<read_file>\n<path>a.ts</path>\n<offset>101</offset>\n</read_file>'));
    assert.equal(plan.accepts('<read_file>\n<path>a.ts</path>\n<offset>0</offset>\n</read_file>'), false);
    assert.ok(plan.accepts('<list_files>\n<recursive>true</recursive>\n</list_files>'));
    assert.ok(plan.accepts('<list_files></list_files>'), 'every parameter optional');
    assert.equal(plan.accepts('<read_file>\n<path> </path>\n</read_file>'), false);
  });

  test('whatever text a write_file grammar accepts, the parser reads back whole (property)', () => {
    const write = grammar('act', 'write_file');
    const piece = fc.constantFrom(
      ...[
        '<',
        '/',
        '>',
        ' ',
        '\n',
        'x',
        '<T>',
        'content',
        'CONTENT',
        '</content>',
        '<path>',
        '</write_file>',
      ],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const content = `${pieces.join('')}\n`;
        const reply = `<write_file>\n<path>a.ts</path>\n<content>\n${content}</content>\n</write_file>`;
        if (!content.includes('<')) assert.ok(write.accepts(reply));
        if (!write.accepts(reply)) return;
        assert.deepEqual(readBack(reply, 'act'), [{ tool: 'write_file', input: { path: 'a.ts', content } }]);
      }),
      { numRuns: 300, seed: 13 },
    );
  });
});
