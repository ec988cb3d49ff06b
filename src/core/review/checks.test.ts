import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReviewedFile } from '../ports/review.js';
import { FAKE_ASSIGNMENTS, FAKE_TOKENS } from '../security/fake-tokens.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  runStaticChecks,
  type CheckResult,
  type StaticCheckOptions,
} from './checks.js';

function file(path: string, lines: string[], extra: Partial<ReviewedFile> = {}): ReviewedFile {
  const text = lines.join('\n');
  return {
    path,
    action: 'modified',
    added: lines.map((t, i) => ({ line: i + 1, text: t })),
    binary: false,
    bytes: Buffer.byteLength(text),
    lfsPointer: false,
    before: () => Promise.resolve(null),
    after: () => Promise.resolve(Buffer.from(text)),
    ...extra,
  };
}

const options: StaticCheckOptions = {
  protectedPaths: ['**/*.test.*', '.github/workflows/**'],
  protectedBlocks: false,
  maxFileBytes: DEFAULT_MAX_FILE_BYTES,
};

async function check(
  name: string,
  files: ReviewedFile[],
  skip: string[] = [],
  settings: Partial<StaticCheckOptions> = {},
): Promise<CheckResult> {
  const results = await runStaticChecks(files, { ...options, ...settings }, new Set(skip));
  const found = results.find((r) => r.name === name);
  assert.ok(found);
  return found;
}

test('a clean change passes every check', async () => {
  const results = await runStaticChecks([file('src/a.ts', ['export const a = 1;'])], options, new Set());
  assert.deepEqual(
    results.map((r) => [r.name, r.status]),
    [
      ['invisible-unicode', 'passed'],
      ['conflict-markers', 'passed'],
      ['protected-paths', 'passed'],
      ['secrets', 'passed'],
      ['large-files', 'passed'],
    ],
  );
});

test('invisible-unicode: bidi, zero-width, mid-file BOM, U+3164 and tag characters fail; a leading BOM does not', async () => {
  for (const ch of ['\u202E', '\u200B', '\u3164', String.fromCodePoint(0xe0041), '\u2066']) {
    const r = await check('invisible-unicode', [file('a.js', ['ok', `let x${ch} = 1;`])]);
    assert.equal(r.status, 'failed', ch.codePointAt(0)?.toString(16));
    assert.equal(r.findings[0]?.line, 2);
    assert.equal(r.findings[0]?.file, 'a.js');
  }
  assert.equal((await check('invisible-unicode', [file('a.js', ['x', 'a\uFEFFb'])])).status, 'failed');
  assert.equal((await check('invisible-unicode', [file('a.js', ['\uFEFFfirst', 'b'])])).status, 'passed');
  assert.equal((await check('invisible-unicode', [file('a.md', ['café — naïve 👍'])])).status, 'passed');
});

test('conflict-markers: git markers at line start fail; look-alikes pass', async () => {
  const bad = await check('conflict-markers', [
    file('a.txt', ['<<<<<<< HEAD', 'mine', '=======', 'theirs', '>>>>>>> topic']),
  ]);
  assert.equal(bad.status, 'failed');
  assert.deepEqual(
    bad.findings.map((f) => f.line),
    [1, 3, 5],
  );
  const fine = await check('conflict-markers', [
    file('a.md', [
      'Title',
      '=========',
      ' <<<<<<< indented',
      'a <<<<<<< b',
      '======= text',
      '<<<<<<<<< long',
    ]),
  ]);
  assert.equal(fine.status, 'passed', JSON.stringify(fine.findings));
});

test('protected-paths: a change to a protected path is a warning, not a failure', async () => {
  const r = await check('protected-paths', [file('src/a.test.ts', ['x']), file('src/a.ts', ['y'])]);
  assert.equal(r.status, 'passed');
  assert.deepEqual(
    r.findings.map((f) => [f.file, f.severity]),
    [['src/a.test.ts', 'warning']],
  );
  assert.equal((await check('protected-paths', [file('src/a.ts', ['y'])])).findings.length, 0);
});

test('protected-paths with review.protected "block": the same change fails, as an error', async () => {
  const blocked = { protectedBlocks: true };
  const r = await check('protected-paths', [file('src/a.test.ts', ['x'])], [], blocked);
  assert.equal(r.status, 'failed');
  assert.equal(r.findings[0]?.severity, 'error');
  assert.match(r.findings[0]?.fix ?? '', /review\.protected/);
  assert.equal((await check('protected-paths', [file('src/a.ts', ['y'])], [], blocked)).status, 'passed');
});

test('secrets: every fake token fails, masked; the allow comment passes', async () => {
  for (const [id, token] of FAKE_TOKENS) {
    const r = await check('secrets', [file('config.js', ['// settings', `const key = "${token}";`])]);
    assert.equal(r.status, 'failed', id);
    assert.equal(r.findings[0]?.line, 2);
    assert.ok(!JSON.stringify(r).includes(token), `${id} shown unmasked`);
    assert.ok(!JSON.stringify(r).includes(token.slice(5, 15)), `${id} partly shown`);
  }
  const [, token] = FAKE_TOKENS[2] ?? ['', ''];
  const allowed = await check('secrets', [file('a.js', [`"${token}" // aide:allow-secret`])]);
  assert.equal(allowed.status, 'passed');
});

test('secrets: .aide/review-ignore entries silence their finding only; the fix names the entry', async () => {
  const [, token] = FAKE_TOKENS[2] ?? ['', ''];
  const files = [file('a.js', [`"${token}"`, `"${token}"`])];
  const open = await check('secrets', files);
  assert.equal(open.findings.length, 2);
  assert.match(open.findings[0]?.fix ?? '', /a\.js:github-pat:1 to \.aide\/review-ignore/);
  const one = await check('secrets', files, [], { ignore: [{ path: 'a.js', rule: 'github-pat', line: 1 }] });
  assert.deepEqual(
    one.findings.map((f) => f.line),
    [2],
  );
  const all = await check('secrets', files, [], {
    ignore: [{ path: 'a.js', rule: 'github-pat', line: null }],
  });
  assert.equal(all.status, 'passed');
});

test('secrets: the entropy rule fails a key-like assignment, but not in a lockfile', async () => {
  const [, line] = FAKE_ASSIGNMENTS[0] ?? ['', ''];
  const r = await check('secrets', [file('.env', [line])]);
  assert.equal(r.status, 'failed');
  assert.equal(r.findings[0]?.rule, 'generic-secret-assignment');
  assert.equal((await check('secrets', [file('yarn.lock', [line])])).status, 'passed');
});

test('large-files: review.max_file_kb sets the limit', async () => {
  const small = { maxFileBytes: 10 * 1024 };
  const over = await check('large-files', [file('a.bin', [], { bytes: 10 * 1024 + 1 })], [], small);
  assert.equal(over.status, 'failed');
  assert.match(over.findings[0]?.message ?? '', /over the 10 KiB limit/);
  assert.equal(
    (await check('large-files', [file('a.bin', [], { bytes: 10 * 1024 })], [], small)).status,
    'passed',
  );
});

test('large-files: over the limit fails; LFS pointers, deletions and small files pass', async () => {
  const big = DEFAULT_MAX_FILE_BYTES + 1;
  assert.equal(
    (await check('large-files', [file('a.bin', [], { bytes: big, binary: true })])).status,
    'failed',
  );
  assert.equal(
    (await check('large-files', [file('a.bin', [], { bytes: DEFAULT_MAX_FILE_BYTES })])).status,
    'passed',
  );
  assert.equal(
    (await check('large-files', [file('a.bin', [], { bytes: big, lfsPointer: true })])).status,
    'passed',
  );
  assert.equal(
    (await check('large-files', [file('a.bin', [], { bytes: null, action: 'deleted' })])).status,
    'passed',
  );
});

test('a skipped check is reported as skipped, whatever the change holds', async () => {
  const [, token] = FAKE_TOKENS[0] ?? ['', ''];
  const r = await check('secrets', [file('a.js', [token])], ['secrets']);
  assert.equal(r.status, 'skipped');
  assert.equal(r.findings.length, 0);
});
