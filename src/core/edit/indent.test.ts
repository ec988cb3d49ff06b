/**
 * The whole-file indentation scans read character codes instead of trimming and matching every
 * line: they must say what the string functions say, for tabs, spaces, blank lines and every
 * white space character `trim()` knows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { detectIndentUnit, indentLength, indentStyle, isBlankAfter, leadingWhitespace } from './indent.js';

const env = globalThis.process.env;
const params = {
  seed: Number(env['FC_SEED'] ?? 20261202),
  numRuns: Number(env['FC_RUNS'] ?? 300),
  includeErrorInReport: true,
};

/** detectIndentUnit as it was written with trim() and a regular expression. */
function referenceUnit(lines: readonly string[]): string | undefined {
  let tabs = 0;
  let spaces = 0;
  const deltas = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (indent.startsWith('\t')) tabs++;
    else if (indent.startsWith(' ')) spaces++;
    if (!indent.includes('\t')) {
      const delta = Math.abs(indent.length - previous);
      if (delta > 0 && delta <= 8) deltas.set(delta, (deltas.get(delta) ?? 0) + 1);
      previous = indent.length;
    }
  }
  if (tabs > 0 && tabs >= spaces) return '\t';
  if (spaces === 0) return undefined;
  let best = 0;
  let bestCount = 0;
  for (const [delta, count] of deltas) {
    if (count > bestCount || (count === bestCount && delta < best)) {
      best = delta;
      bestCount = count;
    }
  }
  return best > 0 ? ' '.repeat(best) : undefined;
}

function referenceStyle(lines: readonly string[]): '\t' | ' ' | undefined {
  let tabs = 0;
  let spaces = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (indent.startsWith('\t')) tabs++;
    else if (indent.length >= 2) spaces++;
  }
  if (tabs > 0 && spaces === 0) return '\t';
  if (spaces > 0 && tabs === 0) return ' ';
  return undefined;
}

test('a line is blank after its indentation exactly when trim() leaves nothing, for every code unit', () => {
  for (let code = 0; code <= 0xffff; code++) {
    const ch = String.fromCharCode(code);
    for (const line of [ch, `  ${ch}`, `\t${ch} `, `${ch}x`]) {
      const indent = indentLength(line);
      assert.equal(
        isBlankAfter(line, indent),
        line.trim() === '',
        `U+${code.toString(16)} in ${JSON.stringify(line)}`,
      );
    }
  }
});

test('the indentation scans agree with trim() and /^[ \\t]*/ on tab, space and mixed files', () => {
  const piece = fc.constantFrom(' ', '  ', '    ', '\t', '\u00a0', '\r', 'x', '}', '');
  const lineArb = fc.array(piece, { maxLength: 5 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(fc.array(lineArb, { maxLength: 30 }), (lines) => {
      for (const line of lines) assert.equal(leadingWhitespace(line), /^[ \t]*/.exec(line)?.[0] ?? '');
      assert.equal(detectIndentUnit(lines), referenceUnit(lines));
      assert.equal(indentStyle(lines), referenceStyle(lines));
    }),
    params,
  );
});

test('a tab-indented file has a tab unit and style; a 2-space file two spaces', () => {
  const tabs = ['class A {', '\tf() {', '\t\treturn 1;', '\t}', '', '}'];
  assert.equal(detectIndentUnit(tabs), '\t');
  assert.equal(indentStyle(tabs), '\t');
  const spaces = ['class A {', '  f() {', '    return 1;', '  }', '   ', '}'];
  assert.equal(detectIndentUnit(spaces), '  ');
  assert.equal(indentStyle(spaces), ' ');
});
