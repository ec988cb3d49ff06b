/**
 * Edit engine benchmark: per-block parse + plan time on generated TypeScript files of 1k, 10k
 * and 50k lines, for an exact edit, a fuzzy edit (a typo in a context line), an edit whose
 * SEARCH lost its indentation, and a SEARCH found nowhere (which also computes the closest
 * lines). Work should grow linearly with the file: 10× from 1k to 10k, 5× from 10k to 50k.
 *
 * Then the whole `aide apply` path (parse, jail and read, plan, diffs, the text and JSON reports)
 * on replies of 1,000 and 10,000 blocks, one file each and all in one file, against an in-memory
 * file system: work should grow 10× (a report that filtered the blocks per file grew 100×).
 *
 * Run: npm run bench:edit   (RUNS=n to change the number of timed runs per cell; ONLY=apply for the apply path alone)
 */
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { applyJson, renderApplyText } from '../src/cli/render/apply.js';
import { makeStyle } from '../src/cli/render/style.js';
import { applyFlow, type ApplyReport } from '../src/core/flows/apply.js';
import type { FileStat, FileSystem } from '../src/core/ports/files.js';
import { parseResponse } from '../src/core/edit/parse-response.js';
import { planEdits, type BlockOutcome } from '../src/core/edit/plan-edits.js';
import { parseText } from '../src/core/edit/text-file.js';
import { checkFlags } from './stats.js';

const USAGE =
  'npm run bench:edit   (RUNS=n to change the number of timed runs per cell; ONLY=apply for the apply path alone)';

const SIZES = [1_000, 10_000, 50_000] as const;
const RUNS = Number(process.env['RUNS'] ?? 15);
const PATH = 'src/generated.ts';

/** One function of a realistic module; `i` makes its names unique. */
function functionLines(i: number): string[] {
  return [
    `/** Computes the summary of order ${i}. */`,
    `export function summarizeOrder${i}(order: Order, options: SummaryOptions): Summary {`,
    `  const subtotal${i} = order.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);`,
    '  if (options.includeTax) {',
    `    applyTaxRules(order.region, subtotal${i});`,
    '  }',
    `  const result = { id: ${i}, subtotal: subtotal${i}, currency: order.currency };`,
    '  return result;',
    '}',
    '',
  ];
}

/** One class with an indented method; a 2-space file, so methods sit at 2 and bodies at 4. */
function classLines(i: number): string[] {
  return [
    `export class Repository${i} {`,
    `  private readonly cache${i} = new Map<string, Entity>();`,
    '',
    `  async findEntity${i}(id: string): Promise<Entity | undefined> {`,
    `    const cached = this.cache${i}.get(id);`,
    '    if (cached !== undefined) return cached;',
    `    const loaded = await this.store.load('entity-${i}', id);`,
    `    this.cache${i}.set(id, loaded);`,
    '    return loaded;',
    '  }',
    '}',
    '',
  ];
}

interface Source {
  text: string;
  /** Index of the function and of the class near the end of the file that the edits target. */
  fn: number;
  cls: number;
}

function generate(lineCount: number): Source {
  const lines = ["import type { Entity, Order, Summary, SummaryOptions } from './types.js';", ''];
  let i = 0;
  while (lines.length < lineCount) {
    lines.push(...(i % 3 === 2 ? classLines(i) : functionLines(i)));
    i++;
  }
  // Targets sit in the last 5% of the file; indices that are 0 mod 3 are functions, 2 mod 3 classes.
  const near = Math.floor(i * 0.95);
  return {
    text: `${lines.slice(0, lineCount).join('\n')}\n`,
    fn: near - (near % 3),
    cls: near - (near % 3) + 2,
  };
}

function block(search: readonly string[], replace: readonly string[]): string {
  return `${PATH}\n\`\`\`ts\n<<<<<<< SEARCH\n${search.join('\n')}\n=======\n${replace.join('\n')}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

interface Case {
  name: string;
  /** The outcome the response must have: a strategy name, or 'not-found'. */
  expect: string;
  response: (source: Source) => string;
}

const CASES: Case[] = [
  {
    name: 'exact, near the end',
    expect: 'exact',
    response: ({ fn }) => {
      const lines = functionLines(fn).slice(2, 7);
      return block(
        lines,
        lines.map((l) => l.replace('options.includeTax', 'options.includeTax && !order.exempt')),
      );
    },
  },
  {
    name: 'fuzzy (typo in a context line)',
    expect: 'fuzzy',
    response: ({ fn }) => {
      const lines = functionLines(fn).slice(2, 8);
      const typo = lines.map((l) => l.replace('quantity', 'quantiy'));
      return block(
        typo,
        typo.map((l) => l.replace('return result;', 'return Object.freeze(result);')),
      );
    },
  },
  {
    name: 'indentation-shifted',
    expect: 'indentation',
    response: ({ cls }) => {
      const method = classLines(cls)
        .slice(3, 10)
        .map((l) => l.slice(2));
      return block(
        method,
        method.map((l) => l.replace('return cached;', 'return structuredClone(cached);')),
      );
    },
  },
  {
    name: 'not found (closest lines)',
    expect: 'not-found',
    response: ({ fn }) => {
      const invented = [
        `export function summarizeInvoice${fn}(invoice: Invoice): Summary {`,
        '  const subtotal = invoice.items.map((item) => item.cost).reduce(add, 0);',
        '  if (options.includeTax) {',
        '  }',
        '  return result;',
        '}',
      ];
      return block(invented, ['export const removed = true;']);
    },
  },
];

function outcomeName(outcome: BlockOutcome | undefined): string {
  if (outcome === undefined) return 'no block';
  return outcome.ok ? (outcome.strategy ?? outcome.action) : outcome.failure.kind;
}

// A minor collection before each timed run (the flag only makes `gc` callable; nothing else changes).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options: { type: 'minor' | 'major' }) => void;
function collectYoung(): void {
  collect({ type: 'minor' });
}

/**
 * Median CPU milliseconds (user + system) of parse + plan, each run against a freshly decoded
 * file (no warm caches). CPU rather than wall time, as for the apply path below: on a shared
 * machine the scheduler preempts a run of 10 ms where it lets one of 1 ms finish, so the wall
 * clock's 50k/10k ratio measured the neighbours (the same build gave 5.3× and 13× at load 6).
 */
function measure(source: Source, testCase: Case, runs = RUNS): number {
  const response = testCase.response(source);
  const times: number[] = [];
  for (let run = -Math.min(2, runs); run < runs; run++) {
    const file = parseText(source.text);
    // Decoding the file allocates more than a plan does: collected here, it is not collected
    // inside the timed plan, where it fell into some runs of 10k lines and into every run of 50k.
    collectYoung();
    const started = process.cpuUsage();
    const parsed = parseResponse(response);
    const plan = planEdits(parsed.blocks, new Map([[PATH, { state: 'text', file }]]));
    const used = process.cpuUsage(started);
    const elapsed = (used.user + used.system) / 1000;
    const got = outcomeName(plan.outcomes[0]);
    if (got !== testCase.expect) throw new Error(`${testCase.name}: expected ${testCase.expect}, got ${got}`);
    if (run >= 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/** Flags growth well past linear (2× the expected ratio); tiny times are noisy, so say so. */
function verdict(ratio: number, linear: number, smallest: number): string {
  if (smallest < 0.05) return 'too fast to judge';
  if (ratio > linear * 2) return ratio > linear * linear * 0.5 ? 'LOOKS QUADRATIC' : 'superlinear';
  return 'linear';
}

/** Deterministic pseudo-prose: words from a small vocabulary, `length` characters or a little more. */
function proseLine(seed: number, length: number): string {
  const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'lorem', 'ipsum', 'dolor', 'amet', 'value', 'order'];
  let state = seed;
  let line = '';
  while (line.length < length) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    line += `${vocabulary[state % vocabulary.length] ?? ''}${state % 97} `;
  }
  return line.trimEnd();
}

/**
 * A SEARCH none of whose lines equals a file line (a paraphrase) makes findClosest compare its
 * first line with every line of the file by edit distance: cost grows with the square of the
 * line length. 1k lines of prose at several widths.
 */
function lineLengthTable(): void {
  const lines = 1_000;
  const runs = Math.max(1, Math.min(RUNS, 3));
  console.log(
    `\nnot found, no SEARCH line equal to a file line: ${lines} lines, by line length (median of ${runs} runs, CPU ms)\n`,
  );
  let previous: number | undefined;
  for (const length of [40, 80, 160, 320]) {
    const source: Source = {
      text: `${Array.from({ length: lines }, (_, i) => proseLine(i + 1, length)).join('\n')}\n`,
      fn: 0,
      cls: 0,
    };
    const search = Array.from({ length: 8 }, (_, k) => proseLine(1_000_000 + k, length));
    const ms = measure(
      source,
      { name: `prose ${length}`, expect: 'not-found', response: () => block(search, ['gone']) },
      runs,
    );
    const growth =
      previous === undefined
        ? ''
        : `  ${(ms / previous).toFixed(1)}× for 2× longer lines (linear 2×, quadratic 4×)`;
    console.log(`  ~${String(length).padStart(3)} chars/line  ${ms.toFixed(1).padStart(9)}${growth}`);
    previous = ms;
  }
}

/** Files in memory, folders implied by their paths: the apply path without the disk's noise. */
class MemoryFileSystem implements FileSystem {
  private readonly dirs = new Set<string>();

  constructor(private readonly files: ReadonlyMap<string, Uint8Array>) {
    for (const path of files.keys())
      for (let d = dirname(path); !this.dirs.has(d) && d !== dirname(d); d = dirname(d)) this.dirs.add(d);
  }

  readFile(path: string): Promise<Uint8Array | null> {
    return Promise.resolve(this.files.get(path) ?? null);
  }

  lstat(path: string): Promise<FileStat | null> {
    const file = this.files.get(path);
    if (file !== undefined) return Promise.resolve({ kind: 'file', mode: 0o644, size: file.length });
    return Promise.resolve(this.dirs.has(path) ? { kind: 'directory', mode: 0o755, size: 0 } : null);
  }

  realpath(path: string): Promise<string | null> {
    return Promise.resolve(this.files.has(path) || this.dirs.has(path) ? path : null);
  }

  commit(): Promise<void> {
    return Promise.resolve();
  }
}

const ROOT = '/workspace';

type Layout = 'one file each' | 'one file' | 'one file, adds' | 'one file, again';

/**
 * A reply of `blocks` exact edits: one per file, or all in one file of `blocks` lines; `adds`
 * keeps each SEARCH line and adds one after it, so every block shifts the lines below it;
 * `again` is the reply applied a second time: every SEARCH fails and every block is already applied.
 */
function applyCase(blocks: number, layout: Layout): { response: string; fs: MemoryFileSystem } {
  const files = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  const parts: string[] = [];
  const single = Array.from(
    { length: blocks },
    (_, i) => `export const value${i} = ${layout === 'one file, again' ? i + 1 : i};`,
  );
  if (layout !== 'one file each')
    files.set(`${ROOT}/src/values.ts`, encoder.encode(`${single.join('\n')}\n`));
  for (let i = 0; i < blocks; i++) {
    const path = layout === 'one file each' ? `src/m${i % 100}/file${i}.ts` : 'src/values.ts';
    if (layout === 'one file each')
      files.set(
        `${ROOT}/${path}`,
        encoder.encode(`export const value${i} = ${i};\nexport default value${i};\n`),
      );
    const replace =
      layout === 'one file, adds'
        ? `export const value${i} = ${i};\nexport const twice${i} = ${2 * i};`
        : `export const value${i} = ${i + 1};`;
    parts.push(
      `${path}\n<<<<<<< SEARCH\nexport const value${i} = ${i};\n=======\n${replace}\n>>>>>>> REPLACE\n`,
    );
  }
  return { response: parts.join('\n'), fs: new MemoryFileSystem(files) };
}

/**
 * CPU milliseconds (user + system) for the apply path once: the flow (dry run), then both
 * reports. CPU rather than wall time: on a shared machine the wall clock measures the neighbours.
 */
async function timeApply(blocks: number, layout: Layout): Promise<number> {
  const { response, fs } = applyCase(blocks, layout);
  const started = process.cpuUsage();
  const flow = applyFlow({ response, root: ROOT, dryRun: true }, { fs });
  let step = await flow.next();
  while (step.done !== true) step = await flow.next();
  const report: ApplyReport = step.value;
  renderApplyText(report, makeStyle(false));
  applyJson(report);
  const used = process.cpuUsage(started);
  const elapsed = (used.user + used.system) / 1000;
  if (
    !report.ok ||
    report.files.length !== (layout === 'one file each' ? blocks : layout === 'one file, again' ? 0 : 1)
  )
    throw new Error(`apply of ${blocks} blocks (${layout}) did not apply`);
  return elapsed;
}

async function applyTable(): Promise<void> {
  const runs = Math.max(1, Math.min(RUNS, 3));
  console.log(
    `\naide apply path (parse, read, plan, diffs, text and JSON reports), dry run in memory, median of ${runs} runs (CPU ms)\n`,
  );
  await timeApply(500, 'one file each');
  for (const layout of ['one file each', 'one file', 'one file, adds', 'one file, again'] as const) {
    const medians: number[] = [];
    for (const blocks of [1_000, 10_000]) {
      const times: number[] = [];
      for (let run = 0; run < runs; run++) times.push(await timeApply(blocks, layout));
      times.sort((a, b) => a - b);
      medians.push(times[Math.floor(times.length / 2)] ?? Number.NaN);
    }
    const [small = Number.NaN, large = Number.NaN] = medians;
    const ratio = large / small;
    console.log(
      `  ${layout.padEnd(16)}  1k blocks ${small.toFixed(1).padStart(8)}  10k blocks ${large.toFixed(1).padStart(9)}  ${ratio.toFixed(1)}× ${verdict(ratio, 10, small)} (linear 10×)`,
    );
  }
}

async function main(): Promise<void> {
  checkFlags(process.argv.slice(2), USAGE);
  // ONLY=apply runs just the apply-path table.
  if (process.env['ONLY'] === 'apply') {
    await applyTable();
    return;
  }
  const sources = SIZES.map((size) => generate(size));
  // Warm the JIT on every path first, so the first cell measured is not also the slowest.
  const warm = generate(2_000);
  for (const testCase of CASES) measure(warm, testCase);
  const load = loadavg()[0] ?? 0;
  console.log(
    `aide edit engine: parse + plan per block, median of ${RUNS} runs (CPU ms), node ${process.version}, load average ${load.toFixed(1)}\n`,
  );
  const header = [
    'case',
    ...SIZES.map((s) => `${s / 1000}k lines`),
    '10k/1k (linear 10×)',
    '50k/10k (linear 5×)',
  ];
  const rows: string[][] = [header];
  for (const testCase of CASES) {
    const [small, medium, large] = sources.map((source) => measure(source, testCase)) as [
      number,
      number,
      number,
    ];
    const r1 = medium / small;
    const r2 = large / medium;
    rows.push([
      testCase.name,
      small.toFixed(3),
      medium.toFixed(3),
      large.toFixed(3),
      `${r1.toFixed(1)}× ${verdict(r1, 10, small)}`,
      `${r2.toFixed(1)}× ${verdict(r2, 5, medium)}`,
    ]);
  }
  const widths = header.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const [n, row] of rows.entries()) {
    console.log(
      row
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
        .join('  '),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  lineLengthTable();
  await applyTable();
}

await main();
