/**
 * Property tests of the plan document: every plan the schema accepts renders to a document
 * that parses back to the same plan, in LF or CRLF; and no document, however mangled, makes
 * the parser throw or return a plan the schema rejects or that does not survive its own round
 * trip. Seeds are fixed so CI runs the same cases every time (FC_SEED / FC_RUNS explore more).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { EXAMPLE_PLAN } from './example.js';
import { parsePlan } from './parse.js';
import { formatPlanProblem } from './problem.js';
import { renderPlan } from './render.js';
import {
  planSchema,
  planStepSchema,
  runCommandSchema,
  type Plan,
  type PlanStep,
  type RunCommand,
} from './schema.js';
import { findTemplates } from './templates.js';

const env = globalThis.process.env;
const SEED = Number(env['FC_SEED'] ?? 20261130);
const RUNS = Number(env['FC_RUNS'] ?? 200);
const params = { seed: SEED, numRuns: RUNS, includeErrorInReport: true };

const word = fc.constantFrom(
  'add',
  'remove',
  'the',
  'store',
  'report',
  'ünïcödé',
  '日本',
  'x_y',
  'v2.0',
  'C#',
  '`code`',
  '**bold**',
  'a|b',
  "it's",
  '"quoted"',
  '#12',
  '100%',
  '@user',
  '{{ user.name }}',
  '&amp;',
);
const punctuation = fc.constantFrom('', ':', ',', '.', ' -', ' #', '?', ': x', ' —');
const phrase = fc
  .array(
    fc.tuple(word, punctuation).map(([w, p]) => w + p),
    { minLength: 1, maxLength: 6 },
  )
  .map((ws) => ws.join(' '));
/** Any text at all, kept when the schema accepts it: whatever the schema accepts must round-trip. */
const specials = fc.constantFrom(
  ...[
    'a',
    'Z',
    '0',
    ' ',
    '\t',
    ':',
    '#',
    '-',
    '`',
    '"',
    "'",
    '[',
    ']',
    '{',
    '}',
    '|',
    '>',
    '*',
    '&',
    '!',
    '%',
    '@',
    ',',
    '.',
    '~',
    '?',
    '=',
    '<',
    '+',
    '/',
    '\\',
    '\r',
    '\n',
    '\u00a0',
    '\u2028',
  ],
);
const anyText = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }),
  fc.string({ minLength: 1, maxLength: 30, unit: specials }),
);
const anyLine = anyText
  .map((t) => t.replace(/[\r\n]/g, ' ').trim())
  .filter((t) => t !== '' && findTemplates(t).length === 0);
const title = fc.oneof(
  phrase,
  anyLine,
  fc.constantFrom(
    '- a list item?',
    '1e5',
    'true',
    'null',
    '[x]',
    '{a: b}',
    "'single'",
    '> quote',
    '| pipe',
    '%TAG',
    '## Step 2: inside',
    'Files: x',
  ),
);

/** Prose lines start with a fixed word, so none reads as a key or a heading by accident. */
const proseLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'The',
        'Then',
        'Note:',
        'Why:',
        'Fields:',
        '- Run:',
        '1. Files:',
        '> Verify:',
        '    indented',
        'Use',
      ),
      phrase,
    )
    .map(([a, b]) => `${a} ${b}`),
  fc.constantFrom(
    '### Approach',
    '#### Details',
    '# Background',
    '---',
    '***',
    '<!-- a comment -->',
    '| a | b |',
    'Trailing spaces  ',
    '\tTabbed',
  ),
);
const fenceContent = fc.array(
  fc.oneof(
    proseLine,
    fc.constantFrom(
      '## Notes',
      'Files: x',
      'Run: y',
      '### Edits',
      '# Step 1: no',
      '',
      '  ```inner',
      '{{ steps.99.output }}',
    ),
  ),
  { maxLength: 4 },
);
const codeBlock = fc
  .tuple(fc.constantFrom('```', '````', '~~~', '```ts', '```sh'), fenceContent)
  .map(([fence, lines]) => {
    const close = fence.replace(/[a-z]+$/, '');
    // A fence closes at a line of its own character, so keep inner fence lines of the other kind.
    const inner = lines.map((l) => (l.trim().startsWith(close[0] ?? '`') ? `x${l}` : l));
    return [fence, ...inner, close].join('\n');
  });
const paragraph = fc.oneof(
  { weight: 3, arbitrary: fc.array(proseLine, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('\n')) },
  { weight: 1, arbitrary: codeBlock },
);
const wildText = fc
  .oneof(fc.string({ maxLength: 60, unit: 'grapheme' }), fc.string({ maxLength: 60, unit: specials }))
  .filter(
    (t) => planStepSchema.shape.intent.safeParse(t).success && planSchema.shape.summary.safeParse(t).success,
  );
const freeText = fc.oneof(
  { weight: 4, arbitrary: fc.array(paragraph, { maxLength: 3 }).map((ps) => ps.join('\n\n').trim()) },
  { weight: 1, arbitrary: wildText },
);

const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const filePath = fc
  .tuple(
    fc.array(fc.oneof(segment, fc.constantFrom('my dir', 'ü', '.github')), { maxLength: 3 }),
    segment,
    fc.constantFrom('.js', '.ts', '.md', '', '.test.js'),
  )
  .map(([dirs, name, ext]) => [...dirs, name + ext].join('/'));
const anyFilePath = fc.oneof(
  { weight: 4, arbitrary: filePath },
  { weight: 1, arbitrary: anyLine.filter((t) => planStepSchema.shape.files.element.safeParse(t).success) },
);

/** A path the edit parser recognises on the line before a block (path-text.ts): no spaces, a name it can tell from prose. */
const editPath = fc
  .tuple(
    fc.array(fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/), { maxLength: 3 }),
    fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/),
    fc.constantFrom('.js', '.ts', '.md', '.test.js', '.json'),
  )
  .map(([dirs, name, ext]) => [...dirs, name + ext].join('/'));

function reference(earlier: readonly number[]): fc.Arbitrary<string> {
  if (earlier.length === 0) return fc.constant('');
  return fc.oneof(
    fc.constantFrom(...earlier).map((n) => `{{ steps.${n}.output }}`),
    fc.constantFrom('{{ last.output }}', '{{last.output}}'),
  );
}

function runCommand(earlier: readonly number[]): fc.Arbitrary<RunCommand> {
  const token = fc.oneof(
    fc.constantFrom(
      'npm',
      'run',
      'gen',
      '--out',
      '"a b"',
      "'c'",
      '$HOME',
      '|',
      '&&',
      '2>&1',
      'a:b',
      '#x',
      '[ -f x ]',
      "'{{ .Name }}'",
    ),
    reference(earlier),
  );
  const shell = fc
    .tuple(
      fc.constantFrom('npm', 'node', 'make', './scripts/x.sh', 'echo'),
      fc.array(token, { maxLength: 5 }),
    )
    .map(([program, args]) => [program, ...args].join(' ').trim());
  const arg = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' });
  const argv = fc.array(earlier.length === 0 ? arg : fc.oneof(arg, reference(earlier)), {
    minLength: 1,
    maxLength: 4,
  });
  const wildShell = anyLine.filter((t) => typeof runCommandSchema.safeParse(t).data === 'string');
  return fc.oneof(shell, argv, wildShell);
}

function editBlock(earlier: readonly number[]): fc.Arbitrary<string> {
  const content = fc.array(
    fc.oneof(
      proseLine,
      fc.constantFrom(
        '## Usage',
        '```sh',
        '```',
        '# Title',
        '',
        '  indented();',
        'Files: not a key',
        '## Step 1: in a file',
      ),
      reference(earlier),
    ),
    { maxLength: 4 },
  );
  return fc
    .tuple(editPath, fc.constantFrom('```', '```js', '~~~', ''), content, content)
    .map(([path, fence, search, replace]) => {
      const block = ['<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE'];
      return [path, ...(fence === '' ? block : [fence, ...block, fence.replace(/[a-z]+$/, '')])].join('\n');
    });
}

function edits(earlier: readonly number[]): fc.Arbitrary<string> {
  const separator = fc.constantFrom('\n\n', '\n\nThen the tests:\n\n', '\n');
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.tuple(editBlock(earlier), separator), { minLength: 1, maxLength: 3 })
        .map((bs) => bs.map(([b, s], i) => (i === 0 ? b : s + b)).join('')),
    },
  );
}

function step(number: number, earlier: readonly number[]): fc.Arbitrary<PlanStep> {
  return fc.record(
    {
      number: fc.constant(number),
      title,
      intent: freeText,
      files: fc.array(anyFilePath, { maxLength: 3 }),
      run: fc.array(runCommand(earlier), { maxLength: 3 }),
      verify: fc.array(fc.constantFrom('test', 'lint', 'lint:types', 'build', 'e2e.ci'), { maxLength: 2 }),
      edits: edits(earlier),
    },
    { noNullPrototype: true },
  );
}

const stepNumbers = fc
  .array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 })
  .map((gaps) => gaps.map((_, i) => gaps.slice(0, i + 1).reduce((a, b) => a + b, 0)));

const steps = stepNumbers.chain((numbers) =>
  fc.tuple(...numbers.map((n, i) => step(n, numbers.slice(0, i)))),
);
const optionalText = fc.option(
  fc.oneof(
    fc.constantFrom(
      '3f2a9c1b0d',
      '1e34567',
      'qwen2.5-coder:32b',
      'true',
      'a: b',
      '0x1F',
      '# hash',
      '.5',
      '0o17',
      '~',
      'Yes',
    ),
    phrase,
    anyLine,
  ),
  { nil: null },
);
const created = fc.oneof(
  fc
    .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constant('2026-11-30T10:00:00+01:00'),
);

const planArbitrary: fc.Arbitrary<Plan> = fc.record(
  {
    version: fc.constant(1 as const),
    title,
    created,
    base: optionalText,
    model: optionalText,
    summary: freeText,
    steps,
  },
  { noNullPrototype: true },
);

function parsed(text: string): Plan {
  const result = parsePlan(text, 'plan.md');
  assert.ok(
    result.ok,
    result.ok ? '' : `${result.problems.map(formatPlanProblem).join('\n')}\n--- document ---\n${text}`,
  );
  return result.plan;
}

test('every valid plan renders to a document that parses back to it, LF or CRLF', () => {
  fc.assert(
    fc.property(planArbitrary, fc.boolean(), (plan, crlf) => {
      const valid = planSchema.safeParse(plan);
      assert.ok(
        valid.success,
        valid.success ? '' : `the generator made an invalid plan: ${valid.error.message}`,
      );
      const text = renderPlan(plan);
      assert.deepEqual(parsed(crlf ? text.replace(/\n/g, '\r\n') : text), plan);
    }),
    params,
  );
});

/** Damage a document the way editors and models do: lose, repeat, move or insert lines. */
const damage = fc.array(
  fc.tuple(
    fc.constantFrom('delete', 'duplicate', 'swap', 'insert'),
    fc.nat(),
    fc.constantFrom(
      '## Notes',
      '```',
      'Files:',
      'File: a',
      'Run: ["x"',
      '### Edits',
      '<<<<<<< SEARCH',
      '=======',
      '>>>>>>> REPLACE',
      '## Step 1: again',
      '---',
      'title: x',
      '{{ steps.9.output }}',
      '',
    ),
  ),
  { minLength: 1, maxLength: 3 },
);

function damaged(text: string, edits: ReadonlyArray<readonly [string, number, string]>): string {
  const lines = text.split('\n');
  for (const [kind, at, line] of edits) {
    const i = at % Math.max(1, lines.length);
    if (kind === 'delete') lines.splice(i, 1);
    else if (kind === 'duplicate') lines.splice(i, 0, lines[i] ?? '');
    else if (kind === 'insert') lines.splice(i, 0, line);
    else [lines[i], lines[0]] = [lines[0] ?? '', lines[i] ?? ''];
  }
  return lines.join('\n');
}

test('a damaged document never throws, and whatever it parses to is a valid plan that round-trips', () => {
  const source = fc.oneof(planArbitrary.map(renderPlan), fc.constant(EXAMPLE_PLAN));
  fc.assert(
    fc.property(source, damage, (text, edits) => {
      const result = parsePlan(damaged(text, edits), 'plan.md');
      if (!result.ok) {
        assert.ok(result.problems.length > 0);
        for (const problem of result.problems)
          assert.ok(
            problem.line >= 1 && problem.message !== '' && problem.hint !== '',
            formatPlanProblem(problem),
          );
        return;
      }
      const valid = planSchema.safeParse(result.plan);
      assert.ok(valid.success, valid.success ? '' : valid.error.message);
      assert.deepEqual(parsed(renderPlan(result.plan)), result.plan);
    }),
    params,
  );
});
