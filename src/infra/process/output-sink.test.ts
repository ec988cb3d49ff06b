import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { ByteRing, CappedLog, LineSplitter, OutputSink } from './output-sink.js';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-sink-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function splitChunks(chunks: string[]): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  for (const chunk of chunks) splitter.write(Buffer.from(chunk));
  splitter.end();
  return lines;
}

test('lines split across chunks come out whole and in order, the last one without newline too', () => {
  assert.deepEqual(splitChunks(['a', 'b\nc', 'd\n\ne']), ['ab', 'cd', '', 'e']);
});

test('a CRLF split between two chunks is one line end', () => {
  assert.deepEqual(splitChunks(['one\r', '\ntwo\r\n']), ['one', 'two']);
});

test('a carriage return at a chunk end followed by text redraws the line', () => {
  assert.deepEqual(splitChunks(['10%\r', '100%\n']), ['100%']);
  assert.deepEqual(splitChunks(['done\r']), ['done']);
});

test('a very long line is capped at 4096 characters', () => {
  const [line] = splitChunks(['x'.repeat(100_000), '\n']);
  assert.equal(line?.length, 4096);
});

test('a progress bar redrawn a million times without newline ends as its last state', () => {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  const chunk = Buffer.from('\rprogress 12345'.repeat(10_000));
  for (let i = 0; i < 100; i++) splitter.write(chunk);
  splitter.write(Buffer.from('\rfinished\n'));
  assert.deepEqual(lines, ['finished']);
});

test('the ring keeps the last bytes across wrap-arounds and chunks larger than itself', () => {
  const ring = new ByteRing(8);
  ring.write(Buffer.from('abcde'));
  assert.equal(ring.contents().toString(), 'abcde');
  ring.write(Buffer.from('fghij'));
  assert.equal(ring.contents().toString(), 'cdefghij');
  ring.write(Buffer.from('0123456789'));
  assert.equal(ring.contents().toString(), '23456789');
  assert.equal(ring.holdsEverything, false);
});

test('the log keeps the first bytes, then one marker line with the dropped count', (t) => {
  const path = join(tempDir(t), 'nested', 'run.log');
  const log = new CappedLog(path, 10);
  log.write(Buffer.from('12345678'));
  log.write(Buffer.from('abcdef'));
  log.write(Buffer.from('ghij'));
  log.close();
  assert.equal(log.truncated, true);
  assert.equal(
    readFileSync(path, 'utf8'),
    '12345678ab\n[aide: output truncated after 10 bytes; 8 bytes dropped]\n',
  );
});

test('a log that cannot be created is reported, and the output is still summarized', (t) => {
  const blocker = join(tempDir(t), 'a-file');
  writeFileSync(blocker, '');
  const sink = new OutputSink({ logFile: join(blocker, 'run.log'), maxLogBytes: 100, tailBytes: 100 });
  sink.write(Buffer.from('still here\n'));
  const summary = sink.finish();
  assert.equal(summary.tail, 'still here');
  assert.match(summary.logError ?? '', /cannot write the log .*a-file\/run\.log: E/);
});
