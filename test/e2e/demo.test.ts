import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { testTemp } from '../helpers/sandbox.js';

const demo = fileURLToPath(new URL('../../../scripts/demo.mjs', import.meta.url));

test('the README quickstart demo carries out the example plan: dry run, then every step verified and written', (t) => {
  const result = spawnSync(process.execPath, [demo], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', TMPDIR: testTemp() },
  });
  // The demo keeps the example project for a look around and says where: this test removes it.
  const kept = /^The example project is kept in (\S+)\. Have a look:$/m.exec(result.stdout)?.[1];
  if (kept !== undefined && kept.startsWith(tmpdir()))
    t.after(() => {
      rmSync(kept, { recursive: true, force: true });
    });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /3 steps verified \(dry run: nothing written\)/);
  // Step 3 adds a test: a protected path, named in the dry run and written only with --allow-protected.
  assert.match(result.stdout, /! changes protected files: test\/remove\.test\.js \(rule \*\*\/test\/\*\*\)/);
  // The optional "report" command runs for step 2, whose Verify: line names it, and only there.
  const withReport = result.stdout.split(/^(?=Step \d+: )/m).filter((part) => part.includes('✓ report '));
  assert.deepEqual(
    withReport.map((part) => part.slice(0, 'Step 2'.length)),
    ['Step 2', 'Step 2'],
    'the dry run and the real run',
  );
  assert.match(withReport[0] ?? '', /verified: 2 commands/);
  assert.match(
    result.stdout,
    /Step 3: Test remove\(\) and the sorted report[\s\S]*verified: 1 command, 5 tests passed/,
  );
  assert.match(result.stdout, /3 steps applied, 0 skipped, 0 failed/);
  assert.match(result.stdout, /step 3: applied/);
  assert.match(
    result.stdout,
    / M src\/inventory\.js\n M src\/format\.js|M src\/format\.js\n M src\/inventory\.js/,
  );
  assert.match(result.stdout, /\?\? test\/remove\.test\.js/);
  assert.match(result.stdout, /aide demo: done/);
  assert.ok(kept !== undefined && existsSync(kept), `the demo keeps the project it printed: ${kept}`);
  assert.match(
    result.stdout,
    new RegExp(`^ {2}cd ${kept}\n {2}git status .*\n {2}aide checkpoints .*\n {2}aide status `, 'm'),
  );
  assert.match(result.stdout, /`npm link`/);
});
