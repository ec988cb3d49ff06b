import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { discardTypeahead, keepSignalsFrom, type KeyboardInput } from './prompt-guard.js';

/** A terminal's stdin with `buffered` keys waiting: they arrive once it is resumed. */
function keyboard(buffered: string[]) {
  const events = new EventEmitter();
  const modes: boolean[] = [];
  let raw = false;
  const input: KeyboardInput = {
    isTTY: true,
    get isRaw() {
      return raw;
    },
    setRawMode(mode: boolean) {
      raw = mode;
      modes.push(mode);
    },
    on: (event, listener) => events.on(event, listener),
    off: (event, listener) => events.off(event, listener),
    resume() {
      setImmediate(() => {
        for (const key of buffered.splice(0)) events.emit('data', key);
      });
    },
    pause: () => undefined,
  };
  return { input, modes, later: (listener: (key: unknown) => void) => events.on('data', listener) };
}

test('keys typed ahead of a prompt are dropped, and the terminal mode is put back', async () => {
  const { input, modes, later } = keyboard(['\r', 'y']);
  await discardTypeahead(input);
  const seen: unknown[] = [];
  later((key) => seen.push(key));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(seen, [], 'nothing typed before the prompt reaches it');
  assert.deepEqual(modes, [true, false]);
});

test('not a terminal: nothing to drop, nothing touched', async () => {
  const { input, modes } = keyboard(['\r']);
  await discardTypeahead({ ...input, isTTY: false });
  assert.deepEqual(modes, []);
});

test("enquirer's own SIGINT and SIGTERM handlers go as soon as it makes its prompt; others stay", () => {
  const ours = () => undefined;
  const theirs = () => undefined;
  process.on('SIGINT', ours);
  try {
    const enquirer = new EventEmitter();
    keepSignalsFrom(enquirer);
    process.once('SIGINT', theirs);
    process.once('SIGTERM', theirs);
    enquirer.emit('prompt');
    assert.ok(process.listeners('SIGINT').includes(ours));
    assert.ok(!process.listeners('SIGINT').includes(theirs));
    assert.ok(!process.listeners('SIGTERM').includes(theirs));
  } finally {
    process.off('SIGINT', ours);
    process.off('SIGINT', theirs);
    process.off('SIGTERM', theirs);
  }
});
