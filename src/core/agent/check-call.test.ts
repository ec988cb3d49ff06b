import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkCall, describeProblem, usage } from './check-call.js';
import { parseCalls } from './parse-calls.js';
import { findTool } from './tools.js';

function check(reply: string, mode: 'plan' | 'act' = 'act') {
  const call = parseCalls(reply).calls[0];
  assert.ok(call, 'a call');
  return checkCall(call, mode);
}

describe('checking a call', () => {
  test('alias repairs are reported with the call', () => {
    const checked = check('<run_command><cmd>npm test</cmd></run_command>');
    assert.deepEqual(checked, {
      ok: true,
      call: { tool: 'run_command', input: { command: 'npm test' } },
      repairs: ['cmd → command'],
    });
  });

  test('a wrong type and a missing parameter are told together, with the correct form', () => {
    const checked = check('<read_file><offset>0</offset></read_file>');
    assert.equal(checked.ok, false);
    assert.ok(!checked.ok);
    assert.equal(
      checked.forModel,
      '<read_file>: missing <path>; <offset> must be 1 or more, got "0". ' +
        'Write it as <read_file><path>…</path>[<offset>…</offset>][<limit>…</limit>]</read_file>.',
    );
    assert.equal(checked.forUser, "the model's read_file call was malformed (missing path)");
  });

  test('an unknown parameter gets a did-you-mean among the tool parameters', () => {
    const checked = check('<write_file><path>a</path><contnet>x</contnet></write_file>');
    assert.ok(!checked.ok);
    assert.match(checked.forModel, /no parameter <contnet> \(line 1\)\. Did you mean <content>\?/);
  });

  test('a write tool in Plan mode is a result for both audiences', () => {
    const checked = check('<run_command><command>rm -rf src</command></run_command>', 'plan');
    assert.deepEqual(checked, {
      ok: false,
      forModel:
        '<run_command> is not available in Plan mode. Plan mode is read-only: nothing is written and no ' +
        'command runs. The tools here are: read_file, list_files, search_files, submit_plan. ' +
        'When the plan is ready, call <submit_plan>.',
      forUser: 'the model asked for run_command, which Plan mode does not offer; nothing was done',
    });
  });

  test('the usage line shows optional parameters in brackets', () => {
    const list = findTool('list_files');
    assert.ok(list);
    assert.equal(usage(list), '<list_files>[<path>…</path>][<recursive>…</recursive>]</list_files>');
  });

  test('no call in Act mode points at attempt_completion', () => {
    const told = describeProblem({ kind: 'no_call' }, 'act');
    assert.match(told.forModel, /call <attempt_completion>/);
    assert.equal(told.forUser, 'the model replied without using a tool');
  });
});
