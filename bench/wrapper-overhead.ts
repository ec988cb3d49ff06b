/**
 * The fixed cost of the isolation wrapper per command, for each mechanism that works here: a
 * trivial command spawned bare and through each wrapper, in interleaved rounds (bare, bwrap,
 * unshare, bare, …) so a change of load falls on each alike. Wall clock as a median with its
 * range, and CPU time (user + system of the spawned processes, every program the wrapper starts
 * included) as a mean, read from this process's children's times in /proc/self/stat: the
 * wrappers' cost is mostly CPU (program starts, namespace set-up), which the wall clock of a
 * loaded machine hides.
 *
 * Program starts per command, for `true` confined with the network off: bwrap 1 (bwrap itself);
 * unshare 7 (unshare, sh, mount, pivot_root, umount, ip, setpriv), each before the command.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { prepareIsolation } from '../src/infra/process/isolation.js';
import { median } from './stats.js';

type Env = Record<string, string>;

const MECHANISMS = ['bwrap', 'unshare'] as const;

/** User + system time of this process's reaped children so far, in ms (clock ticks of 10 ms, summed). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  // Fields 16 and 17 of stat (cutime, cstime); the text after "(comm) " starts at field 3.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

interface Timed {
  wallMs: number;
  cpuMs: number;
}

function timed(argv: readonly string[], cwd: string, env: Env): Promise<Timed> {
  const [program = '', ...args] = argv;
  return new Promise((resolve, reject) => {
    const cpu = childrenCpuMs();
    const started = performance.now();
    const child = spawn(program, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited ${code ?? 'on a signal'}: ${stderr}`));
      else resolve({ wallMs, cpuMs: childrenCpuMs() - cpu });
    });
  });
}

interface Case {
  name: string;
  argv: string[];
  env: Env;
  runs: Timed[];
  dispose: () => void;
}

/**
 * Prints, for `argv` in `cwd`, bare and under each mechanism that works: wall median (min–max),
 * × bare, the wall and CPU it adds. `readOnly` is the workspace the wrappers keep read-only.
 */
export async function printWrapperOverhead(
  runs: number,
  argv: readonly string[],
  cwd: string,
  readOnly: string,
  env: Env,
): Promise<void> {
  const cases: Case[] = [{ name: 'bare spawn', argv: [...argv], env, runs: [], dispose: () => undefined }];
  const skipped: string[] = [];
  for (const mechanism of MECHANISMS) {
    const isolation = await prepareIsolation({
      allowNetwork: false,
      readOnlyPaths: [readOnly],
      env,
      force: mechanism,
    });
    if (isolation.report.mechanism === 'none') {
      skipped.push(`${mechanism}: ${isolation.report.detail ?? 'unavailable'}`);
      isolation.dispose();
      continue;
    }
    cases.push({
      name: `${mechanism} wrapper`,
      argv: isolation.wrap(argv, cwd),
      env: isolation.environment(env),
      runs: [],
      dispose: () => {
        isolation.dispose();
      },
    });
  }
  try {
    for (let round = -2; round < runs; round++)
      for (const c of cases) {
        const run = await timed(c.argv, cwd, c.env);
        if (round >= 0) c.runs.push(run);
      }
  } finally {
    for (const c of cases) c.dispose();
  }
  const wall = (c: Case) => median(c.runs.map((r) => r.wallMs));
  const cpu = (c: Case) => c.runs.reduce((sum, r) => sum + r.cpuMs, 0) / c.runs.length;
  const bare = cases[0];
  if (bare === undefined) return;
  const rows = [
    ['', 'wall ms', 'min–max', '× bare', '+ wall ms', 'CPU ms', '+ CPU ms'],
    ...cases.map((c) => [
      c.name,
      wall(c).toFixed(1),
      `${Math.min(...c.runs.map((r) => r.wallMs)).toFixed(1)}–${Math.max(...c.runs.map((r) => r.wallMs)).toFixed(1)}`,
      (wall(c) / wall(bare)).toFixed(2),
      c === bare ? '' : (wall(c) - wall(bare)).toFixed(1),
      cpu(c).toFixed(1),
      c === bare ? '' : (cpu(c) - cpu(bare)).toFixed(1),
    ]),
  ];
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  console.log(
    `\nisolation wrapper per command: \`${argv.join(' ')}\` spawned bare and through each wrapper, network off, file system confined; ${runs} interleaved rounds, wall median, CPU mean (the wrapper's programs included)`,
  );
  for (const [n, row] of rows.entries()) {
    console.log(
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  for (const line of skipped) console.log(`  not measured: ${line}`);
}
