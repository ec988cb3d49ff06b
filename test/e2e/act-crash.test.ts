/**
 * An internal error in the middle of `aide act` (issue 11): the session is recorded as crashed,
 * not left `running`; the workspace lock is released; the error says how to carry on, and
 * carrying on works. The failure is a real one: the first verify run breaks the private index
 * of aide's scratch (possible only without isolation), so the next step's sweep of the scratch
 * fails in git.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { actRepo, edit, planDoc } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { tempDir } from '../helpers/sandbox.js';

/** Once (a flag file outside the workspace), overwrite the scratch's private index with garbage. */
function breakIndexOnce(flag: string): string {
  return `
const fs = require('fs'), path = require('path');
if (!fs.existsSync(${JSON.stringify(flag)})) {
  fs.writeFileSync(${JSON.stringify(flag)}, 'done');
  const admin = /^gitdir: (.+)$/m.exec(fs.readFileSync('.git', 'utf8'))[1].trim();
  fs.writeFileSync(path.join(admin, 'aide-index'), 'not an index');
}
`;
}

test('an internal error mid-session: recorded as crashed, the lock released, the error says how to resume, and the resume finishes', async (t) => {
  const flag = join(tempDir(t), 'broken-once');
  const sandbox = JSON.stringify({
    commands: [{ name: 'check', run: ['node', '-e', breakIndexOnce(flag)] }],
    flake_reruns: 0,
    allow_network: true,
  });
  const steps = [
    { title: 'Edit calc', edits: edit('src/calc.js', '  return a + b;', '  return b + a;') },
    {
      title: 'Edit package',
      edits: edit(
        'package.json',
        '{ "name": "calc", "type": "module" }',
        '{ "name": "calc2", "type": "module" }',
      ),
    },
  ];
  const root = actRepo(t, planDoc('Two steps', steps), sandbox);
  const env = { AIDE_ISOLATION: 'none' };
  const crashed = await runAide(['act', '--yes'], { cwd: root, env });
  assert.equal(crashed.code, 70, crashed.stdout + crashed.stderr);
  assert.match(crashed.stderr, /internal error/);
  // The shipped CLI is a bundle; its stack trace still names the source files.
  assert.match(crashed.stderr, /file:\/\/\S+\/src\/\S+\.ts:\d+:\d+/);
  assert.doesNotMatch(crashed.stderr, /dist\/bundle\//);
  assert.match(
    crashed.stderr,
    /recorded as crashed and the workspace is unlocked\. Carry it on with `aide act --resume`/,
  );
  const [session] = readdirSync(join(root, '.aide/state/sessions')).filter((name) => name.startsWith('act-'));
  const state = JSON.parse(
    readFileSync(join(root, '.aide/state/sessions', session ?? 'missing', 'state.json'), 'utf8'),
  ) as { status: string; steps: Array<{ status: string }> };
  assert.equal(state.status, 'crashed');
  assert.deepEqual(
    state.steps.map((s) => s.status),
    ['applied', 'running'],
  );
  const status = await runAide(['status'], { cwd: root });
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /^session act-[\w-]+: crashed\n/);
  assert.match(status.stdout, /carry it on with `aide act --resume`/);
  // Not locked out: the resume takes the lock and carries the session on to its end.
  const resumed = await runAide(['act', '--resume', '--yes'], { cwd: root, env });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(readFileSync(join(root, 'src/calc.js'), 'utf8'), /return b \+ a/);
  assert.match(readFileSync(join(root, 'package.json'), 'utf8'), /"calc2"/);
  const after = await runAide(['status'], { cwd: root });
  assert.match(after.stdout, /^session act-[\w-]+: finished\n/);
});
