/**
 * Act benchmark: `aide act --yes` of a 3-step plan of written edits (one SEARCH/REPLACE block
 * per step, no Run: commands, one trivial verify command) on
 * generated repositories of 3,000 and 30,000 files, each session run twice: the first (no
 * shadow, no scratch yet) and a later one. Per session it prints:
 *
 * - the time outside the steps: the whole process (node start, config, snapshot, scratch,
 *   clean-up) less the steps, and that less a bare `node -e 0` (the floor of any CLI);
 * - each step's own time: from its step_started to its step_finished event (read off `--json`
 *   as they arrive) less its verify command (`true`, verify_started to verify_finished): move,
 *   edits, capture, checkpoint and write-back. Step 1 apart: steps 2 and 3 start with the one
 *   full scan that the verify command before them makes necessary (it ran in the scratch).
 *
 * Goals (issue 16): later sessions on 30k files spend < 0.5 s outside the steps; aide's part of
 * a step ≤ 50 ms at 3k and at 30k files. Ratios are against `node -e 0` and `git status` on the
 * same repository, measured in the same run; the machine's load is printed before and after.
 *
 * Each session's CPU (user + system, of aide and every process it waited for, from GNU time) is
 * printed too: on a busy 2-core machine the wall clock of two builds' sessions moves by ±50 ms
 * between runs, their CPU by a few per cent, so it is the figure to compare builds by.
 *
 * `--bin <path to an aide entry point>` runs another build of aide (e.g. the one before a change) on the same
 * repositories, for before/after figures from one run.
 *
 * `--command-s 5` makes the verify command `sleep 5` instead of `true`, for the goal that aide's
 * overhead is under 5% of a step whose commands take 5 s: the "overhead" column is each step's
 * time less the command's nominal seconds, over the step's time (the sandbox's own start
 * counted as aide's).
 *
 * Run: npm run bench:act [-- --files 3000,30000] [--kb 1] [--runs 3] [--bin other/dist/bundle/aide.js] [--command-s 5] [--keep]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFlags, benchEnv, median } from './stats.js';

const USAGE =
  'npm run bench:act [-- --files 3000,30000] [--kb 1] [--runs 3] [--bin other/dist/bundle/aide.js] [--command-s 5] [--keep]';

interface Options {
  files: number[];
  kb: number;
  /** Pairs of sessions (first, later) per size; each pair on a fresh copy of the workspace state. */
  runs: number;
  bins: string[];
  keep: boolean;
  /** The verify command's seconds (`sleep`); 0: `true`. */
  commandS: number;
}

const OWN_BIN = fileURLToPath(new URL('../bundle/aide.js', import.meta.url));

function parseOptions(argv: readonly string[]): Options {
  const raw = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at === -1 ? undefined : argv[at + 1];
  };
  const files = (raw('files') ?? '3000,30000').split(',').map(Number);
  if (files.some((n) => !Number.isInteger(n) || n < 10)) throw new Error('--files needs counts ≥ 10');
  const other = raw('bin');
  return {
    files,
    kb: Number(raw('kb') ?? 1),
    runs: Number(raw('runs') ?? 3),
    bins: other === undefined ? [OWN_BIN] : [other, OWN_BIN],
    keep: argv.includes('--keep'),
    commandS: Number(raw('command-s') ?? 0),
  };
}

type Env = Record<string, string>;

function git(cwd: string, env: Env, args: string[]): void {
  const result = spawnSync('git', ['-c', 'gc.auto=0', ...args], { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
}

const STEP_FILES = [1, 2, 3];

function filePath(i: number): string {
  return `src/pkg${i % 40}/mod${Math.floor(i / 2000)}/file${i}.ts`;
}

/** A repository of `count` small source files, committed, with a sandbox.json of no commands. */
function generate(repo: string, env: Env, count: number, kb: number, commandS: number): void {
  const line = 'export const value = compute(index, state, config); // filler line\n';
  const body = line.repeat(Math.max(1, Math.round((kb * 1024) / line.length)));
  for (let i = 0; i < count; i++) {
    const path = join(repo, filePath(i));
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `// marker-${i}\n${body}`);
  }
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\ndist/\n');
  mkdirSync(join(repo, '.aide/plans'), { recursive: true });
  writeFileSync(
    join(repo, '.aide/sandbox.json'),
    `${JSON.stringify({ commands: [{ name: 'check', run: commandS > 0 ? ['sleep', String(commandS)] : ['true'] }] }, null, 2)}\n`,
  );
  git(repo, env, ['init', '-q', '-b', 'main']);
  git(repo, env, ['add', '-A']);
  git(repo, env, ['commit', '-q', '-m', 'generated']);
}

/** A plan of three steps, each one SEARCH/REPLACE block on its own file; `round` makes each session's edits new. */
function planText(round: number): string {
  const steps = STEP_FILES.map((i, n) => {
    const edit = `${filePath(i)}\n\`\`\`ts\n<<<<<<< SEARCH\n// marker-${i}\n=======\n// marker-${i}\n// session ${round}\n>>>>>>> REPLACE\n\`\`\`\n`;
    return `\n## Step ${n + 1}: Edit file ${i}\n\nMark the file.\n\n### Edits\n\n${edit}`;
  });
  return `---\naide_plan: 1\ntitle: Bench ${round}\ncreated: 2026-12-01T10:00:00.000Z\n---\n\nA benchmark plan.\n${steps.join('')}`;
}

interface Session {
  totalMs: number;
  /** User + system CPU of the aide process and every process it waited for (git, the sandbox, the command); NaN without /usr/bin/time. */
  cpuMs: number;
  /** Each step, step_started to step_finished. */
  stepsMs: number[];
  /** Each step's verify commands, verify_started to verify_finished (the runner, its isolation, `true`). */
  commandsMs: number[];
}

/** GNU time, for the CPU a session and its children used (wall clock moves by ±50 ms here between runs). */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

function cpuOf(file: string): number {
  const match = /^AIDE_CPU ([\d.]+) ([\d.]+)$/m.exec(existsSync(file) ? readFileSync(file, 'utf8') : '');
  return match === null ? Number.NaN : (Number(match[1]) + Number(match[2])) * 1000;
}

/** One `aide act --yes --json` with the step events timed as they arrive. */
function actSession(bin: string, repo: string, env: Env, cpuFile: string): Promise<Session> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const argv = [process.execPath, bin, '--json', 'act', '--yes'];
    rmSync(cpuFile, { force: true });
    const [program = '', ...args] =
      TIME === null ? argv : [TIME, '-f', 'AIDE_CPU %U %S', '-o', cpuFile, ...argv];
    const child = spawn(program, args, {
      cwd: repo,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stepStart = new Map<number, number>();
    const stepsMs: number[] = [];
    const commandsMs: number[] = [];
    let verifyStart = 0;
    let verifyMs = 0;
    let buffer = '';
    let out = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const now = performance.now();
      buffer += chunk;
      out += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const event = /"type":"(step_started|step_finished|verify_started|verify_finished)"/.exec(line)?.[1];
        const step = Number(/"(?:step|number)":(\d+)/.exec(line)?.[1] ?? NaN);
        if (event === 'step_started') stepStart.set(step, now);
        if (event === 'verify_started') verifyStart = now;
        if (event === 'verify_finished') verifyMs += now - verifyStart;
        if (event === 'step_finished') {
          stepsMs.push(now - (stepStart.get(step) ?? now));
          commandsMs.push(verifyMs);
          verifyMs = 0;
        }
        if (event === 'step_finished' && !/"status":"applied"/.test(line))
          stderr += `step not applied: ${line.slice(0, 300)}\n`;
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const totalMs = performance.now() - started;
      if (code !== 0 || stepsMs.length !== STEP_FILES.length)
        reject(
          new Error(
            `aide act exited ${code} with ${stepsMs.length} steps timed:\n${stderr}${buffer}${out.slice(-2000)}`,
          ),
        );
      else resolve({ totalMs, cpuMs: cpuOf(cpuFile), stepsMs, commandsMs });
    });
  });
}

function timed(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

function spread(values: readonly number[]): string {
  const f = (v: number) => v.toFixed(v < 100 ? 1 : 0);
  return `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main(): Promise<void> {
  checkFlags(process.argv.slice(2), USAGE);
  const options = parseOptions(process.argv.slice(2));
  const root = mkdtempSync(join(tmpdir(), 'aide-bench-act-'));
  console.log(
    `aide act benchmark: ${options.files.join(', ')} files of ~${options.kb} KB, ${options.runs} pairs of sessions, node ${process.version}, ${availableParallelism()} cores, load average ${load()}`,
  );
  try {
    for (const count of options.files) {
      const repo = join(root, `repo-${count}`);
      const home = join(root, `home-${count}`);
      const temp = join(root, `tmp-${count}`);
      for (const dir of [repo, home, temp]) mkdirSync(dir, { recursive: true });
      const env = benchEnv(home, temp);
      const setup = timed(() => {
        generate(repo, env, count, options.kb, options.commandS);
      });
      console.log(`\n${count} files: generated and committed in ${(setup / 1000).toFixed(1)} s`);
      const nodeFloor: number[] = [];
      const status: number[] = [];
      const rows: string[][] = [];
      for (const bin of options.bins) {
        const label = bin === OWN_BIN ? 'this build' : bin;
        const first: Session[] = [];
        const later: Session[] = [];
        let round = 0;
        for (let run = 0; run < options.runs; run++) {
          // A first session: no shadow, no scratch (both removed; the user's files as committed).
          rmSync(join(repo, '.aide/state'), { recursive: true, force: true });
          rmSync(temp, { recursive: true, force: true });
          mkdirSync(temp);
          for (const session of [first, later]) {
            writeFileSync(join(repo, '.aide/plans/plan.md'), planText(++round), { flag: 'w' });
            nodeFloor.push(timed(() => spawnSync(process.execPath, ['-e', '0'])));
            status.push(
              timed(() => {
                git(repo, env, ['--no-optional-locks', 'status', '--porcelain']);
              }),
            );
            session.push(await actSession(bin, repo, env, join(root, 'cpu.txt')));
          }
        }
        for (const [name, sessions] of [
          ['first session', first],
          ['later session', later],
        ] as const) {
          const outside = sessions.map((s) => s.totalMs - s.stepsMs.reduce((a, b) => a + b, 0));
          // aide's own part of a step: the step less its verify command.
          const own = (s: Session) => s.stepsMs.map((ms, i) => ms - (s.commandsMs[i] ?? 0));
          const steps = sessions.flatMap(own);
          const firstSteps = sessions.map((s) => own(s)[0] ?? Number.NaN);
          const laterSteps = sessions.flatMap((s) => own(s).slice(1));
          const commands = sessions.flatMap((s) => s.commandsMs);
          const commandMs = options.commandS * 1000;
          const overhead = sessions.flatMap((s) => s.stepsMs.map((ms) => (100 * (ms - commandMs)) / ms));
          const share =
            commandMs > 0
              ? `; overhead ${spread(overhead)} % of a step (< 5%: ${median(overhead) < 5 ? 'met' : 'MISSED'})`
              : '';
          rows.push([
            label,
            name,
            spread(sessions.map((s) => s.totalMs)),
            spread(sessions.map((s) => s.cpuMs)),
            spread(outside),
            spread(outside.map((o, i) => o - (nodeFloor[i] ?? 0))),
            spread(firstSteps),
            spread(laterSteps),
            spread(commands),
            name === 'later session'
              ? `outside < 500 ms: ${median(outside) < 500 ? 'met' : 'MISSED'}; step ≤ 50 ms: ${median(steps) <= 50 ? 'met' : 'MISSED'}${share}`
              : `step ≤ 50 ms: ${median(steps) <= 50 ? 'met' : 'MISSED'}${share}`,
          ]);
        }
      }
      console.log(
        `floors: node -e 0 ${spread(nodeFloor)} ms, git status ${spread(status)} ms (median (min–max))`,
      );
      printTable([
        [
          'build',
          'session',
          'total ms',
          'CPU ms',
          'outside steps ms',
          '  − node -e 0',
          'step 1 aide ms',
          'steps 2–3 aide ms',
          'verify cmd ms',
          'goals',
        ],
        ...rows,
      ]);
    }
    console.log(`\nload average after: ${load()}`);
  } finally {
    if (options.keep) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

function printTable(cells: readonly string[][]): void {
  const widths = (cells[0] ?? []).map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
  for (const [n, row] of cells.entries()) {
    console.log(
      row
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join('  ')
        .trimEnd(),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

await main();
