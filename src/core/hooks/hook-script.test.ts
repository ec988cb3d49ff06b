import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  hookManager,
  isAideHook,
  managerLine,
  recordedRunner,
  renderHookScript,
  skippedLine,
  withoutAideLines,
} from './hook-script.js';

const TEMPLATE =
  '#!/bin/sh\n# installed by aide\naide_node=@NODE@\naide_entry=@ENTRY@\nexec x @ARGS@ # @HOOK@\n';

test('the recorded runner reads back exactly, quotes and spaces included', () => {
  const runner = { node: "/opt/it's here/node", entry: '/a b/dist/src/bin.js' };
  const script = renderHookScript(TEMPLATE, 'pre-push', runner);
  assert.deepEqual(recordedRunner(script), runner);
  assert.ok(isAideHook(script));
  assert.match(script, /exec x review --pre-push "\$1" # pre-push\n/);
  assert.match(renderHookScript(TEMPLATE, 'pre-commit', runner), /exec x review --staged # pre-commit\n/);
  assert.equal(recordedRunner('#!/bin/sh\necho hi\n'), null);
});

test("only a marker among a hook's first lines makes it aide's", () => {
  assert.equal(isAideHook('#!/bin/sh\nnpm test\n'), false);
  assert.equal(isAideHook(`#!/bin/sh\n${'\n'.repeat(10)}# installed by aide\n`), false);
});

test("husky's folders (v9 `.husky/_`, older `.husky`) and nothing else are a manager's", () => {
  assert.deepEqual(hookManager('/r/.husky/_'), { name: 'husky', folder: '/r/.husky' });
  assert.deepEqual(hookManager('/r/.husky/'), { name: 'husky', folder: '/r/.husky' });
  assert.equal(hookManager('/r/.git/hooks'), null);
  assert.equal(hookManager('/r/githooks'), null);
});

test("a manager's file loses exactly aide's line; the Skipped line is 80 columns", () => {
  const text = `npm test\n${managerLine('pre-commit')}\n`;
  assert.equal(withoutAideLines(text), 'npm test\n');
  assert.equal(skippedLine().length, 80);
  assert.match(skippedLine(), /\.Skipped$/);
});
