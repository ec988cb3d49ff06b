import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import type { VerifyCommand } from '../flows/verify.js';
import { parsePlan } from '../plan/parse.js';
import { availableCommands, checkPlanCommands, selectCommands, stepCommands } from './select-commands.js';

const SANDBOX = '.aide/sandbox.json';
const lint: VerifyCommand = { name: 'lint', run: 'echo lint' };
const e2e: VerifyCommand = { name: 'e2e', run: 'echo e2e', optional: true };
const test_: VerifyCommand = { name: 'test', run: 'echo test' };
const configured = [lint, e2e, test_];
const names = (commands: readonly VerifyCommand[]) => commands.map((c) => c.name);

function thrown(fn: () => unknown): AideError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AideError, String(error));
    return error;
  }
  assert.fail('expected an AideError');
}

describe('optional commands in aide verify', () => {
  test('left out unless named, and said to be left out', () => {
    const selection = selectCommands(configured, [], undefined, SANDBOX);
    assert.deepEqual(names(selection.commands), ['lint', 'test']);
    assert.deepEqual(selection.optionalNotRun, ['e2e']);
  });

  test('--commands runs an optional command it names, in the configured order', () => {
    assert.deepEqual(names(selectCommands(configured, [], ['test', 'e2e'], SANDBOX).commands), [
      'e2e',
      'test',
    ]);
  });

  test('when every command is optional, plain verify is a configuration error saying how to run them', () => {
    const error = thrown(() => selectCommands([e2e], [], undefined, SANDBOX));
    assert.equal(error.exitCode, 2);
    assert.match(error.message, /every command in \.aide\/sandbox\.json is optional \(e2e\)/);
    assert.match(error.hint ?? '', /aide verify --commands e2e/);
  });

  test('detected commands are optional where detection says so, and the error says they were detected', () => {
    const selection = selectCommands(
      [],
      [
        { name: 'test', run: 'npm test' },
        { name: 'tox', run: 'tox', optional: true },
      ],
      undefined,
      SANDBOX,
    );
    assert.equal(selection.source, 'detected');
    assert.deepEqual(names(selection.commands), ['test']);
    assert.deepEqual(selection.optionalNotRun, ['tox']);
    const error = thrown(() =>
      selectCommands([], [{ name: 'tox', run: 'tox', optional: true }], undefined, SANDBOX),
    );
    assert.match(error.message, /every command detected in this project is optional \(tox\)/);
    assert.match(error.hint ?? '', /aide verify --commands tox/);
  });
});

describe("a plan step's verify commands", () => {
  test('every command not optional, plus the optional ones its Verify: names, in the configured order', () => {
    assert.deepEqual(names(stepCommands(configured, [])), ['lint', 'test']);
    assert.deepEqual(names(stepCommands(configured, ['e2e'])), ['lint', 'e2e', 'test']);
    assert.deepEqual(
      names(stepCommands(configured, ['test'])),
      ['lint', 'test'],
      'naming a command that always runs adds nothing',
    );
  });
});

function plan(...steps: string[]) {
  const text = [
    '---',
    'aide_plan: 1',
    'title: T',
    'created: 2026-11-30T10:00:00.000Z',
    '---',
    '',
    ...steps,
  ].join('\n');
  const parsed = parsePlan(text, '.aide/plans/p.md');
  assert.ok(parsed.ok);
  return parsed;
}

describe('checkPlanCommands', () => {
  const sandbox = availableCommands(configured, [], SANDBOX);

  test('known names, optional or not, pass', () => {
    const { plan: p, lines } = plan('## Step 1: a', 'Verify: e2e, test', '## Step 2: b');
    checkPlanCommands(p, lines, '.aide/plans/p.md', sandbox, SANDBOX);
  });

  test('an unknown name: exit 2 with the plan file:line:column, the name, the known names and the fix', () => {
    const { plan: p, lines } = plan('## Step 1: a', '', 'Verify: test, tset');
    const error = thrown(() => {
      checkPlanCommands(p, lines, '.aide/plans/p.md', sandbox, SANDBOX);
    });
    assert.equal(error.exitCode, 2);
    assert.equal(
      error.message,
      '.aide/plans/p.md:9:15: step 1: Verify: "tset" is not a command in .aide/sandbox.json (did you mean "test"?)',
    );
    assert.equal(
      error.hint,
      'The commands in .aide/sandbox.json are: lint, e2e (optional), test. Add the command to "commands" in .aide/sandbox.json, or correct the name in the plan.',
    );
  });

  test('several problems: each on its own line, in plan order', () => {
    const { plan: p, lines } = plan('## Step 1: a', 'Verify: smoke', '## Step 2: b', 'Verify: unit');
    const error = thrown(() => {
      checkPlanCommands(p, lines, '.aide/plans/p.md', sandbox, SANDBOX);
    });
    assert.equal(error.message, '.aide/plans/p.md: 2 problems with the verify commands its steps name');
    assert.deepEqual(error.details, [
      '.aide/plans/p.md:8:9: step 1: Verify: "smoke" is not a command in .aide/sandbox.json',
      '.aide/plans/p.md:10:9: step 2: Verify: "unit" is not a command in .aide/sandbox.json',
    ]);
  });

  test('with detected commands, the hint says sandbox.json lists none', () => {
    const detected = availableCommands([], [test_], SANDBOX);
    const { plan: p, lines } = plan('## Step 1: a', 'Verify: lint');
    const error = thrown(() => {
      checkPlanCommands(p, lines, '.aide/plans/p.md', detected, SANDBOX);
    });
    assert.match(error.message, /"lint" is not a command in the commands detected in this project/);
    assert.match(
      error.hint ?? '',
      /^\.aide\/sandbox\.json lists no commands, so aide uses the ones detected in this project: test/,
    );
  });

  test('a step left with no command at all (every one optional, none named) is an error at its heading', () => {
    const { plan: p, lines } = plan('## Step 1: a', 'Verify: e2e', '## Step 2: b');
    const error = thrown(() => {
      checkPlanCommands(p, lines, '.aide/plans/p.md', availableCommands([e2e], [], SANDBOX), SANDBOX);
    });
    assert.equal(
      error.message,
      ".aide/plans/p.md:9: step 2 has no command to verify it with: every command in .aide/sandbox.json is optional, and the step's Verify: names none",
    );
    assert.match(error.hint ?? '', /Name an optional command on the step's Verify: line/);
  });
});
