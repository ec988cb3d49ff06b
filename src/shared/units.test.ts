import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytes, formatDuration } from './units.js';

test('durations: tenths of a second below 10 s, whole seconds from there', () => {
  assert.equal(formatDuration(0), '0.0 s');
  assert.equal(formatDuration(812), '0.8 s');
  assert.equal(formatDuration(9_949), '9.9 s');
  assert.equal(formatDuration(10_000), '10 s');
  assert.equal(formatDuration(120_400), '120 s');
});

test('sizes: bytes, then binary units named KiB, MiB, GiB, TiB, one decimal below 10', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(1023), '1023 B');
  assert.equal(formatBytes(1024), '1.0 KiB');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(42 * 1024 * 1024), '42 MiB');
  assert.equal(formatBytes(3.25 * 1024 ** 3), '3.3 GiB');
  assert.equal(formatBytes(2048 * 1024 ** 4), '2048 TiB');
});
