/**
 * `aide status` tells the truth about recent sessions: a dry run or a session whose only step
 * failed has nothing to undo, `aide status SESSION` shows an older one, and a restore marks the
 * steps it took out of the files (and a restore of its safety checkpoint puts them back).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ADD_SUB, BREAK_ADD, PROJECT, actRepo, planDoc } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';

interface StatusJson {
  session: { session: string; base: string } | null;
  undo: {
    applied: Array<{ step: number; undoneBy: { target: string; safety: string } | null }>;
    undo: string | null;
  } | null;
  recent: Array<{ session: string; dryRun: boolean }>;
}

async function status(root: string, ...args: string[]): Promise<{ text: string; json: StatusJson }> {
  const text = await runAideInProcess(['status', ...args], { cwd: root });
  assert.equal(text.code, 0, text.stderr);
  const json = await runAideInProcess(['status', ...args, '--json'], { cwd: root });
  assert.equal(json.code, 0, json.stderr);
  return { text: text.stdout, json: JSON.parse(json.stdout) as StatusJson };
}

async function act(root: string, ...args: string[]): Promise<void> {
  const result = await runAideInProcess(['act', ...args], { cwd: root });
  assert.ok(result.code === 0 || result.code === 1, result.stdout + result.stderr);
}

test('status: recent sessions, one by id, nothing to undo where nothing was written, restores shown as undone and redone', async (t) => {
  const root = actRepo(
    t,
    planDoc('Sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Break add', edits: BREAK_ADD },
    ]),
  );

  await act(root, '--dry-run', '--step', '1');
  const dry = await status(root);
  assert.match(
    dry.text,
    /^session act-[\w-]+: finished \(dry run\)\n.*\(step 1 only\)\n {2}step 1: verified \(checkpoint \w+\)\nnothing to undo: a dry run writes no files\n$/,
  );
  assert.equal(dry.json.undo?.undo, null);

  await act(root, '--yes', '--step', '1');
  const applied = await status(root);
  const first = applied.json.session;
  assert.ok(first !== null);
  assert.match(
    applied.text,
    new RegExp(
      `step 1: applied \\(checkpoint \\w+\\)\\nundo this session: \`aide restore ${first.base.slice(0, 10)}\` puts the files back as they were before it\\n`,
    ),
  );
  assert.match(
    applied.text,
    /recent sessions, newest first[^\n]*\n {2}act-[\w-]+ +finished +\S.* +step 1 only: 1 applied +\.aide\/plans\/plan\.md\n {2}act-[\w-]+ +finished +.*dry run: 1 verified/,
  );

  // A --step run whose step fails wrote nothing: no "undo" pointing at a checkpoint that undoes nothing.
  await act(root, '--yes', '--step', '2');
  const failed = await status(root);
  assert.match(failed.text, /step 2: failed\nnothing to undo: no step of this session wrote files\n/);
  assert.doesNotMatch(failed.text, /undo this session/);
  assert.equal(failed.json.recent.length, 3);

  // The older session by its id: still undoable.
  const older = await status(root, first.session);
  assert.match(
    older.text,
    new RegExp(
      `^session ${first.session}: finished\\n[\\s\\S]*undo this session: \`aide restore ${first.base.slice(0, 10)}\``,
    ),
  );
  assert.doesNotMatch(older.text, /recent sessions/);

  const restored = await runAideInProcess(['restore', first.base, '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(readFileSync(join(root, 'src/calc.js'), 'utf8'), PROJECT['src/calc.js']);
  const undone = await status(root, first.session);
  const by = undone.json.undo?.applied[0]?.undoneBy;
  assert.ok(by !== null && by !== undefined, 'step 1 is marked undone');
  assert.equal(by.target, first.base);
  assert.match(
    undone.text,
    new RegExp(
      `step 1: applied, then undone by \`aide restore ${first.base.slice(0, 10)}\` .*; \`aide restore ${by.safety.slice(0, 10)}\` puts it back\\nnothing to undo: a restore already took out everything this session wrote\\n`,
    ),
  );
  assert.equal(undone.json.undo?.undo, null);

  // Undoing the restore puts the step back in the files, and status says so.
  const redo = await runAideInProcess(['restore', by.safety, '--yes'], { cwd: root });
  assert.equal(redo.code, 0, redo.stderr);
  const back = await status(root, first.session.slice(0, -1));
  assert.match(back.text, /step 1: applied \(checkpoint \w+\)\nundo this session: /);
  assert.equal(back.json.undo?.applied[0]?.undoneBy, null);

  // The built bin, once: the rest of this file runs aide in this process.
  const unknown = await runAide(['status', 'act-nope'], { cwd: root });
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /^aide: no session "act-nope" in this workspace\n {2}hint: Run `aide status` to list the recent sessions\./,
  );
});
