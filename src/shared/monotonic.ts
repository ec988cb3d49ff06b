/**
 * Milliseconds on a monotonic clock, as `performance.now()` counts them but from an arbitrary
 * origin. The first read of the `performance` global loads node's perf_hooks (eleven internal
 * modules, about 2 ms of a start); process.hrtime is already loaded. Use it for durations and
 * deadlines only: its origin is not the process start.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
