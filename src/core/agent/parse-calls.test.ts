import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertLinear } from '../../../test/helpers/growth.js';
import fc from 'fast-check';
import { checkCall, describeProblem } from './check-call.js';
import { parseCalls } from './parse-calls.js';
import { parameterText } from './tools.js';

const layoutTrimmed = (raw: string) => parameterText('text', raw);

const value = (reply: string, index = 0) => parseCalls(reply).calls[0]?.parameters[index]?.value;

describe('parameter text', () => {
  test('text parameters are byte for byte but the break after the tag and the closing tag indent', () => {
    assert.equal(layoutTrimmed('\n  a\t\n\n  b  \n   '), '  a\t\n\n  b  \n');
    assert.equal(layoutTrimmed('\r\nx\r\n'), 'x\r\n');
    assert.equal(layoutTrimmed('no break'), 'no break');
    assert.equal(layoutTrimmed('\n\nkept blank first line\n'), '\nkept blank first line\n');
  });

  test('scalar parameters are trimmed', () => {
    assert.equal(value('<read_file><path>\n  src/a.ts \n</path></read_file>'), 'src/a.ts');
  });

  test('a <think> line inside content after the call opened is content, not reasoning', () => {
    const reply =
      '<write_file><path>p.txt</path><content>\nBefore\n<think>\nkeep me\n</think>\n</content></write_file>';
    assert.equal(value(reply, 1), 'Before\n<think>\nkeep me\n</think>\n');
  });

  test('a closing tag of the parameter mid-line stays in the text', () => {
    const reply = '<replace_in_file><path>a</path><diff>x = "</diff>" + y\n</diff></replace_in_file>';
    assert.equal(value(reply, 1), 'x = "</diff>" + y\n');
  });

  test('the call closing tag inside a parameter does not end the call', () => {
    const reply = '<write_file><path>t.md</path><content>see </write_file> here\n</content></write_file>';
    assert.equal(value(reply, 1), 'see </write_file> here\n');
  });

  test('entities are not decoded: what the model wrote is what is written', () => {
    assert.equal(value('<write_file><path>a</path><content>a &lt; b</content></write_file>', 1), 'a &lt; b');
  });
});

describe('where problems are', () => {
  test('an unclosed call names the tool, the open parameter and their lines', () => {
    const parsed = parseCalls('Prose.\n\n<replace_in_file>\n<path>a.ts</path>\n<diff>\n<<<<<<< SEARCH\nx\n');
    assert.deepEqual(parsed.problems, [
      {
        kind: 'unclosed_call',
        tool: 'replace_in_file',
        line: 3,
        endLine: 8,
        parameter: { name: 'diff', line: 5 },
      },
    ]);
  });

  test('calls and problems keep the written tool name', () => {
    const parsed = parseCalls('<Read_File><path>a</path>');
    assert.equal(parsed.problems[0]?.kind === 'unclosed_call' && parsed.problems[0].tool, 'Read_File');
  });

  test('reasoning that never closes hides the calls after it', () => {
    assert.deepEqual(parseCalls('<think>\n<read_file><path>a</path></read_file>').problems, [
      { kind: 'unclosed_reasoning', line: 1 },
    ]);
  });

  test('HTML in prose is not an unknown tool', () => {
    assert.deepEqual(parseCalls('```html\n<div><span>x</span></div>\n```').problems, [{ kind: 'no_call' }]);
  });
});

describe('never throws', () => {
  test('on any text, in either mode', () => {
    const pieces = fc.constantFrom(
      '<read_file>',
      '</read_file>',
      '<path>',
      '</path>',
      '<diff>',
      '</diff>',
      '<write_file>',
      '<content>',
      '</content>',
      '<think>',
      '</think>',
      '<T>',
      ' a < b ',
      '\n',
      '`',
      'x',
      '<run_command>',
      '</cmd>',
      '[[tool_result name=x status=ok fence=abcdefgh]]',
      '[[/tool_result fence=abcdefgh]]',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 30 }), (parts) => {
        const parsed = parseCalls(parts.join(''));
        for (const call of parsed.calls) for (const mode of ['plan', 'act'] as const) checkCall(call, mode);
        for (const problem of parsed.problems) describeProblem(problem, 'plan');
      }),
      { numRuns: 500 },
    );
  });
});

describe('degenerate repetition', () => {
  // Small models sometimes loop on one broken line until the reply budget runs out. Rescanning the
  // rest of the reply per tag took 8 s on 5,000 repeats: quadratic, as 8× the repeats must not be.
  const replies: Record<string, (repeats: number) => string> = {
    'a mention repeated': (n) => '<read_file> and </x> '.repeat(n),
    'an unclosed call repeated': (n) => '<read_file><path>a</path>\n'.repeat(n),
    'a parameter repeated': (n) => `<read_file>${'<path>a</path> x '.repeat(n)}</read_file>`,
    'a closing tag repeated': (n) => `<write_file><path>a</path><content>${'</content> x '.repeat(n)}`,
  };
  for (const [name, reply] of Object.entries(replies)) {
    test(`${name} parses in linear time`, () => {
      assertLinear(name, (scale) => {
        const text = reply(1_000 * scale);
        return () => {
          parseCalls(text);
        };
      });
    });
  }
});
