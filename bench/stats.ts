/** What the benches share: the median of their runs, and the `--runs N` / `--keep` options. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
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
