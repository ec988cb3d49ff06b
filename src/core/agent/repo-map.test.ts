import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RepoFile } from '../ports/repo-reader.js';
import { buildRepoMap, formatSize, type RepoMapInput } from './repo-map.js';
import { definitionNames, rankFiles } from './repo-map-rank.js';

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function file(path: string, bytes = 100): RepoFile {
  return { path, bytes, kind: 'file', blob: `blob-${path}` };
}

function input(overrides: Partial<RepoMapInput> = {}): RepoMapInput {
  return {
    files: [
      file('README.md', 1200),
      file('src/inventory.ts', 2150),
      file('src/report.ts', 800),
      file('src/util/strings.ts', 300),
      file('docs/guide.md', 5000),
    ],
    definitions: new Map([
      ['src/inventory.ts', ['class Inventory: add, remove, count']],
      ['src/report.ts', ['function formatReport(inventory)']],
      ['src/util/strings.ts', ['function pad(text, width)']],
    ]),
    task: 'Make the report show totals.',
    budgetTokens: 10_000,
    estimateTokens,
    ...overrides,
  };
}

test('the map is the tree with sizes, folders first, and the definitions under their files', () => {
  assert.equal(
    buildRepoMap(input()),
    [
      'Repository map: 5 files (sizes in bytes; top-level definitions under source files).',
      'docs/ (1 file)',
      '  guide.md (4.9 KB)',
      'src/ (3 files)',
      '  util/ (1 file)',
      '    strings.ts (300 B)',
      '      function pad(text, width)',
      '  inventory.ts (2.1 KB)',
      '    class Inventory: add, remove, count',
      '  report.ts (800 B)',
      '    function formatReport(inventory)',
      'README.md (1.2 KB)',
      '',
    ].join('\n'),
  );
});

test('the files the task names come first: a path, a basename, a focus file, an identifier it defines', () => {
  const ranked = (task: string, focus?: string[]) =>
    rankFiles({ ...input({ task }), ...(focus === undefined ? {} : { focus }) }).map(
      (ranked) => ranked.file.path,
    );
  assert.equal(ranked('Fix docs/guide.md please')[0], 'docs/guide.md');
  assert.equal(ranked('See `strings.ts`.')[0], 'src/util/strings.ts');
  assert.equal(ranked('anything', ['./src/report.ts'])[0], 'src/report.ts');
  assert.equal(ranked('Inventory should keep its count')[0], 'src/inventory.ts');
  assert.equal(ranked('pad must trim')[0], 'src/util/strings.ts');
  // Nothing named: shallow files first, then by path.
  assert.deepEqual(ranked('unrelated words'), [
    'README.md',
    'docs/guide.md',
    'src/inventory.ts',
    'src/report.ts',
    'src/util/strings.ts',
  ]);
});

test('files beside a named one come before the rest', () => {
  const files = [file('a/x.ts'), file('b/named.ts'), file('b/beside.ts'), file('c/z.ts')];
  const ranked = rankFiles({ files, definitions: new Map(), task: 'edit b/named.ts' }).map(
    (ranked) => ranked.file.path,
  );
  assert.deepEqual(ranked, ['b/named.ts', 'b/beside.ts', 'a/x.ts', 'c/z.ts']);
});

test('cut to the budget: what the task names stays, and the map says how many files are left out', () => {
  const files = Array.from({ length: 200 }, (_, i) => file(`pkg/mod${String(i).padStart(3, '0')}.ts`));
  const definitions = new Map(files.map((f, i) => [f.path, [`function helper${i}(a, b)`]]));
  const map = buildRepoMap({ files, definitions, task: 'fix helper150', budgetTokens: 300, estimateTokens });
  assert.ok(estimateTokens(map) <= 300, `over budget: ${estimateTokens(map)}`);
  assert.match(map, /mod150\.ts \(100 B\)\n {4}function helper150\(a, b\)/);
  const shown = map.match(/^ {2}mod\d+\.ts/gm)?.length ?? 0;
  assert.ok(shown > 5 && shown < 200);
  assert.match(map, new RegExp(`^pkg/ \\(200 files, ${shown} shown\\)$`, 'm'));
  assert.match(
    map,
    new RegExp(`^${200 - shown} of 200 files are not shown: list_files and search_files`, 'm'),
  );
  // The named file's definitions first, then the others' lines: their definitions did not fit.
  assert.ok(map.endsWith(`The definitions of ${shown - 1} files are left out: read_file shows them.\n`));
});

test('a file whose definitions do not fit is listed without them, and the map says so', () => {
  const long = Array.from({ length: 40 }, (_, i) => `function longName${i}(first, second, third)`);
  const map = buildRepoMap(
    input({ definitions: new Map([['src/inventory.ts', long]]), task: 'inventory.ts', budgetTokens: 120 }),
  );
  assert.match(map, /^ {2}inventory\.ts \(2\.1 KB\)$/m);
  assert.doesNotMatch(map, /longName/);
  assert.match(map, /The definitions of 1 file are left out: read_file shows them\.\n$/);
});

test('a tiny budget still gives the header and the count', () => {
  const map = buildRepoMap(input({ budgetTokens: 10 }));
  assert.match(map, /^Repository map: 5 files/);
  assert.match(map, /5 of 5 files are not shown/);
});

test('the same input gives the same text, whatever order the files and definitions come in', () => {
  const base = input({ budgetTokens: 90, task: 'the inventory' });
  const shuffled = input({
    budgetTokens: 90,
    task: 'the inventory',
    files: [...base.files].reverse(),
    definitions: new Map([...base.definitions].reverse()),
  });
  assert.equal(buildRepoMap(base), buildRepoMap(shuffled));
});

test('symlinks and an empty snapshot', () => {
  const link: RepoFile = { path: 'latest', bytes: 9, kind: 'symlink', blob: 'b' };
  assert.match(buildRepoMap(input({ files: [link] })), /^latest \(9 B, symlink\)$/m);
  assert.equal(buildRepoMap(input({ files: [] })), 'Repository map: the snapshot has no files.\n');
});

test('sizes and definition names', () => {
  assert.deepEqual([0, 1023, 1024, 10_240, 5 * 1024 * 1024].map(formatSize), [
    '0 B',
    '1023 B',
    '1.0 KB',
    '10 KB',
    '5.0 MB',
  ]);
  assert.deepEqual(definitionNames('class Inventory<T>: add, remove'), {
    names: ['Inventory'],
    members: ['add', 'remove'],
  });
  assert.deepEqual(definitionNames('func (Stack) Push(v T)').names, ['Push']);
  assert.deepEqual(definitionNames('int helper(int a, int b)').names, ['helper']);
  assert.deepEqual(definitionNames('function median(runs: number, fn: () => unknown = () => 0)'), {
    names: ['median'],
    members: [],
  });
});
