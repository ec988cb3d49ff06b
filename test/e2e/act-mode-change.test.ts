/**
 * The write-back compares mode as well as content (DESIGN.md, "The act step" 8): a `chmod +x`
 * the user makes while a step verifies is their change as much as an edit is. Writing the
 * step's file back would silently drop it, so it is a conflict: exit 6, nothing written, the
 * verified patch saved.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT, commandSaid, edit, planDoc, sandbox, sharedGate } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { gitRepo } from '../helpers/sandbox.js';

const TOOL = '#!/bin/sh\necho tool\n';

test('a chmod +x made while the step verifies: exit 6, the mode and the content kept, the verified patch saved', async (t) => {
  // The sandbox hides the test's temp folders from the command: it says it started in its log,
  // and waits on a folder shown to it read-only through home_binds.
  const gate = sharedGate(t);
  const wait = `echo started; while [ ! -e ${gate.inside}/go ]; do sleep 0.05; done; node --test test/`;
  const plan = planDoc('Tool', [
    { title: 'Louder tool', edits: edit('bin/tool.sh', 'echo tool', 'echo TOOL') },
  ]);
  const config = sandbox({ commands: [{ name: 'test', run: wait }], home_binds: gate.homeBinds });
  const root = gitRepo(t, {
    ...PROJECT,
    'bin/tool.sh': TOOL,
    '.aide/sandbox.json': config,
    '.aide/plans/plan.md': plan,
  });
  const running = runAide(['act', '--yes'], { cwd: root });
  await commandSaid(root, /^started$/m);
  chmodSync(join(root, 'bin/tool.sh'), 0o755);
  writeFileSync(join(gate.path, 'go'), '');
  const result = await running;
  assert.equal(result.code, 6, result.stdout + result.stderr);
  assert.match(result.stdout, /bin\/tool\.sh \(mode\)/);
  assert.equal(statSync(join(root, 'bin/tool.sh')).mode & 0o111, 0o111, "the user's chmod +x is kept");
  assert.equal(readFileSync(join(root, 'bin/tool.sh'), 'utf8'), TOOL, 'the step was not written');
  const saved = /saved in (\S+\.patch)/.exec(result.stdout)?.[1];
  assert.ok(saved !== undefined && existsSync(saved), result.stdout);
  assert.match(readFileSync(saved, 'utf8'), /\+echo TOOL/);
});
