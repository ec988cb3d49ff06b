/**
 * fast-check arbitraries for the edit engine: lines of source text as models and repositories
 * hold them, and garbage responses that mix every kind of marker the parser reacts to.
 */
import fc from 'fast-check';
import { isElisionLine } from '../../src/core/edit/elision.js';
import { findInvisible } from '../../src/core/security/invisible.js';

/** The block markers of parse-response.ts: content lines that look like these change the parse. */
const BLOCK_MARKER = /^ {0,3}(?:(?:<{5,9}|-{5,9}) ?SEARCH\b|(?:>{5,9}|\+{5,9}) ?REPLACE\s*$|={5,9}\s*$)/i;

const WORDS = [
  'value',
  'total',
  'items',
  'result',
  'config',
  'name',
  'count',
  'user',
  'render',
  'i',
  'café',
  '名前',
  'naïve',
  'größe',
  'emoji😀',
];

const SNIPPETS = [
  '}',
  '{',
  '});',
  ']',
  'return result;',
  'end',
  'else:',
  'pass',
  '# Title',
  '## Usage',
  '---',
  '```',
  '```ts',
  '~~~',
  '<div class="x">',
  '-- a SQL comment',
  '++ counter',
  '@@ not a hunk @@',
  ' * doc comment',
  '/* note */',
  '"key": "value",',
  'diff --git a/x b/x',
  'Index: x',
  '\\ backslash first',
  'print("你好, мир")',
  'const ñandú = "🦀";',
];

/** Code-like text without its indentation: a snippet, a small statement or a random string. */
const statement = fc
  .tuple(
    fc.constantFrom(...WORDS),
    fc.constantFrom(' = ', '(', '.', ' += ', ': '),
    fc.constantFrom(...WORDS),
    fc.constantFrom(';', ');', ',', '', ' {'),
  )
  .map((parts) => parts.join(''));

const content = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SNIPPETS) },
  { weight: 5, arbitrary: statement },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }) },
);

/** True when a line is ordinary content: not a block marker, an elision, invisible or a line break. */
export function isPlainLine(line: string): boolean {
  return (
    !BLOCK_MARKER.test(line) &&
    !/^\s*={3,}\s*$/.test(line) &&
    !isElisionLine(line) &&
    !/[\r\n]/.test(line) &&
    findInvisible(line).length === 0
  );
}

/** A non-blank line of code with indentation and, sometimes, trailing whitespace. */
export const codeLine = fc
  .tuple(
    fc.constantFrom('', '', '  ', '    ', '\t', '\t\t', '        ', '   '),
    content,
    fc.constantFrom('', '', '', ' ', '\t'),
  )
  .map(([indent, text, trailing]) => indent + text + trailing)
  .filter((line) => line.trim() !== '' && isPlainLine(line));

/** An empty or whitespace-only line. */
export const blankLine = fc.constantFrom('', '', '  ', '\t');

/** A line a Markdown document may hold that the parser must not mistake for a divider. */
export const dividerLike = fc
  .tuple(fc.constantFrom('', ' ', '   '), fc.integer({ min: 3, max: 12 }), fc.constantFrom('', ' '))
  .map(([indent, n, trailing]) => `${indent}${'='.repeat(n)}${trailing}`);

const PATHS = [
  'src/app.ts',
  'README.md',
  '../outside.txt',
  '/etc/passwd',
  '.git/config',
  'C:\\x.ts',
  '~/.bashrc',
  'a\u200Bb.ts',
  'src/a.ts/b',
  '.aide/state/x',
  'Makefile',
];

/** Any single line the response parser reacts to, or noise around it. */
const garbageLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('<', '-', '>', '+', '='),
      fc.integer({ min: 3, max: 11 }),
      fc.constantFrom(
        ' SEARCH',
        'SEARCH',
        ' REPLACE',
        ' search',
        '',
        ' SEARCH src/app.ts',
        ' SEARCH: README.md',
      ),
    )
    .map(([c, n, word]) => c.repeat(n) + word),
  fc
    .tuple(
      fc.constantFrom('`', '~'),
      fc.integer({ min: 2, max: 6 }),
      fc.constantFrom('', 'diff', 'patch', 'ts', 'ts src/app.ts', 'README.md', 'title="src/app.ts"'),
    )
    .map(([c, n, info]) => c.repeat(n) + info),
  fc.constantFrom(
    '--- a/src/app.ts',
    '+++ b/src/app.ts',
    '--- /dev/null',
    '+++ /dev/null',
    '--- a/README.md',
    '+++ b/../outside.txt',
    'diff --git a/x b/x',
    'new file mode 100644',
    'rename from a',
    'rename to b',
  ),
  fc.constantFrom(
    '@@ -1,3 +1,4 @@',
    '@@ @@',
    '@@',
    '@@ -0,0 +1 @@',
    '\\ No newline at end of file',
    '-',
    '+',
    ' ',
    '',
  ),
  fc
    .tuple(fc.constantFrom('', '**', '`', 'File: ', '### '), fc.constantFrom(...PATHS))
    .map(([d, p]) => (d === '**' || d === '`' ? `${d}${p}${d}` : d + p)),
  fc.tuple(fc.constantFrom(' ', '-', '+', ''), fc.oneof(codeLine, blankLine)).map(([m, l]) => m + l),
  fc.constantFrom(
    '...',
    '// ... existing code ...',
    '# rest unchanged',
    '{',
    '}',
    '[1, 2,',
    '"a": 1',
    'x\u202Ey',
    '\uFEFF',
    'z\u{E0041}',
    '\u200D',
  ),
  fc.string({ unit: 'binary', maxLength: 24 }),
);

/** A response assembled from parser-relevant lines, joined with LF, CRLF or lone CR. */
export const garbageResponse = fc
  .tuple(fc.array(garbageLine, { maxLength: 40 }), fc.constantFrom('\n', '\n', '\r\n', '\r'))
  .map(([lines, eol]) => lines.join(eol));
