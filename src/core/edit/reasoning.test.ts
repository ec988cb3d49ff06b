import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseResponse } from './parse-response.js';
import { stripReasoning } from './reasoning.js';

const block = (search: string, replace: string) =>
  `src/a.ts\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;

describe('reasoning before the answer', () => {
  test('a draft block inside <think>…</think> is not an edit; the answer is', () => {
    const parsed = parseResponse(
      `<think>\nFirst try:\n${block('a', 'DRAFT')}Hmm, no.\n</think>\n\n${block('a', 'b')}`,
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.blocks.map((b) => b.variants[0]?.replace),
      [['b']],
    );
  });

  test('line numbers still count lines of the whole reply', () => {
    const parsed = parseResponse(`<think>\none\ntwo\n</think>\n${block('a', 'b')}`);
    assert.equal(parsed.blocks[0]?.line, 6);
  });

  test('<thinking> in any case, and two sections one after the other', () => {
    const text = `  <Thinking>\n${block('a', 'X')}</Thinking>\n<think>${block('a', 'Y')}</think>\nAnswer:\n${block('a', 'b')}`;
    assert.deepEqual(
      parseResponse(text).blocks.map((b) => b.variants[0]?.replace),
      [['b']],
    );
  });

  test('a reply that starts mid-thought and ends it with </think> on its own line', () => {
    const parsed = parseResponse(`Let me think.\n${block('a', 'DRAFT')}\n</think>\n\n${block('a', 'b')}`);
    assert.deepEqual(
      parsed.blocks.map((b) => b.variants[0]?.replace),
      [['b']],
    );
  });

  test('a reasoning section that never closes leaves no edit, and says so', () => {
    const parsed = parseResponse(`<think>\n${block('a', 'DRAFT')}and then`);
    assert.equal(parsed.blocks.length, 0);
    assert.equal(parsed.problems.length, 1);
    assert.match(parsed.problems[0]?.message ?? '', /never ends/);
    assert.equal(parsed.problems[0]?.line, 1);
  });

  test('a <think> that is not at the start of the reply is content', () => {
    const parsed = parseResponse(
      `Fix the template:\n${block('const open = "<think>";', 'const open = "<thinking>";')}`,
    );
    assert.deepEqual(parsed.blocks[0]?.variants[0]?.replace, ['const open = "<thinking>";']);
  });

  test('a </think> inside a line, with <think> before it, is not an orphan close', () => {
    const text = block('x = "<think>"', 'x = "</think>"');
    assert.equal(stripReasoning(text).text, text);
  });

  test('no reasoning: the text is unchanged', () => {
    assert.equal(stripReasoning('plain\ntext').text, 'plain\ntext');
  });
});

describe('reasoning after a line of prose', () => {
  test('prose, then <think> with a draft, then the answer: only the answer is an edit', () => {
    const parsed = parseResponse(
      `Here is the fix.\n\n<think>\n${block('a', 'DRAFT')}</think>\n\n${block('a', 'b')}`,
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.blocks.map((b) => b.variants[0]?.replace),
      [['b']],
    );
  });

  test('a <think> line after an edit block has begun is content, not reasoning', () => {
    const text = `${block('a', 'b')}\nsrc/b.txt\n<<<<<<< SEARCH\n<think>\n=======\n<thinking>\n>>>>>>> REPLACE\n`;
    assert.deepEqual(
      parseResponse(text).blocks.map((b) => b.variants[0]?.replace),
      [['b'], ['<thinking>']],
    );
  });

  test('the line numbers of an answer after prose and reasoning are lines of the reply', () => {
    const parsed = parseResponse(`Sure.\n<think>\nhm\n</think>\n${block('a', 'b')}`);
    assert.equal(parsed.blocks[0]?.line, 6);
  });
});
