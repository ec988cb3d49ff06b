import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseResponse } from './parse-response.js';
import { feedbackForModel } from './feedback.js';
import { planEdits } from './plan-edits.js';
import { describeFailures, firstDifferenceLines, showWhitespace } from './report-text.js';
import { parseText } from './text-file.js';

test('white space is made visible, columns kept', () => {
  assert.equal(showWhitespace('    return x; '), '····return x;·');
  assert.equal(showWhitespace('\treturn\tx;'), '→return→x;');
  assert.equal(showWhitespace('  '), '··');
});

test('two lines that differ only in indentation print differently, a caret under the difference', () => {
  const lines = firstDifferenceLines({
    fileLine: '    return x;',
    searchLine: '\treturn x;',
    fileLineNumber: 12,
  });
  assert.deepEqual(lines, [
    'first difference at line 12:',
    '  file:   ····return x;',
    '  SEARCH: →return x;',
    '          ^',
  ]);
  const caret = firstDifferenceLines({
    fileLine: 'return total;',
    searchLine: 'return totl;',
    fileLineNumber: 3,
  });
  assert.equal(caret[3], `          ${' '.repeat('return tot'.length)}^`);
});

test('the user text names the block and its line, never what a model is told', () => {
  const parsed = parseResponse('a.js\n<<<<<<< SEARCH\n\treturn x;\n=======\n\treturn y;\n>>>>>>> REPLACE\n');
  const plan = planEdits(
    parsed.blocks,
    new Map([['a.js', { state: 'text', file: parseText('function f() {\n  return  x;\n}\n') } as const]]),
  );
  const text = describeFailures(plan.outcomes, parsed.problems, "the step's edits").join('\n');
  assert.match(
    text,
    /^block 1, a\.js \(line 2 of the step's edits\): the SEARCH text was not found in a\.js/,
  );
  assert.match(text, /file: {3}··return {2}x;\n {4}SEARCH: →return x;\n {12}\^\n/);
  assert.doesNotMatch(text, /your reply|send ALL|of your/i);
});

test('the model is shown the two lines whole too, quoted, so a tab reads as \\t', () => {
  const parsed = parseResponse('a.js\n<<<<<<< SEARCH\n\treturn x;\n=======\n\treturn y;\n>>>>>>> REPLACE\n');
  const plan = planEdits(
    parsed.blocks,
    new Map([['a.js', { state: 'text', file: parseText('function f() {\n  return  x;\n}\n') } as const]]),
  );
  assert.match(
    feedbackForModel(plan.outcomes, parsed.problems, parsed.blocks.length),
    /First difference: your SEARCH has "\\treturn x;" where line 2 of the file has " {2}return {2}x;"\./,
  );
});
