import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { choosePager, needsPager, runPager, screenRows, showText } from './pager.js';

function scratch(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-pager-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A pager that saves what it was given (it writes nothing to the terminal). */
function savingPager(dir: string): { command: string; saved: string } {
  const command = join(dir, 'pager.sh');
  writeFileSync(command, '#!/bin/sh\ncat > "$0.saved"\n');
  chmodSync(command, 0o755);
  return { command, saved: `${command}.saved` };
}

const sink = () => {
  let text = '';
  return { out: { write: (chunk: string) => (text += chunk) }, text: () => text };
};

test('rows on screen: long lines wrap, escape codes take no room, a final newline adds no row', () => {
  assert.equal(screenRows('a\nb\n', 80), 2);
  assert.equal(screenRows('x'.repeat(81), 80), 2);
  assert.equal(screenRows(`\u001b[32m${'x'.repeat(80)}\u001b[39m`, 80), 1);
  assert.equal(screenRows('\n\n', 80), 2);
});

test('paging: only text that does not fit on the screen, with a row to spare', () => {
  const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i}`).join('\n')}\n`;
  assert.equal(needsPager(lines(39), { rows: 40, columns: 80 }), false);
  assert.equal(needsPager(lines(40), { rows: 40, columns: 80 }), true);
});

test('the pager: $PAGER as given, empty means none, else less; LESS and LV default as in git, a set LESS is kept', () => {
  const less = choosePager({ PATH: '/bin' });
  assert.equal(less?.command, 'less');
  assert.equal(less?.env['LESS'], 'FRX');
  assert.equal(less?.env['LV'], '-c');
  assert.equal(less?.env['PATH'], '/bin');
  assert.equal(choosePager({ PAGER: 'most -s', LESS: 'R' })?.command, 'most -s');
  assert.equal(choosePager({ LESS: 'R' })?.env['LESS'], 'R');
  assert.equal(choosePager({ PAGER: '' }), null);
});

test('runPager hands the text to the pager on stdin; a pager that cannot start reports false', async (t) => {
  const pager = savingPager(scratch(t));
  assert.equal(
    await runPager(
      { command: pager.command, env: { PATH: process.env['PATH'] ?? '/bin' } },
      'some\ntext\n',
      1,
    ),
    true,
  );
  assert.equal(readFileSync(pager.saved, 'utf8'), 'some\ntext\n');
  assert.equal(
    await runPager({ command: 'aide-no-such-pager', env: { PATH: '/nonexistent' } }, 'x', 2),
    false,
  );
});

test('showText prints what fits, pages what does not, and prints when there is no pager to run', async (t) => {
  const pager = savingPager(scratch(t));
  const env = { PATH: process.env['PATH'] ?? '/bin', PAGER: pager.command };
  const size = { rows: 5, columns: 80 };
  const short = sink();
  assert.equal(await showText('a\nb\n', { out: short.out, fd: 1, size, env }), 'printed');
  assert.equal(short.text(), 'a\nb\n');
  assert.equal(existsSync(pager.saved), false);
  const long = sink();
  const text = '1\n2\n3\n4\n5\n6\n';
  assert.equal(await showText(text, { out: long.out, fd: 1, size, env }), 'paged');
  assert.equal(long.text(), '');
  assert.equal(readFileSync(pager.saved, 'utf8'), text);
  const none = sink();
  // The shell's "not found" goes to fd 2: stdout here is the test runner's.
  assert.equal(
    await showText(text, {
      out: none.out,
      fd: 2,
      size,
      env: { PATH: '/nonexistent', PAGER: 'aide-no-such-pager' },
    }),
    'printed',
  );
  assert.equal(none.text(), text);
});
