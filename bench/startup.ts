/**
 * Start-up benchmark: the CPU time (user + sys) of one `aide` process for `--help`, `--version`,
 * `status` and `review --staged` with nothing staged (in a temp git repository where `aide init`
 * ran), each as a ratio to a bare `node -e 0` measured in the same run.
 *
 * Goal (from the issue): `--help` and `--version` ≤ 2×, `status` and `review --staged` ≤ 2.5×.
 *
 * Each child is started with a tiny `--import` preload that, when the process exits, appends its
 * own `process.resourceUsage()` to a file: wall clock and the 10 ms ticks of /proc or
 * /usr/bin/time are too coarse (and too load-dependent) for processes of 50–200 ms. The preload
 * costs every case, `node -e 0` included, the same small amount. The cases are interleaved
 * (node, --help, --version, status, node, …) so a change of load falls on each of them alike.
 *
 * Run: npm run bench:startup [-- --runs 20] [--keep]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFlags, median, runsAndKeep } from './stats.js';

const USAGE = 'npm run bench:startup [-- --runs 20] [--keep]';

const BIN = fileURLToPath(new URL('../bundle/aide.js', import.meta.url));

interface Case {
  name: string;
  args: string[];
  cwd: string;
  /** The ratio to `node -e 0` this case should stay under; undefined: the baseline. */
  goal?: number;
}

/** A git repository where `aide init` ran, so `aide status` finds a workspace. */
function makeWorkspace(root: string): string {
  const repo = join(root, 'repo');
  const git = (...args: string[]) => {
    const result = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  };
  spawnSync('mkdir', ['-p', repo]);
  git('init', '-q');
  writeFileSync(join(repo, 'README.md'), '# bench\n');
  const init = spawnSync(process.execPath, [BIN, 'init'], { cwd: repo, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`aide init failed (${init.status}): ${init.stderr}`);
  return repo;
}

/** Runs one case once; returns its CPU time in ms as the child measured it at exit. */
function cpuMs(run: Case, preload: string, report: string): number {
  writeFileSync(report, '');
  const result = spawnSync(process.execPath, ['--import', preload, ...run.args], {
    cwd: run.cwd,
    env: { ...process.env, AIDE_BENCH_CPU: report, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`${run.name} exited ${result.status}: ${result.stderr || result.stdout}`);
  const micros = Number(readFileSync(report, 'utf8').trim());
  if (!Number.isFinite(micros) || micros <= 0) throw new Error(`${run.name}: no CPU time reported`);
  return micros / 1000;
}

function main(): void {
  checkFlags(process.argv.slice(2), USAGE);
  const { runs, keep } = runsAndKeep(process.argv.slice(2));
  const root = mkdtempSync(join(tmpdir(), 'aide-bench-startup-'));
  try {
    const preload = join(root, 'cpu.mjs');
    const report = join(root, 'cpu.txt');
    writeFileSync(
      preload,
      "import { appendFileSync } from 'node:fs';\n" +
        "process.on('exit', () => { const u = process.resourceUsage(); " +
        'appendFileSync(process.env.AIDE_BENCH_CPU, `${u.userCPUTime + u.systemCPUTime}\\n`); });\n',
    );
    const repo = makeWorkspace(root);
    const cases: Case[] = [
      { name: 'node -e 0', args: ['-e', '0'], cwd: repo },
      { name: 'aide --help', args: [BIN, '--help'], cwd: repo, goal: 2 },
      { name: 'aide --version', args: [BIN, '--version'], cwd: repo, goal: 2 },
      { name: 'aide status', args: [BIN, 'status'], cwd: repo, goal: 2.5 },
      // Nothing staged and no verify command: what the pre-commit hook pays before its checks
      // (bench/review measures the checks).
      { name: 'aide review --staged', args: [BIN, 'review', '--staged'], cwd: repo, goal: 2.5 },
    ];
    const times = cases.map(() => [] as number[]);
    // One untimed round first: the page cache and git's own files warm up for every case.
    for (const run of cases) cpuMs(run, preload, report);
    for (let round = 0; round < runs; round++)
      cases.forEach((run, i) => times[i]?.push(cpuMs(run, preload, report)));
    const base = median(times[0] ?? []);
    const [load1] = loadavg();
    console.log(
      `\naide start-up, CPU time (user + sys) per process, median of ${runs} runs ` +
        `(load ${load1?.toFixed(2)} on ${availableParallelism()} cores)\n`,
    );
    console.log(
      `${'case'.padEnd(21)} ${'median'.padStart(8)} ${'min–max'.padStart(15)} ${'ratio'.padStart(6)}  goal`,
    );
    cases.forEach((run, i) => {
      const values = times[i] ?? [];
      const m = median(values);
      const range = `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
      const ratio = m / base;
      const goal = run.goal === undefined ? '' : `≤ ${run.goal}× ${ratio <= run.goal ? 'met' : 'NOT met'}`;
      console.log(
        `${run.name.padEnd(21)} ${`${m.toFixed(1)} ms`.padStart(8)} ${`${range} ms`.padStart(15)} ${`${ratio.toFixed(2)}×`.padStart(6)}  ${goal}`,
      );
    });
  } finally {
    if (keep) console.log(`\nkept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

main();
