/** What the benches share: the median (and range) of their runs, and the `--runs N` / `--keep` options. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** A set of runs in one line's worth: their median and their range. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * `--help` prints the bench's usage line and exits 0; a flag the usage line does not name exits 2
 * before anything runs (a mistyped `--file 30000` would otherwise run minutes with the defaults).
 */
export function checkFlags(argv: readonly string[], usage: string): void {
  const known = new Set([...(usage.match(/--[a-z][a-z-]*/g) ?? []), '--help', '-h']);
  const unknown = argv.filter((arg) => arg.startsWith('-') && arg !== '--' && !known.has(arg));
  if (unknown.length > 0) {
    process.stderr.write(`unknown option ${unknown.join(', ')}\n${usage}\n`);
    process.exit(2);
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
}

/** `--runs N` (or BENCH_RUNS; 15 by default) and `--keep` (leave the temp folder for a look). */
export function runsAndKeep(argv: readonly string[]): { runs: number; keep: boolean } {
  const at = argv.indexOf('--runs');
  const text = at === -1 ? process.env['BENCH_RUNS'] : argv[at + 1];
  const runs = text === undefined ? 15 : Number(text);
  if (!Number.isInteger(runs) || runs <= 0)
    throw new Error(`--runs needs a positive whole number, got ${text}`);
  return { runs, keep: argv.includes('--keep') };
}

/**
 * The environment a bench runs git and aide in: its own HOME (and TMPDIR when given), no system
 * or user git config, a fixed identity, so the user's settings never change a figure.
 */
export function benchEnv(home: string, temp?: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    ...(temp === undefined ? {} : { TMPDIR: temp }),
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.invalid',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  };
}
