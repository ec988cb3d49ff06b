// The benches take minutes: a mistyped flag must stop them before anything runs, and `--help`
// must print the usage, not start a run with the defaults (bench:act ran for minutes on `--help`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

/** dist/test/bench-flags.test.js → dist/bench/NAME.js */
const bench = (name: string) => fileURLToPath(new URL(`../bench/${name}.js`, import.meta.url));

function run(name: string, args: string[]) {
  return spawnSync(process.execPath, [bench(name), ...args], { encoding: 'utf8', timeout: 20_000 });
}

test('a bench given --help prints its usage line and exits 0 without running', () => {
  for (const name of ['act', 'review', 'verify']) {
    const result = run(name, ['--help']);
    assert.equal(result.status, 0, `${name}: ${result.stderr}`);
    assert.match(result.stdout, new RegExp(`^npm run bench:${name} `), name);
    assert.equal(result.stdout.split('\n').filter((line) => line !== '').length, 1, name);
  }
});

test('a bench given a flag its usage does not name exits 2 naming it, before any work', () => {
  const result = run('act', ['--file', '30000', '--runs', '1']);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /^unknown option --file\n/);
  assert.match(result.stderr, /--files 3000,30000/);
  assert.equal(result.stdout, '', 'nothing was generated or printed');
});

test('the flags a bench names in its usage are accepted (verify: --wrapper-only)', () => {
  // Unknown flags are refused before --help is honoured, so exit 0 here means the flag was known.
  const result = run('verify', ['--wrapper-only', '--help']);
  assert.equal(result.status, 0, result.stderr);
  const unknown = run('verify', ['--wrapper-onl']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown option --wrapper-onl/);
});
