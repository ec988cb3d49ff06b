/**
 * How durations and sizes read for people: one formatter each, so every command says them the
 * same way. They live in shared/ rather than cli/render because core's own sentences use them
 * too (the verify verdict "timed out after 2.0 s", doctor's checks), and those sentences are
 * data: they go into --json, checkpoint messages and the session state.
 */

/** "0.8 s", "9.9 s", "12 s": tenths while they matter, then whole seconds. */
export function formatDuration(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

const BYTE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/**
 * "512 B", "1.5 KiB", "42 MiB": binary units, named as such (a KiB is 1024 bytes), with one
 * decimal below 10.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${BYTE_UNITS[unit] ?? 'TiB'}`;
}
