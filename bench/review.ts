/**
 * `aide review` benchmark: a static-only review (`AIDE_SKIP=verify,model`) of a 10-file staged
 * change, as a ratio to what a hook costs at the least — `git diff --cached --stat` plus a bare
 * `node -e 0` — both measured in the same run, on the same repository.
 *
 * Goal (from the issue): at most 2× that sum.
 *
 * Then the verify part: the same review with its verify check on (`AIDE_SKIP=model`, one
 * sandbox.json command that computes for about half a second), less the static-only review, as a
 * ratio to that command run directly in the repository. The part holds what verify adds in a
 * hook: the scratch copy of the staged tree, the isolation wrapper and the command. Goal: at most
 * 1.1× the command. The three are taken in the same round and the ratio is worked out per round
 * (paired), its median and range reported: the command alone varies by 2× under load, and a
 * difference of two medians taken from different rounds moved the ratio by as much as the
 * overhead it measures. The part's own cost is also measured with `true` as the command (the
 * same review of a second, identical repository), paired with the static review of the round,
 * and given with the command's median added: that figure is the steadier of the two.
 *
 * Wall clock, not CPU time: the review's work is mostly git processes (the staged tree written in
 * the shadow, the diff, the blobs), which a process's own resourceUsage() does not count. The
 * cases are interleaved (node, git diff, review, node, …) so a change of load falls on each alike;
 * the load average is printed with the figures.
 *
 * `--bin <path to an aide entry point>` adds the static review of another build (e.g. the one before
 * a change), interleaved with this build's, so an A/B of a few milliseconds is read off one run.
 * aide's code cache goes to the bench's temp folder (XDG_CACHE_HOME), not the user's. The rest of
 * the environment is the user's, NODE_EXTRA_CA_CERTS included: it slows every node start alike,
 * `node -e 0` as much as aide.
 *
 * Run: npm run bench:review [-- --runs 15] [--keep] [--bin other/dist/bundle/aide.js]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFlags, median, runsAndKeep, spread } from './stats.js';

const USAGE = 'npm run bench:review [-- --runs 15] [--keep] [--bin other/dist/bundle/aide.js]';

const BIN = fileURLToPath(new URL('../bundle/aide.js', import.meta.url));
const GOAL = 2;
const VERIFY_GOAL = 1.1;
/** The verify command: CPU work of about half a second, the same every run. */
const COMMAND = 'node -e "let x = 0; for (let i = 0; i < 4e8; i++) x += i % 7; if (x < 0) process.exit(1)"';

/** Where the runs keep aide's code cache: the bench's own folder, set once the folder is made. */
let cacheHome: string | undefined;

function run(command: string, args: readonly string[], cwd: string, skip = 'verify,model'): void {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      ...(cacheHome === undefined ? {} : { XDG_CACHE_HOME: cacheHome }),
      NO_COLOR: '1',
      AIDE_SKIP: skip,
    },
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
}

/** A repository of 200 small files with 10 of them changed and staged (a typical commit), verified by `command`. */
function makeRepo(root: string, name: string, command: string): string {
  const repo = join(root, name);
  mkdirSync(join(repo, 'src'), { recursive: true });
  run('git', ['init', '-q'], repo);
  const source = (i: number, version: number) =>
    Array.from({ length: 60 }, (_, line) => `export const v${i}_${line} = ${version * 1000 + line};`).join(
      '\n',
    );
  for (let i = 0; i < 200; i++) writeFileSync(join(repo, 'src', `m${i}.ts`), `${source(i, 1)}\n`);
  run('git', ['add', '.'], repo);
  run('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'base'], repo);
  run(process.execPath, [BIN, 'init'], repo);
  writeFileSync(
    join(repo, '.aide', 'sandbox.json'),
    `${JSON.stringify({ commands: [{ name: 'compute', run: command }] }, null, 2)}\n`,
  );
  for (let i = 0; i < 10; i++) writeFileSync(join(repo, 'src', `m${i * 20}.ts`), `${source(i * 20, 2)}\n`);
  run('git', ['add', 'src'], repo);
  return repo;
}

function timeMs(command: string, args: readonly string[], cwd: string, skip?: string): number {
  const started = performance.now();
  run(command, args, cwd, skip);
  return performance.now() - started;
}

/** One round's verify part: its ratio to the command, and the milliseconds beyond the command. */
interface VerifyPart {
  ratio: number;
  extraMs: number;
}

/** Per round: (review with verify − static review) against the command run in that same round. */
function pairedVerifyParts(
  review: readonly number[],
  command: readonly number[],
  withVerify: readonly number[],
): VerifyPart[] {
  return withVerify.map((total, round) => {
    const part = total - (review[round] ?? Number.NaN);
    const alone = command[round] ?? Number.NaN;
    return { ratio: part / alone, extraMs: part - alone };
  });
}

function main(): void {
  checkFlags(process.argv.slice(2), USAGE);
  const argv = process.argv.slice(2);
  const { runs, keep } = runsAndKeep(argv);
  const binAt = argv.indexOf('--bin');
  const other = binAt === -1 ? undefined : resolve(argv[binAt + 1] ?? '');
  if (other !== undefined && !existsSync(other)) throw new Error(`--bin: ${other} does not exist`);
  const root = mkdtempSync(join(tmpdir(), 'aide-bench-review-'));
  cacheHome = join(root, 'cache');
  try {
    const repo = makeRepo(root, 'repo', COMMAND);
    // The same repository verified by `true`: what the verify part costs besides the command.
    const trivial = makeRepo(root, 'repo-true', 'true');
    const review = [BIN, 'review', '--staged'];
    const cases: Array<{ name: string; command: string; args: string[]; skip?: string; cwd?: string }> = [
      { name: 'node -e 0', command: process.execPath, args: ['-e', '0'] },
      { name: 'git diff --cached --stat', command: 'git', args: ['diff', '--cached', '--stat'] },
      { name: 'aide review --staged', command: process.execPath, args: review },
      { name: 'the verify command', command: 'sh', args: ['-c', COMMAND] },
      { name: 'review, verify check on', command: process.execPath, args: review, skip: 'model' },
      {
        name: 'review, verifying `true`',
        command: process.execPath,
        args: review,
        skip: 'model',
        cwd: trivial,
      },
      ...(other === undefined
        ? []
        : [{ name: 'review, --bin build', command: process.execPath, args: [other, 'review', '--staged'] }]),
    ];
    const times = cases.map(() => [] as number[]);
    // One untimed round: the page cache, the shadow repository and git's files warm up.
    for (const c of cases) timeMs(c.command, c.args, c.cwd ?? repo, c.skip);
    for (let round = 0; round < runs; round++)
      cases.forEach((c, i) => times[i]?.push(timeMs(c.command, c.args, c.cwd ?? repo, c.skip)));
    const medians = times.map(median);
    const base = (medians[0] ?? Number.NaN) + (medians[1] ?? Number.NaN);
    const [load1] = loadavg();
    console.log(
      `\naide review of 10 staged files of 200; wall clock, median of ${runs} runs ` +
        `(load ${load1?.toFixed(2)} on ${availableParallelism()} cores)\n`,
    );
    console.log(`${'case'.padEnd(26)} ${'median'.padStart(9)} ${'min–max'.padStart(15)}`);
    cases.forEach((c, i) => {
      const values = times[i] ?? [];
      const range = `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
      console.log(
        `${c.name.padEnd(26)} ${`${(medians[i] ?? 0).toFixed(1)} ms`.padStart(9)} ${`${range} ms`.padStart(15)}`,
      );
    });
    const ratio = (medians[2] ?? Number.NaN) / base;
    console.log(
      `\nreview / (git diff --cached --stat + node -e 0) = ${ratio.toFixed(2)}×  goal ≤ ${GOAL}× ${ratio <= GOAL ? 'met' : 'NOT met'}`,
    );
    if (other !== undefined) {
      const otherRatio = (medians[6] ?? Number.NaN) / base;
      const paired = spread((times[6] ?? []).map((ms, round) => ms - (times[2]?.[round] ?? Number.NaN)));
      console.log(
        `  --bin build: ${otherRatio.toFixed(2)}× (${other}); it − this build, paired per round: ` +
          `${paired.median.toFixed(1)} ms median (${paired.min.toFixed(1)}–${paired.max.toFixed(1)} ms)`,
      );
    }
    const parts = pairedVerifyParts(times[2] ?? [], times[3] ?? [], times[4] ?? []);
    const ratios = spread(parts.map((p) => p.ratio));
    const extra = spread(parts.map((p) => p.extraMs));
    console.log(
      `verify part (review with verify − static review) / the command, paired per round = ` +
        `${ratios.median.toFixed(2)}× (${ratios.min.toFixed(2)}–${ratios.max.toFixed(2)}×)  ` +
        `goal ≤ ${VERIFY_GOAL}× ${ratios.median <= VERIFY_GOAL ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  beyond the command: ${extra.median.toFixed(0)} ms median (${extra.min.toFixed(0)}–${extra.max.toFixed(0)} ms)`,
    );
    // Without the half-second command in it the part's own cost is far less noisy: the scratch,
    // its git processes and the wrapper, paired with the static review of the same round.
    const own = spread((times[5] ?? []).map((total, round) => total - (times[2]?.[round] ?? Number.NaN)));
    const command = medians[3] ?? Number.NaN;
    console.log(
      `  the part without the command (review verifying \`true\` − static review, paired): ` +
        `${own.median.toFixed(0)} ms median (${own.min.toFixed(0)}–${own.max.toFixed(0)} ms), ` +
        `${((command + own.median) / command).toFixed(2)}× with the command's median`,
    );
  } finally {
    if (keep) console.log(`\nkept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

main();
