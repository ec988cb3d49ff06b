import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { freePort } from '../helpers/fake-http-server.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { git, tempDir, testTemp } from '../helpers/sandbox.js';

const demo = fileURLToPath(new URL('../../../scripts/demo.mjs', import.meta.url));

test('the README quickstart demo is the whole product: aide plan, then aide act of that plan, dry run and written', (t) => {
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
  const said = result.stdout + result.stderr;
  assert.equal(result.status, 0, said);
  // aide plan: the scripted model reads the project and submits two steps without edits.
  assert.match(said, /→ read_file src\/inventory\.js[\s\S]*→ submit_plan/);
  assert.match(
    said,
    /Plan written: \.aide\/plans\/add-a-remove-command-to-the-inventory\.md \(2 steps, 4 model turns\)/,
  );
  // aide act: a sloppy first edit, then a test that fails, then the fix after its output; twice.
  const attempts = [...said.matchAll(/✗ attempt 1 failed[\s\S]*?✓ attempt 2 passed/g)];
  assert.equal(attempts.length, 2, 'the dry run and the real run each retry step 2 once');
  assert.match(said, /! edit of src\/inventory\.js not applied/);
  assert.match(said, /2 steps verified \(dry run: nothing written\)/);
  // Step 2 edits a test: a protected path, named and written only with --allow-protected.
  assert.match(said, /! changes protected files: test\/inventory\.test\.js \(rule \*\*\/test\/\*\*\)/);
  assert.match(said, /2 steps applied, 0 skipped, 0 failed/);
  assert.match(said, /step 2: applied \(checkpoint \w+\); 2 attempts, 1 failed/);
  assert.match(said, / M src\/inventory\.js\n M test\/inventory\.test\.js/);
  assert.match(said, /aide demo: done/);
  assert.ok(kept !== undefined && existsSync(kept), `the demo keeps the project it printed: ${kept}`);
  assert.match(
    result.stdout,
    new RegExp(`^ {2}cd ${kept}\n {2}git status .*\n {2}aide checkpoints .*\n {2}aide status `, 'm'),
  );
  assert.match(result.stdout, /`npm link`/);
});

test('the live demo against a model server says so and stops when none answers', async () => {
  const port = await freePort();
  const result = spawnSync(process.execPath, [demo, '--clean', '--model', 'qwen2.5-coder:14b'], {
    encoding: 'utf8',
    env: {
      ...process.env,
      NO_COLOR: '1',
      TMPDIR: testTemp(),
      AIDE_MODEL_ENDPOINT: `http://127.0.0.1:${port}`,
    },
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stderr, /no model server at http:\/\/127\.0\.0\.1:\d+/);
  assert.match(result.stdout, /no model server answered for qwen2\.5-coder:14b; the live demo is skipped/);
});

test("the example's hand-written plan (edits written down) still carries out: 3 steps verified, the optional report for step 2 only", async (t) => {
  const example = fileURLToPath(new URL('../../../examples/inventory', import.meta.url));
  const root = tempDir(t);
  cpSync(example, root, { recursive: true });
  git(root, ['init', '-q', '-b', 'main']);
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'example']);
  const result = await runAideInProcess(['act', '.aide/plans/add-remove.md', '--dry-run'], {
    cwd: root,
    home: tempDir(t),
    env: { TMPDIR: tempDir(t) },
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /3 steps verified \(dry run: nothing written\)/);
  assert.match(result.stdout, /! changes protected files: test\/remove\.test\.js \(rule \*\*\/test\/\*\*\)/);
  const withReport = result.stdout.split(/^(?=Step \d+: )/m).filter((part) => part.includes('✓ report '));
  assert.deepEqual(
    withReport.map((part) => part.slice(0, 'Step 2'.length)),
    ['Step 2'],
  );
  assert.match(
    result.stdout,
    /Step 3: Test remove\(\) and the sorted report[\s\S]*verified: 1 command, 5 tests passed/,
  );
});
