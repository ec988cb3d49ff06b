/**
 * Verify benchmark: what `aide verify` costs on top of running the same commands directly,
 * measured in one run, each as a ratio to the direct run:
 *
 * - a trivial command (`true`, and `node -e 0`): a direct spawn; aide's command time (the
 *   report's `commands[0].durationMs`: the runner and the isolation wrapper); aide's total (the
 *   whole `aide verify` process: node start, config, isolation probe, snapshot, scratch, run,
 *   clean-up); and setup = total − command time. Isolated (the mechanism aide picks: bwrap where
 *   it works, else unshare) and with --no-isolation. For `true`, also where the time goes: the
 *   runner in-process without isolation, the wrapped argv spawned directly, and the isolation
 *   probe aide runs once per process.
 * - the isolation wrapper's fixed cost per command for each mechanism that works here (bwrap,
 *   unshare), against a bare spawn of `true` in the same rounds, wall and CPU
 *   (bench/wrapper-overhead.ts); `--wrapper-only` measures just that.
 * - this repository's own test suite (a subset by default, `--full` for all of it) in a clone of
 *   the repository, with node_modules and the built dist linked in. Isolated first; when the
 *   suite does not end as it does directly (other exit code or test counts), it is measured
 *   with --no-isolation and the output says so and names the tests that failed isolated.
 *
 * Goal (from the issue): aide's command time within 1.1× of the direct run; scratch setup
 * comes on top and is reported apart.
 *
 * Direct and aide runs are interleaved (direct, isolated, unconfined, direct, …) so that a
 * change of load during the run falls on each of them alike.
 *
 * Run: npm run bench:verify [-- --runs 10] [--suite-runs 3] [--suite core/edit,infra/fs] [--full] [--keep]
 *      [--wrapper-only]
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessCommandRunner, type Isolation } from '../src/infra/process/command-runner.js';
import { prepareIsolation } from '../src/infra/process/isolation.js';
import { checkFlags, median } from './stats.js';
import { printWrapperOverhead } from './wrapper-overhead.js';

const USAGE =
  'npm run bench:verify [-- --runs 10] [--suite-runs 3] [--suite core/edit,infra/fs] [--full] [--keep] [--wrapper-only]';

interface Options {
  runs: number;
  suiteRuns: number;
  /** Test-file filters for scripts/run-tests.mjs; empty with --full (every test). */
  suite: string[];
  full: boolean;
  keep: boolean;
  /** Only the wrapper's cost per command, per mechanism (no aide runs, no suite). */
  wrapperOnly: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const raw = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at === -1 ? process.env[`BENCH_${name.toUpperCase().replace('-', '_')}`] : argv[at + 1];
  };
  const count = (name: string, fallback: number) => {
    const text = raw(name);
    const parsed = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(parsed) || parsed <= 0)
      throw new Error(`--${name} needs a positive whole number, got ${text ?? ''}`);
    return parsed;
  };
  const full = argv.includes('--full');
  const suite = full ? [] : (raw('suite') ?? 'core/edit').split(',').filter((f) => f !== '');
  return {
    runs: count('runs', 10),
    suiteRuns: count('suite-runs', 3),
    suite,
    full,
    keep: argv.includes('--keep'),
    wrapperOnly: argv.includes('--wrapper-only'),
  };
}

type Env = Record<string, string>;

/** What direct runs and aide get alike: no user config, no credentials, no AIDE_* settings. */
function cleanEnv(home: string): Env {
  const tmp = process.env['TMPDIR'];
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C',
    ...(tmp === undefined ? {} : { TMPDIR: tmp }),
  };
}

function git(cwd: string, env: Env, args: string[]): void {
  const result = spawnSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args],
    { cwd, env: { ...env, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
}

interface Exit {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Wall time from spawn until the process exited and closed its output (read, as aide reads it). */
function timedSpawn(argv: readonly string[], cwd: string, env: Env): Promise<Exit> {
  const [program = '', ...args] = argv;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(program, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({
        ms: performance.now() - started,
        code,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      });
    });
  });
}

/** The fields of `aide verify --json` read here. */
interface VerifyJson {
  isolation: { mechanism: string };
  commands: {
    status: string;
    exitCode: number | null;
    durationMs: number;
    tail: string;
    logPath: string | null;
    tests: { passed: number; failed: number } | null;
  }[];
}

interface AideRun {
  totalMs: number;
  /** The report's commands[0].durationMs (whole ms): spawn, wrapper included, until the output closed. */
  commandMs: number;
  mechanism: string;
  exitCode: number | null;
  status: string;
  tail: string;
  logPath: string | null;
  /** "92 passed, 0 failed", as tapCounts() has it; '' when aide counted no tests. */
  tests: string;
}

type Variant = 'isolated' | 'unconfined';

const BIN = fileURLToPath(new URL('../bundle/aide.js', import.meta.url));

async function runAide(repo: string, env: Env, command: string, variant: Variant): Promise<AideRun> {
  const argv = [
    process.execPath,
    BIN,
    'verify',
    '--json',
    '--commands',
    command,
    ...(variant === 'unconfined' ? ['--no-isolation'] : []),
  ];
  const run = await timedSpawn(argv, repo, env);
  let report: VerifyJson;
  try {
    report = JSON.parse(run.stdout) as VerifyJson;
  } catch {
    throw new Error(`aide verify exited ${run.code ?? 'on a signal'} without a JSON report:\n${run.stderr}`);
  }
  const first = report.commands[0];
  if (first === undefined) throw new Error(`aide verify ran no command: ${run.stdout}`);
  const tests = first.tests === null ? '' : `${first.tests.passed} passed, ${first.tests.failed} failed`;
  return {
    totalMs: run.ms,
    commandMs: first.durationMs,
    mechanism: report.isolation.mechanism,
    exitCode: first.exitCode,
    status: first.status,
    tail: first.tail,
    logPath: first.logPath,
    tests,
  };
}

interface Measured {
  direct: number[];
  aide: Map<Variant, AideRun[]>;
  /** The first direct run, the one the aide runs are checked against. */
  directExit: Exit | undefined;
  /** The aide run `check` refused, and why; measuring stopped there. */
  refused?: { variant: Variant; run: AideRun; reason: string };
}

/** Why an aide run does not count (it did not end as the direct run did), or null. */
type Check = (direct: Exit, run: AideRun) => string | null;

/**
 * `runs` interleaved rounds of: direct, then aide in each variant, after `warmup` untimed rounds.
 * Stops at the first aide run `check` refuses (a full suite takes minutes a run).
 */
async function measure(
  runs: number,
  warmup: number,
  variants: readonly Variant[],
  direct: () => Promise<Exit>,
  aide: (variant: Variant) => Promise<AideRun>,
  check: Check,
): Promise<Measured> {
  const measured: Measured = {
    direct: [],
    aide: new Map(variants.map((v) => [v, []])),
    directExit: undefined,
  };
  for (let run = -warmup; run < runs; run++) {
    const exit = await direct();
    const first = (measured.directExit ??= exit);
    if (run >= 0) measured.direct.push(exit.ms);
    for (const variant of variants) {
      const result = await aide(variant);
      const reason = check(first, result);
      if (reason !== null) {
        measured.refused = { variant, run: result, reason };
        return measured;
      }
      if (run >= 0) measured.aide.get(variant)?.push(result);
    }
  }
  return measured;
}

interface Row {
  name: string;
  ms: number;
  /** × direct; false for the setup rows (an absolute cost, not a multiple of the command). */
  ratio: boolean;
  goal?: string;
  verdict?: string;
}

const GOAL = 1.1;

function printTable(title: string, rows: readonly Row[], floor: number): void {
  const cells = [
    ['measure', 'ms', '× direct', 'goal', ''],
    ...rows.map((r) => [
      r.name,
      r.ms.toFixed(r.ms < 100 ? 1 : 0),
      r.ratio ? (r.ms / floor).toFixed(2) : '',
      r.goal ?? '',
      r.verdict ?? '',
    ]),
  ];
  const widths = (cells[0] ?? []).map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
  console.log(`\n${title}`);
  for (const [n, row] of cells.entries()) {
    console.log(
      row
        .map((cell, c) => (c === 1 || c === 2 ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0)))
        .join('  ')
        .trimEnd(),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

const LABEL: Record<Variant, string> = { isolated: 'isolated', unconfined: '--no-isolation' };

/** Rows for one variant, and its verdict line: command-time ratio against the goal. */
function aideRows(
  variant: Variant,
  runs: readonly AideRun[],
  direct: number,
  verdicts: string[],
  workload: string,
): Row[] {
  const command = median(runs.map((r) => r.commandMs));
  const total = median(runs.map((r) => r.totalMs));
  const setup = median(runs.map((r) => r.totalMs - r.commandMs));
  const mechanism = runs[0]?.mechanism ?? '?';
  const met = command <= GOAL * direct ? 'met' : 'not met';
  verdicts.push(
    `${workload}, ${LABEL[variant]} (${mechanism}): command time ${(command / direct).toFixed(2)}× direct, goal ≤ ${GOAL}×: ${met}`,
  );
  return [
    {
      name: `aide command time, ${LABEL[variant]} (${mechanism})`,
      ms: command,
      ratio: true,
      goal: `≤ ${GOAL}×`,
      verdict: met,
    },
    { name: `aide total, ${LABEL[variant]}`, ms: total, ratio: true },
    { name: '  setup (total − command time)', ms: setup, ratio: false },
  ];
}

const TRIVIAL: { name: string; argv: string[] }[] = [
  { name: 'true', argv: ['true'] },
  { name: 'node', argv: [process.execPath, '-e', '0'] },
];

function makeTrivialRepo(repo: string, env: Env): void {
  mkdirSync(join(repo, '.aide'), { recursive: true });
  const commands = TRIVIAL.map((c) => ({ name: c.name, run: c.argv }));
  writeFileSync(
    join(repo, '.aide/sandbox.json'),
    `${JSON.stringify({ commands, flake_reruns: 0, link: [] }, null, 2)}\n`,
  );
  writeFileSync(join(repo, 'README.md'), '# bench\n');
  git(repo, env, ['init', '-q', '-b', 'main']);
  git(repo, env, ['add', '-A']);
  git(repo, env, ['commit', '-q', '-m', 'bench']);
}

/** Where the time of a trivial isolated command goes, measured outside aide. */
async function breakdown(
  runs: number,
  repo: string,
  root: string,
  env: Env,
  argv: readonly string[],
): Promise<Row[]> {
  const probeStarted = performance.now();
  const isolation = await prepareIsolation({ allowNetwork: false, readOnlyPaths: [repo], env });
  const probeMs = performance.now() - probeStarted;
  const unconfined: Isolation = { report: { ...isolation.report, mechanism: 'none' }, wrap: (a) => [...a] };
  const runner = new ProcessCommandRunner({ isolation: unconfined });
  const inProcess: number[] = [];
  const wrapped: number[] = [];
  for (let run = -1; run < runs; run++) {
    const started = performance.now();
    const result = await runner.run({
      name: 'bench',
      run: argv,
      cwd: repo,
      env,
      timeoutMs: 60_000,
      logFile: join(root, 'logs', 'runner.log'),
      maxLogBytes: 1 << 20,
      tailBytes: 2048,
    });
    const runnerMs = performance.now() - started;
    if (result.exitCode !== 0)
      throw new Error(`the runner ran ${argv.join(' ')}: exit ${result.exitCode ?? result.signal ?? '?'}`);
    const wrappedRun = await timedSpawn(isolation.wrap(argv, repo), repo, isolation.environment(env));
    if (wrappedRun.code !== 0)
      throw new Error(
        `the isolation wrapper exited ${wrappedRun.code ?? 'on a signal'}: ${wrappedRun.stderr}`,
      );
    if (run >= 0) {
      inProcess.push(runnerMs);
      wrapped.push(wrappedRun.ms);
    }
  }
  const rows: Row[] = [
    { name: '  where it goes: runner in-process, no isolation (warm)', ms: median(inProcess), ratio: true },
    {
      name: `  where it goes: ${isolation.report.mechanism} wrapper spawned directly`,
      ms: median(wrapped),
      ratio: true,
    },
    { name: '  where it goes: isolation probe (once per aide run, in setup)', ms: probeMs, ratio: false },
  ];
  // The wrapped runs above had a private folder made for them (HOME, TMPDIR).
  isolation.dispose();
  return rows;
}

async function trivial(options: Options, root: string, env: Env, verdicts: string[]): Promise<void> {
  const repo = join(root, 'trivial');
  makeTrivialRepo(repo, env);
  for (const command of TRIVIAL) {
    const variants: Variant[] = ['isolated', 'unconfined'];
    const measured = await measure(
      options.runs,
      1,
      variants,
      () => timedSpawn(command.argv, repo, env),
      (variant) => runAide(repo, env, command.name, variant),
      (direct, run) =>
        direct.code === 0 && run.status === 'passed'
          ? null
          : `exit ${direct.code ?? '?'} directly, ${run.status} under aide`,
    );
    if (measured.refused !== undefined)
      throw new Error(
        `${command.argv.join(' ')} (${LABEL[measured.refused.variant]}): ${measured.refused.reason}\n${measured.refused.run.tail}`,
      );
    const direct = median(measured.direct);
    const rows: Row[] = [{ name: 'direct spawn', ms: direct, ratio: true }];
    for (const variant of variants)
      rows.push(
        ...aideRows(
          variant,
          measured.aide.get(variant) ?? [],
          direct,
          verdicts,
          `\`${command.argv.join(' ')}\``,
        ),
      );
    if (command.name === 'true') rows.push(...(await breakdown(options.runs, repo, root, env, command.argv)));
    printTable(`\`${command.argv.join(' ')}\`, median of ${options.runs} runs`, rows, direct);
  }
}

/** node:test's summary: "92 passed, 0 failed", or '' when none was printed. */
function tapCounts(output: string): string {
  const count = (name: string) => new RegExp(`^# ${name} (\\d+)$`, 'm').exec(output)?.[1];
  const passed = count('pass');
  return passed === undefined ? '' : `${passed} passed, ${count('fail') ?? '?'} failed`;
}

/** A clone of this repository with node_modules and the built dist linked in (dist is not in git). */
function makeSuiteRepo(clone: string, options: Options, env: Env): string[] {
  const source = fileURLToPath(new URL('../..', import.meta.url));
  git(tmpdir(), env, ['clone', '--quiet', source, clone]);
  symlinkSync(realpathSync(join(source, 'node_modules')), join(clone, 'node_modules'));
  symlinkSync(join(source, 'dist'), join(clone, 'dist'));
  // .gitignore has `dist/`, which does not match a symlink: keep the link out of the snapshot.
  writeFileSync(join(clone, '.git/info/exclude'), '/dist\n');
  const argv = [process.execPath, 'scripts/run-tests.mjs', ...options.suite];
  const timeout = options.full ? 60 * 60_000 : 10 * 60_000;
  const sandbox = {
    commands: [{ name: 'suite', run: argv }],
    link: ['node_modules', 'dist'],
    flake_reruns: 0,
    timeout_ms: timeout,
    total_timeout_ms: timeout,
  };
  writeFileSync(join(clone, '.aide/sandbox.json'), `${JSON.stringify(sandbox, null, 2)}\n`);
  return argv;
}

/** Top-level tests that failed in node:test's TAP output. */
function notOk(output: string): string[] {
  return [...output.matchAll(/^not ok \d+ - (.*)$/gm)].map((m) => m[1] ?? '');
}

/** The tests a run failed that passed directly, from its log; else the end of its output. */
function failedTests(run: AideRun, direct: Exit | undefined): string {
  let log = run.tail;
  try {
    if (run.logPath !== null) log = readFileSync(run.logPath, 'utf8');
  } catch {
    // the tail will do
  }
  const failedDirectly = new Set(notOk(direct?.stdout ?? ''));
  const names = notOk(log).filter((name) => !failedDirectly.has(name));
  return names.length > 0
    ? names.map((name) => `  - ${name}`).join('\n')
    : log.split('\n').slice(-12).join('\n');
}

async function suite(options: Options, root: string, env: Env, verdicts: string[]): Promise<void> {
  const clone = join(root, 'aide');
  const argv = makeSuiteRepo(clone, options, env);
  const shown = `node scripts/run-tests.mjs${options.full ? '' : ` ${options.suite.join(' ')}`}`;
  // aide's test counter reads the same TAP summary: a run counts when it ends as the direct one.
  const ended = (code: number | null, tests: string) =>
    `exit ${code ?? 'on a signal'}${tests === '' ? '' : `, ${tests}`}`;
  const check: Check = (direct, run) => {
    const expected = ended(direct.code, tapCounts(direct.stdout));
    const got = ended(run.exitCode, tapCounts(direct.stdout) === '' ? '' : run.tests);
    return got === expected ? null : `ended with ${got} where the direct run ended with ${expected}`;
  };
  // A warm-up round warms the page cache for a subset; the full suite takes minutes, so no need.
  const warmup = options.full ? 0 : 1;
  const measureWith = (variant: Variant) =>
    measure(
      options.suiteRuns,
      warmup,
      [variant],
      () => timedSpawn(argv, clone, env),
      (v) => runAide(clone, env, 'suite', v),
      check,
    );
  const notes: string[] = [];
  // Seen with --full: aide's e2e tests of `aide verify` (test/e2e/verify*) fail isolated: inside the
  // sandbox (capabilities dropped by setpriv) a nested unshare cannot write /proc/self/uid_map,
  // so the nested aide finds no isolation and refuses (exit 2).
  let variant: Variant = 'isolated';
  let measured = await measureWith(variant);
  if (measured.refused !== undefined) {
    const { run, reason } = measured.refused;
    notes.push(
      `note: isolated, the suite ${reason}, so it was measured with --no-isolation (log: ${run.logPath ?? 'none'}; --keep keeps it). Failing only isolated:\n${failedTests(run, measured.directExit)}`,
    );
    variant = 'unconfined';
    measured = await measureWith(variant);
  }
  if (measured.refused !== undefined)
    throw new Error(
      `the suite under aide (${LABEL[variant]}) ${measured.refused.reason}:\n${measured.refused.run.tail}`,
    );
  const directExit = measured.directExit;
  if (directExit === undefined) throw new Error('the suite did not run');
  const directTests = tapCounts(directExit.stdout);
  if (directExit.code !== 0)
    notes.push(
      `note: the suite fails when run directly too (${ended(directExit.code, directTests)}); under aide it ends the same way`,
    );
  const direct = median(measured.direct);
  const rows: Row[] = [
    { name: `direct run (${directTests || `exit ${directExit.code ?? '?'}`})`, ms: direct, ratio: true },
    ...aideRows(
      variant,
      measured.aide.get(variant) ?? [],
      direct,
      verdicts,
      `test suite (${options.full ? 'full' : options.suite.join(', ')})`,
    ),
  ];
  printTable(
    `test suite: \`${shown}\` in a clone of this repository, median of ${options.suiteRuns} runs`,
    rows,
    direct,
  );
  for (const note of notes) console.log(note);
}

async function main(): Promise<void> {
  checkFlags(process.argv.slice(2), USAGE);
  const options = parseOptions(process.argv.slice(2));
  const root = mkdtempSync(join(tmpdir(), 'aide-bench-verify-'));
  const home = join(root, 'home');
  mkdirSync(home);
  const env = cleanEnv(home);
  const verdicts: string[] = [];
  try {
    console.log(
      `aide verify benchmark: node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    if (!options.wrapperOnly) await trivial(options, root, env, verdicts);
    const repo = join(root, 'wrapper');
    makeTrivialRepo(repo, env);
    // A wrapped `true` takes milliseconds: more rounds than aide runs, for a steadier median.
    await printWrapperOverhead(Math.max(30, options.runs * 3), ['true'], repo, repo, env);
    if (options.wrapperOnly) return;
    await suite(options, root, env, verdicts);
    console.log(`\ngoal: aide's command time ≤ ${GOAL}× the direct run (scratch setup comes on top)`);
    for (const line of verdicts) console.log(`  ${line}`);
    console.log(
      `\nload average after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    if (options.keep) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
