/**
 * Apply memory benchmark: the peak resident memory of one `aide apply reply.md` process (the
 * shipped bundle, in a temp git repository where `aide init` ran) for a 20 MB reply that creates
 * one file and for a reply of 2,000 blocks of 10 KB, each creating its own file. Each figure is
 * the peak minus that of a bare `node -e 0` measured in the same run, as a ratio to the reply's
 * size.
 *
 * Goal (from the issue): ≤ 5× the reply.
 *
 * The peak is the child's own `process.resourceUsage().maxRSS`, read at exit by a tiny `--import`
 * preload (the same preload runs in `node -e 0`), so no sampling can miss a short spike. Every
 * run applies into the same repository with the files the last run created removed (its
 * checkpoints stay in the shadow repository: git keeps them, in processes of its own that this
 * peak does not count), and the cases are interleaved so a change of load falls on each alike.
 *
 * Run: npm run bench:apply-memory [-- --runs 5] [--keep]  (5 runs by default)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFlags, benchEnv, median, runsAndKeep } from './stats.js';

const USAGE = 'npm run bench:apply-memory [-- --runs 5] [--keep]  (5 runs by default)';

const BIN = fileURLToPath(new URL('../bundle/aide.js', import.meta.url));
const GOAL = 5;

interface Case {
  name: string;
  /** The reply file; undefined: the `node -e 0` baseline. */
  reply?: string;
  /** The files the reply creates, removed before each run. */
  creates: string[];
}

function git(repo: string, env: Record<string, string>, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
}

/** A git repository with one commit where `aide init` ran. */
function makeWorkspace(root: string, env: Record<string, string>): string {
  const repo = join(root, 'repo');
  mkdirSync(repo, { recursive: true });
  git(repo, env, 'init', '-q');
  writeFileSync(join(repo, 'README.md'), '# bench\n');
  git(repo, env, 'add', '-A');
  git(repo, env, 'commit', '-qm', 'init');
  const init = spawnSync(process.execPath, [BIN, 'init'], { cwd: repo, env, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`aide init failed (${init.status}): ${init.stderr}`);
  return repo;
}

/** `count` source-like lines of about 60 bytes each, numbered so no two are alike. */
function lines(count: number, prefix: string): string {
  let out = '';
  for (let i = 0; i < count; i++)
    out += `export const ${prefix}_${String(i).padStart(7, '0')} = 'lorem ipsum dolor sit';\n`;
  return out;
}

/** A SEARCH/REPLACE block with an empty SEARCH: it creates `path` holding `content`. */
function createBlock(path: string, content: string): string {
  return `${path}\n<<<<<<< SEARCH\n=======\n${content}>>>>>>> REPLACE\n`;
}

function makeCases(root: string): Case[] {
  // ~20 MB of one new file: 385,000 lines of ~55 bytes.
  const one = join(root, 'one-file.md');
  writeFileSync(one, `Here is the file.\n\n${createBlock('big/generated.ts', lines(385_000, 'value'))}`);
  // 2,000 blocks of ~10 KB: each creates its own file of 190 lines.
  const many = join(root, 'many-blocks.md');
  const manyPaths = Array.from({ length: 2000 }, (_, i) => `many/file-${String(i).padStart(4, '0')}.ts`);
  writeFileSync(many, manyPaths.map((path, i) => createBlock(path, lines(190, `b${i}`))).join('\n'));
  return [
    { name: 'node -e 0', creates: [] },
    { name: '20 MB, one file', reply: one, creates: ['big'] },
    { name: '2,000 blocks of 10 KB', reply: many, creates: ['many'] },
  ];
}

/** Runs one case once; returns its peak RSS in bytes as the child measured it at exit. */
function peakBytes(
  run: Case,
  repo: string,
  env: Record<string, string>,
  preload: string,
  report: string,
): number {
  for (const path of run.creates) rmSync(join(repo, path), { recursive: true, force: true });
  writeFileSync(report, '');
  const args = run.reply === undefined ? ['-e', '0'] : [BIN, 'apply', run.reply];
  const result = spawnSync(process.execPath, ['--import', preload, ...args], {
    cwd: repo,
    env: { ...env, AIDE_BENCH_RSS: report, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`${run.name} exited ${result.status}: ${result.stderr || result.stdout}`);
  const kib = Number(readFileSync(report, 'utf8').trim());
  if (!Number.isFinite(kib) || kib <= 0) throw new Error(`${run.name}: no peak RSS reported`);
  return kib * 1024;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function main(): void {
  checkFlags(process.argv.slice(2), USAGE);
  // Five runs unless told: a 20 MB apply takes seconds, and its peak varies little.
  const argv = process.argv.slice(2);
  const told = argv.includes('--runs') || process.env['BENCH_RUNS'] !== undefined;
  const { runs, keep } = runsAndKeep(told ? argv : [...argv, '--runs', '5']);
  const root = mkdtempSync(join(tmpdir(), 'aide-bench-apply-memory-'));
  try {
    const env = benchEnv(join(root, 'home'));
    mkdirSync(join(root, 'home'));
    const preload = join(root, 'rss.mjs');
    const report = join(root, 'rss.txt');
    writeFileSync(
      preload,
      "import { appendFileSync } from 'node:fs';\n" +
        "process.on('exit', () => appendFileSync(process.env.AIDE_BENCH_RSS, " +
        '`${process.resourceUsage().maxRSS}\\n`));\n',
    );
    const repo = makeWorkspace(root, env);
    const cases = makeCases(root);
    const peaks = cases.map(() => [] as number[]);
    // One unmeasured round first: the page cache and git's own files warm up for every case.
    for (const run of cases) peakBytes(run, repo, env, preload, report);
    for (let round = 0; round < runs; round++)
      cases.forEach((run, i) => peaks[i]?.push(peakBytes(run, repo, env, preload, report)));
    const base = median(peaks[0] ?? []);
    const [load1] = loadavg();
    console.log(
      `\naide apply, peak RSS per process, median of ${runs} runs ` +
        `(load ${load1?.toFixed(2)} on ${availableParallelism()} cores)\n`,
    );
    console.log(
      `${'case'.padEnd(22)} ${'reply'.padStart(6)} ${'peak'.padStart(7)} ${'min–max'.padStart(12)} ` +
        `${'− node'.padStart(7)} ${'ratio'.padStart(6)}  goal`,
    );
    cases.forEach((run, i) => {
      const values = peaks[i] ?? [];
      const m = median(values);
      const range = `${(Math.min(...values) / 2 ** 20).toFixed(0)}–${mb(Math.max(...values))}`;
      if (run.reply === undefined) {
        console.log(`${run.name.padEnd(22)} ${''.padStart(6)} ${mb(m).padStart(7)} ${range.padStart(12)}`);
        return;
      }
      const size = statSync(run.reply).size;
      const ratio = (m - base) / size;
      const goal = `≤ ${GOAL}× ${ratio <= GOAL ? 'met' : 'NOT met'}`;
      console.log(
        `${run.name.padEnd(22)} ${mb(size).padStart(6)} ${mb(m).padStart(7)} ${range.padStart(12)} ` +
          `${mb(m - base).padStart(7)} ${`${ratio.toFixed(1)}×`.padStart(6)}  ${goal}`,
      );
    });
  } finally {
    if (keep) console.log(`\nkept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

main();
