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
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT, edit, planDoc, sandbox } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { gitRepo, tempDir } from '../helpers/sandbox.js';

const TOOL = '#!/bin/sh\necho tool\n';

test('a chmod +x made while the step verifies: exit 6, the mode and the content kept, the verified patch saved', async (t) => {
  const gate = tempDir(t);
  const wait = `touch ${gate}/started; while [ ! -e ${gate}/go ]; do sleep 0.05; done; node --test test/`;
  const plan = planDoc('Tool', [{ title: 'Louder tool', edits: edit('bin/tool.sh', 'echo tool', 'echo TOOL') }]);
  const root = gitRepo(t, { ...PROJECT, 'bin/tool.sh': TOOL, '.aide/sandbox.json': sandbox({ commands: [{ name: 'test', run: wait }] }), '.aide/plans/plan.md': plan });
  const running = runAide(['act', '--yes'], { cwd: root });
  for (let waited = 0; !existsSync(join(gate, 'started')); waited += 50) {
    assert.ok(waited < 60_000, 'the verify command never started');
    await sleep(50);
  }
  chmodSync(join(root, 'bin/tool.sh'), 0o755);
  writeFileSync(join(gate, 'go'), '');
  const result = await running;
  assert.equal(result.code, 6, result.stdout + result.stderr);
  assert.match(result.stdout, /bin\/tool\.sh \(mode\)/);
  assert.equal(statSync(join(root, 'bin/tool.sh')).mode & 0o111, 0o111, 'the user\'s chmod +x is kept');
  assert.equal(readFileSync(join(root, 'bin/tool.sh'), 'utf8'), TOOL, 'the step was not written');
  const saved = /saved in (\S+\.patch)/.exec(result.stdout)?.[1];
  assert.ok(saved !== undefined && existsSync(saved), result.stdout);
  assert.match(readFileSync(saved, 'utf8'), /\+echo TOOL/);
});
