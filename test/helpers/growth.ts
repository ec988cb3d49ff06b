/**
 * Linear-time checks that machine load cannot fail. A bound in milliseconds ("under 5 s") guards
 * against catastrophic backtracking, but on a loaded 2-core machine a linear scan can take that
 * long too (CI at load 12 did). Here the same work runs at two sizes, side by side, and only
 * the ratio of the CPU time they take counts. From one size to the other linear work grows 8×,
 * quadratic 64×, exponential without bound; the check allows 24× (allocation and the garbage
 * collector make a linear scan of many strings grow by up to ~12× here).
 */
import assert from 'node:assert/strict';

/**
 * Fastest of a few CPU timings of `run`, in milliseconds. CPU time, not wall time: on a busy
 * machine a run of 40 ms is preempted every time while one of 3 ms often fits in one time slice,
 * so wall-clock ratios grew with the load (65× at load 7 for linear work). What the process
 * itself spent is what the work costs.
 */
function fastest(run: () => void, rounds: number): number {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const started = process.cpuUsage();
    run();
    const spent = process.cpuUsage(started);
    best = Math.min(best, (spent.user + spent.system) / 1000);
  }
  return best;
}

/**
 * Asserts that `prepare(8)`'s work takes less than 24× `prepare(1)`'s (8× is linear, 64×
 * quadratic). `prepare(scale)` builds the input outside the timing and returns the work. Size
 * it so that scale 1 takes a few milliseconds: timer noise decides below that, and when even
 * scale 8 takes under 10 ms nothing is asserted (no blow-up fits in it).
 */
export function assertLinear(label: string, prepare: (scale: 1 | 8) => () => void): void {
  const small = prepare(1);
  const large = prepare(8);
  small(); // compiled and warm before anything is timed
  const largeMs = fastest(large, 3);
  if (largeMs < 10) return;
  const ratio = largeMs / fastest(small, 3);
  assert.ok(ratio < 24, `${label}: 8× the input took ${ratio.toFixed(1)}× the time (linear is 8×)`);
}
