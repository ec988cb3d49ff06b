/**
 * Property tests of parse → plan: an exact edit written as a SEARCH/REPLACE block or as a
 * unified diff produces the expected file byte for byte, whatever the markers, fences, path
 * decorations, line endings and final newline; and no response, however malformed, throws.
 * Seeds are fixed so CI runs the same cases every time (FC_SEED / FC_RUNS explore more).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { blankLine, codeLine, dividerLike, garbageResponse } from '../../../test/helpers/edit-arbitraries.js';
import { feedbackForModel } from './feedback.js';
import { indentStyle, leadingWhitespace } from './indent.js';
import { parseResponse } from './parse-response.js';
import { planEdits, type FileInput } from './plan-edits.js';
import { parseText, renderText } from './text-file.js';
import { isWeakSearch } from './weak-search.js';

const env = globalThis.process.env;
const SEED = Number(env['FC_SEED'] ?? 20240611);
const RUNS = Number(env['FC_RUNS'] ?? 300);
const params = { seed: SEED, numRuns: RUNS, includeErrorInReport: true };

/** A generated file: its lines, and how it is written to disk. */
interface FileSpec {
  lines: string[];
  crlf: boolean;
  finalNewline: boolean;
  bom: boolean;
}

/** The file's bytes as text. A file without any terminator has no line-ending style. */
function render(spec: FileSpec, lines: readonly string[] = spec.lines): string {
  const eol = spec.crlf && (spec.lines.length > 1 || spec.finalNewline) ? '\r\n' : '\n';
  const body = lines.join(eol) + (spec.finalNewline && lines.length > 0 ? eol : '');
  return (spec.bom ? '\uFEFF' : '') + body;
}

/** An empty last line without a terminator does not exist: "a\n" is one line. */
function representable(spec: FileSpec): boolean {
  return spec.finalNewline || spec.lines.at(-1) !== '';
}

function occurrences(lines: readonly string[], run: readonly string[]): number {
  let count = 0;
  for (let p = 0; p + run.length <= lines.length; p++) if (run.every((l, k) => lines[p + k] === l)) count++;
  return count;
}

function indexOfRun(lines: readonly string[], run: readonly string[]): number {
  for (let p = 0; p + run.length <= lines.length; p++) if (run.every((l, k) => lines[p + k] === l)) return p;
  return -1;
}

/** The lines after replacing the first occurrence of `search` with `replace`. */
function editedLines(spec: FileSpec, search: readonly string[], replace: readonly string[]): string[] {
  const p = indexOfRun(spec.lines, search);
  return [...spec.lines.slice(0, p), ...replace, ...spec.lines.slice(p + search.length)];
}

/** The file after the edit, in the file's own line endings and final-newline state. */
function expectedAfter(spec: FileSpec, search: readonly string[], replace: readonly string[]): string {
  return render(spec, editedLines(spec, search, replace));
}

/** Parses and plans a response against one file; the new text, or a description of what failed. */
function applyTo(response: string, path: string, text: string): { text: string } | { failed: string } {
  const parsed = parseResponse(response);
  const plan = planEdits(
    parsed.blocks,
    new Map<string, FileInput>([[path, { state: 'text', file: parseText(text) }]]),
  );
  const failure = [
    ...parsed.problems.map((p) => p.message),
    ...plan.outcomes.flatMap((o) => (o.ok ? [] : [o.failure.message])),
  ];
  if (failure.length > 0 || parsed.blocks.length === 0) return { failed: failure.join('; ') || 'no blocks' };
  const wrongPath = parsed.blocks.find((b) => b.path !== path);
  if (wrongPath !== undefined) return { failed: `block names ${wrongPath.path}` };
  const change = plan.changes.find((c) => c.path === path);
  return { text: change?.after ? renderText(change.after) : text };
}

/** Lines of code; half the time drawn from a few distinct lines, so that repeats are common. */
const someLines = (maxLines: number) =>
  fc
    .oneof(
      fc.constant(codeLine),
      fc.array(codeLine, { minLength: 1, maxLength: 5 }).map((pool) => fc.constantFrom(...pool)),
    )
    .chain((line) =>
      fc.array(fc.oneof({ weight: 5, arbitrary: line }, { weight: 1, arbitrary: blankLine }), {
        minLength: 1,
        maxLength: maxLines,
      }),
    );

const fileSpec = (maxLines: number) =>
  fc
    .record({
      lines: someLines(maxLines),
      crlf: fc.boolean(),
      finalNewline: fc.boolean(),
      bom: fc.constantFrom(false, false, false, true),
    })
    .filter((f) => f.lines.some((l) => l.trim() !== '') && representable(f));

/** A contiguous range around a non-blank line: [start, end). */
const rangeIn = (lines: readonly string[]) => {
  const anchors = lines.flatMap((l, i) => (l.trim() === '' ? [] : [i]));
  return fc
    .constantFrom(...anchors)
    .chain((k) =>
      fc.tuple(
        fc.integer({ min: Math.max(0, k - 3), max: k }),
        fc.integer({ min: k + 1, max: Math.min(lines.length, k + 4) }),
      ),
    );
};

// --- SEARCH/REPLACE renderings --------------------------------------------------------------

const PATHS = ['src/app.ts', 'lib/util.py', 'README.md', 'src/deep/dir/mod.rs', '.github/workflows/ci.yml'];

type PathStyle =
  | 'line'
  | 'bold'
  | 'backticks'
  | 'colon'
  | 'label'
  | 'heading'
  | 'bullet'
  | 'fence-info'
  | 'fence-title'
  | 'inline';

interface BlockStyle {
  path: string;
  pathStyle: PathStyle;
  head: string;
  divider: string;
  tail: string;
  /** '' for an unfenced block. */
  fence: string;
  prose: boolean;
}

const marker = (chars: string[], word: string) =>
  fc
    .tuple(fc.constantFrom(...chars), fc.integer({ min: 5, max: 9 }), fc.constantFrom(' ', ''))
    .map(([c, n, space]) => `${c.repeat(n)}${space}${word}`);

const blockStyle: fc.Arbitrary<BlockStyle> = fc.record({
  path: fc.constantFrom(...PATHS),
  pathStyle: fc.constantFrom<PathStyle>(
    'line',
    'bold',
    'backticks',
    'colon',
    'label',
    'heading',
    'bullet',
    'fence-info',
    'fence-title',
    'inline',
  ),
  head: marker(['<', '-'], 'SEARCH'),
  divider: fc.integer({ min: 5, max: 9 }).map((n) => '='.repeat(n)),
  tail: marker(['>', '+'], 'REPLACE'),
  fence: fc.oneof(
    fc.constant(''),
    fc.tuple(fc.constantFrom('`', '~'), fc.integer({ min: 3, max: 6 })).map(([c, n]) => c.repeat(n)),
  ),
  prose: fc.boolean(),
});

function pathLine(style: BlockStyle): string | undefined {
  const p = style.path;
  switch (style.pathStyle) {
    case 'line':
      return p;
    case 'bold':
      return `**${p}**`;
    case 'backticks':
      return `\`${p}\``;
    case 'colon':
      return `${p}:`;
    case 'label':
      return `File: ${p}`;
    case 'heading':
      return `### ${p}`;
    case 'bullet':
      return `- \`${p}\``;
    case 'fence-info':
    case 'fence-title':
    case 'inline':
      return undefined;
  }
}

function renderBlock(style: BlockStyle, search: readonly string[], replace: readonly string[]): string {
  const fence = style.fence === '' && style.pathStyle.startsWith('fence') ? '```' : style.fence;
  const info =
    style.pathStyle === 'fence-info'
      ? `ts ${style.path}`
      : style.pathStyle === 'fence-title'
        ? `ts title="${style.path}"`
        : 'ts';
  const out: string[] = [];
  if (style.prose) out.push('Here is the change:', '');
  const named = pathLine(style);
  if (named !== undefined) out.push(named);
  if (fence !== '') out.push(`${fence}${info}`);
  out.push(
    style.pathStyle === 'inline' ? `${style.head} ${style.path}` : style.head,
    ...search,
    style.divider,
    ...replace,
    style.tail,
  );
  if (fence !== '') out.push(fence);
  if (style.prose) out.push('', 'This keeps the tests green.');
  return out.join('\n');
}

/** The parser's separator line. */
const DIVIDER = /^ {0,3}={5,9}\s*$/;

const replacement = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: codeLine },
    { weight: 2, arbitrary: blankLine },
    { weight: 1, arbitrary: dividerLike },
  ),
  { maxLength: 6 },
);

test('an exact SEARCH/REPLACE edit gives the expected bytes, whatever its markers, fence and path decoration', () => {
  const scenario = fileSpec(30).chain((spec) =>
    fc.record({
      spec: fc.constant(spec),
      range: rangeIn(spec.lines),
      replace: replacement,
      style: blockStyle,
    }),
  );
  fc.assert(
    fc.property(scenario, ({ spec, range: [start, end], replace, style }) => {
      const search = spec.lines.slice(start, end);
      // A REPLACE indented unlike the file is re-indented (its own property below).
      const typed = indentStyle(replace);
      fc.pre(
        typed === undefined ||
          typed === indentStyle(search) ||
          indentStyle(spec.lines) === undefined ||
          indentStyle(spec.lines) === typed,
      );
      // A REPLACE that starts with a `=======` line is a doubled separator: a deletion (the next test).
      fc.pre(!DIVIDER.test(replace[0] ?? ''));
      const result = applyTo(renderBlock(style, search, replace), style.path, render(spec));
      if (isWeakSearch(search) && occurrences(spec.lines, search) > 1) {
        assert.ok('failed' in result, JSON.stringify(result));
        return;
      }
      assert.deepEqual(result, { text: expectedAfter(spec, search, replace) });
    }),
    params,
  );
});

test('a doubled separator (======= twice) is one separator: the REPLACE after it, never the marker', () => {
  const scenario = fc.record({ style: blockStyle, replace: fc.array(codeLine, { maxLength: 3 }) });
  fc.assert(
    fc.property(scenario, ({ style, replace }) => {
      const spec: FileSpec = {
        lines: ['# Title', 'old text', 'end'],
        crlf: false,
        finalNewline: true,
        bom: false,
      };
      const result = applyTo(
        renderBlock(style, ['old text'], [style.divider, ...replace]),
        style.path,
        render(spec),
      );
      assert.deepEqual(result, { text: render(spec, ['# Title', ...replace, 'end']) });
    }),
    params,
  );
});

test('a ======= line inside REPLACE does not cut the replacement short', () => {
  const scenario = fc.record({
    style: blockStyle,
    before: fc.array(codeLine, { maxLength: 3 }),
    after: fc.array(codeLine, { minLength: 1, maxLength: 3 }),
  });
  fc.assert(
    fc.property(scenario, ({ style, before, after }) => {
      const spec: FileSpec = {
        lines: ['# Title', 'old text', 'end'],
        crlf: false,
        finalNewline: true,
        bom: false,
      };
      const replace = [...before, 'Heading', '=======', ...after];
      const result = applyTo(renderBlock(style, ['old text'], replace), style.path, render(spec));
      assert.deepEqual(result, { text: render(spec, ['# Title', ...replace, 'end']) });
    }),
    params,
  );
});

test("a REPLACE typed with tabs for a file indented with spaces, or the reverse, comes out in the file's style", () => {
  const unit = fc.constantFrom('  ', '    ', '\t');
  // Levels 1 and 2 under the function line: a REPLACE alone cannot tell 8 spaces at one level from 4 at two.
  const body = fc.array(
    fc.tuple(
      fc.integer({ min: 0, max: 1 }),
      fc.constantFrom('total += item.price;', 'return total;', 'if (item) {', 'log(item);'),
    ),
    { minLength: 1, maxLength: 5 },
  );
  const typedLines = fc.array(
    fc.tuple(
      fc.integer({ min: 0, max: 1 }),
      fc.constantFrom('count++;', 'total = 0;', 'for (const x of items) {', 'use(x);'),
    ),
    { minLength: 1, maxLength: 5 },
  );
  // The first line of each one level under the function's (as code is): with nothing else shared, it fixes the unit.
  const firstAtTop = (lines: Array<[number, string]>) =>
    lines.map(([level, text], i): [number, string] => [i === 0 ? 0 : level, text]);
  const scenario = fc
    .record({
      fileUnit: unit,
      modelUnit: unit,
      body: body.map(firstAtTop),
      added: typedLines.map(firstAtTop),
    })
    .filter((s) => (s.fileUnit === '\t') !== (s.modelUnit === '\t'));
  fc.assert(
    fc.property(scenario, ({ fileUnit, modelUnit, body, added }) => {
      const lines = [
        'function sum(items) {',
        ...body.map(([level, text]) => fileUnit.repeat(level + 1) + text),
        '}',
      ];
      const search = lines.slice(0, 2);
      // Added lines, not the body's: a body line at another level would be a moved line, not a typed one.
      const replace = [lines[0] ?? '', ...added.map(([level, text]) => modelUnit.repeat(level + 1) + text)];
      const result = applyTo(
        `src/app.ts\n<<<<<<< SEARCH\n${search.join('\n')}\n=======\n${replace.join('\n')}\n>>>>>>> REPLACE\n`,
        'src/app.ts',
        `${lines.join('\n')}\n`,
      );
      assert.ok('text' in result, JSON.stringify(result));
      const expected = [
        lines[0] ?? '',
        ...added.map(([level, text]) => fileUnit.repeat(level + 1) + text),
        ...lines.slice(2),
      ];
      assert.equal(result.text, `${expected.join('\n')}\n`);
      for (const line of result.text.split('\n'))
        assert.ok(
          !leadingWhitespace(line).includes(fileUnit === '\t' ? ' ' : '\t'),
          `mixed indentation: ${JSON.stringify(line)}`,
        );
    }),
    params,
  );
});

// --- unified diff renderings ---------------------------------------------------------------

type HeaderStyle = 'as-is' | 'wrong-numbers' | 'bare';
type DiffWrap = 'fenced-diff' | 'fenced-untagged' | 'unfenced' | 'headerless-under-path';

/** Rewrites every hunk header: kept, with made-up numbers and counts, or as a bare "@@ @@". */
function mangleHeaders(patch: string, style: HeaderStyle, salt: number): string {
  if (style === 'as-is') return patch;
  return patch.replace(/^@@ .* @@$/gm, () =>
    style === 'bare' ? '@@ @@' : `@@ -${salt},${salt % 7} +${salt * 3},${salt % 5} @@`,
  );
}

function renderDiff(
  path: string,
  before: string,
  after: string,
  header: HeaderStyle,
  wrap: DiffWrap,
  salt: number,
): string {
  const raw = mangleHeaders(createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after), header, salt);
  // jsdiff starts with a "=====" rule that git and models do not write; kept only in a diff-tagged fence.
  const patch = wrap === 'fenced-diff' ? raw : raw.slice(raw.indexOf('--- '));
  switch (wrap) {
    case 'fenced-diff':
      return `Apply this:\n\n\`\`\`diff\n${patch}\`\`\`\n`;
    case 'fenced-untagged':
      return `\`\`\`\n${patch}\`\`\`\n`;
    case 'unfenced':
      return `${patch}\nThat is all.\n`;
    case 'headerless-under-path':
      return `${path}\n\`\`\`diff\n${patch.slice(patch.indexOf('@@'))}\`\`\`\n`;
  }
}

/**
 * A file with runs of at most two blank lines (so every hunk's context has a non-blank line)
 * and lines for the edit. `unique`: every line differs from every other, so a hunk's text names
 * one place; otherwise lines repeat and only the hunk's line number tells the places apart.
 */
const diffScenario = (unique: boolean) =>
  fc
    .uniqueArray(codeLine, { selector: (l) => l.trim(), minLength: 2, maxLength: unique ? 36 : 8 })
    .chain((pool) => {
      const split = Math.max(1, pool.length - (unique ? 6 : 2));
      const entries = unique
        ? fc.constant(pool.slice(0, split))
        : fc.array(fc.constantFrom(...pool.slice(0, split)), { minLength: 2, maxLength: 30 });
      const lines = entries.chain((chosen) =>
        fc
          .array(fc.constantFrom(0, 0, 0, 1, 2), { minLength: chosen.length, maxLength: chosen.length })
          .map((blanks) => chosen.flatMap((l, i) => [l, ...Array<string>(blanks[i] ?? 0).fill('')])),
      );
      const fresh = unique ? pool.slice(split) : pool;
      return fc
        .record({ lines, crlf: fc.boolean(), finalNewline: fc.boolean(), bom: fc.boolean() })
        .filter(representable)
        .chain((spec) =>
          fc.record({
            spec: fc.constant(spec),
            range: rangeIn(spec.lines),
            replace: fc.array(fc.constantFrom(...fresh, ''), { maxLength: 5 }),
            header: unique
              ? fc.constantFrom<HeaderStyle>('as-is', 'wrong-numbers', 'bare')
              : fc.constant<HeaderStyle>('as-is'),
            wrap: fc.constantFrom<DiffWrap>(
              'fenced-diff',
              'fenced-untagged',
              'unfenced',
              'headerless-under-path',
            ),
            salt: fc.integer({ min: 1, max: 500 }),
          }),
        );
    });

/** The property for both diff scenarios: the diff of the intended edit gives the intended bytes. */
const diffGivesTheEdit = (unique: boolean) =>
  fc.property(diffScenario(unique), ({ spec, range: [start, end], replace, header, wrap, salt }) => {
    const intended = [...spec.lines.slice(0, start), ...replace, ...spec.lines.slice(end)];
    // A diff cannot say "end with an empty line but no newline": it reads as adding a final
    // newline, which aide deliberately does not do.
    fc.pre(representable({ ...spec, lines: intended }));
    fc.pre(intended.join('\n') !== spec.lines.join('\n')); // an edit that changes nothing has no hunks
    // New lines indented unlike the whole file are re-indented (tested above).
    const typed = indentStyle(replace);
    fc.pre(typed === undefined || indentStyle(spec.lines) === undefined || indentStyle(spec.lines) === typed);
    const lf = { ...spec, crlf: false, bom: false };
    const diff = renderDiff('src/app.ts', render(lf), render(lf, intended), header, wrap, salt);
    const result = applyTo(diff, 'src/app.ts', render(spec));
    assert.deepEqual(result, { text: render(spec, intended) });
  });

test('the same edit written as a unified diff gives the same bytes, with right or wrong hunk numbers', () => {
  fc.assert(diffGivesTheEdit(true), params);
});

test('a diff edits the occurrence its hunk numbers name when the same lines occur several times', () => {
  fc.assert(diffGivesTheEdit(false), params);
});

// --- garbage ---------------------------------------------------------------------------------

const fileInput: fc.Arbitrary<FileInput> = fc.oneof(
  fc.constant<FileInput>({ state: 'missing' }),
  fc.constant<FileInput>({ state: 'unreadable', reason: 'it is a binary file' }),
  fileSpec(12).map((spec): FileInput => ({ state: 'text', file: parseText(render(spec)) })),
);

test('garbage responses never make the parser or the planner throw', () => {
  fc.assert(
    fc.property(garbageResponse, fc.array(fileInput, { minLength: 4, maxLength: 4 }), (response, inputs) => {
      const parsed = parseResponse(response);
      const paths = [...new Set(parsed.blocks.map((b) => b.path))];
      const files = new Map(
        paths.map((p, i) => [p, inputs[i % inputs.length] ?? { state: 'missing' as const }]),
      );
      const plan = planEdits(parsed.blocks, files);
      assert.equal(plan.outcomes.length, parsed.blocks.length);
      assert.equal(
        plan.ok,
        plan.outcomes.every((o) => o.ok),
      );
      feedbackForModel(plan.outcomes, parsed.problems, parsed.blocks.length);
    }),
    { ...params, numRuns: RUNS * 3 },
  );
});
