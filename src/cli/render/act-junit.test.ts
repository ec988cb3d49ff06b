import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActReport, StepReport } from '../../core/act-report.js';
import type { CommandReport, VerifyReport } from '../../core/verify/report.js';
import { child, children, parseXml, type XmlElement } from '../../../test/helpers/xml.js';
import { renderActJunit } from './act-junit.js';

function command(name: string, overrides: Partial<CommandReport> = {}): CommandReport {
  return {
    name,
    run: ['npm', 'test'],
    status: 'passed',
    exitCode: 0,
    signal: null,
    durationMs: 900,
    tests: null,
    flaky: false,
    logPath: `/s/logs/step/${name}.log`,
    tail: '',
    runs: [],
    ...overrides,
  };
}

function verify(commands: CommandReport[], overrides: Partial<VerifyReport> = {}): VerifyReport {
  return {
    verdict: 'passed',
    summary: 'verified: 1 command, 3 tests passed',
    commands,
    isolation: {
      mechanism: 'unshare',
      network: 'off',
      workspaceReadOnly: true,
      writable: 'scratch',
      sockets: 'hidden',
      processTree: 'namespace',
      detail: null,
    },
    durationMs: 1500,
    withheldEnv: [],
    ...overrides,
  };
}

function step(number: number, status: StepReport['status'], overrides: Partial<StepReport> = {}): StepReport {
  return {
    number,
    title: `Title ${number}`,
    status,
    reason: null,
    files: [],
    protectedFiles: [],
    verify: null,
    checkpoint: null,
    patchFile: null,
    output: null,
    ...overrides,
  };
}

function act(steps: StepReport[], dryRun = false): ActReport {
  return {
    session: 'act-20261130-101500-3f2a',
    dryRun,
    steps,
    base: 'b'.repeat(40),
    head: 'h'.repeat(40),
    patch: '',
  };
}

const options = {
  suiteName: 'Add sub & test it',
  timestamp: '2026-11-30T10:15:00.000Z',
  plan: '.aide/plans/plan.md',
};
const file = { path: 'src/calc.js', action: 'modified' as const, added: 4, removed: 0, diff: '' };

const passed = step(1, 'applied', {
  files: [file],
  verify: verify([command('test')]),
  checkpoint: 'c'.repeat(40),
});
const failed = step(2, 'failed', {
  reason: 'failed: test exited 1 (1 of 1 test failed)',
  files: [file],
  verify: verify(
    [command('test', { status: 'failed', exitCode: 1, tail: 'not ok 1 - add <sum>\n# fail 1\n' })],
    { verdict: 'failed', summary: 'failed: test exited 1 (1 of 1 test failed)', durationMs: 2250 },
  ),
});
const notRun = step(3, 'not_run');

function cases(xml: string): XmlElement[] {
  return children(child(parseXml(xml), 'testsuite') as XmlElement, 'testcase');
}

test('one test case per step, named "Step N: title", in a suite named after the plan', () => {
  const root = parseXml(renderActJunit(act([passed, failed, notRun]), options));
  assert.deepEqual(root.attributes, {
    name: 'Add sub & test it',
    tests: '3',
    failures: '1',
    errors: '0',
    skipped: '1',
    time: '3.750',
  });
  const suite = child(root, 'testsuite') as XmlElement;
  assert.equal(suite.attributes.timestamp, options.timestamp);
  assert.deepEqual(
    children(suite, 'testcase').map((c) => [c.attributes.classname, c.attributes.name, c.attributes.time]),
    [
      ['aide.act', 'Step 1: Title 1', '1.500'],
      ['aide.act', 'Step 2: Title 2', '2.250'],
      ['aide.act', 'Step 3: Title 3', '0.000'],
    ],
  );
  assert.deepEqual(
    child(suite, 'properties')?.children.map((p) => [p.attributes.name, p.attributes.value]),
    [
      ['aide.plan', '.aide/plans/plan.md'],
      ['aide.session', 'act-20261130-101500-3f2a'],
      ['aide.dry_run', 'false'],
      ['aide.isolation', 'unshare; network off; workspace read-only'],
    ],
  );
});

test('a passing step has the verify summary, its commands and files in system-out', () => {
  const [ok] = cases(renderActJunit(act([passed]), options));
  assert.deepEqual(
    ok?.children.map((c) => c.name),
    ['system-out'],
  );
  assert.equal(
    child(ok, 'system-out')?.text,
    [
      'verify: verified: 1 command, 3 tests passed',
      '  test: passed (log: /s/logs/step/test.log)',
      'files: src/calc.js +4 -0',
      `checkpoint: ${'c'.repeat(40)}`,
    ].join('\n'),
  );
});

test('a failed step is a failure with the reason and the failing output; the steps after it are skipped', () => {
  const [, bad, later] = cases(renderActJunit(act([passed, failed, notRun]), options));
  const failure = child(bad as XmlElement, 'failure');
  assert.deepEqual(failure?.attributes, {
    message: 'failed: test exited 1 (1 of 1 test failed)',
    type: 'failed',
  });
  assert.equal(
    failure?.text,
    'failed: test exited 1 (1 of 1 test failed)\n\ntest:\nnot ok 1 - add <sum>\n# fail 1',
  );
  assert.match(child(bad as XmlElement, 'system-out')?.text ?? '', /^verify: failed: test exited 1/);
  assert.deepEqual(later?.children, [
    { name: 'skipped', attributes: { message: 'not run: step 2 failed' }, children: [], text: '' },
  ]);
});

test('a step failing before verification: the first line of the reason is the message, all of it the text', () => {
  const reason = 'the edits did not apply:\nsrc/calc.js: SEARCH not found';
  const [bad] = cases(renderActJunit(act([step(1, 'failed', { reason })]), options));
  assert.deepEqual(
    bad?.children.map((c) => c.name),
    ['failure'],
  );
  assert.equal(child(bad, 'failure')?.attributes.message, 'the edits did not apply:');
  assert.equal(child(bad, 'failure')?.text, reason);
});

test('conflict, skipped and interrupted steps', () => {
  const conflict = step(1, 'conflict', {
    reason: 'files changed under aide since the step started: src/calc.js (modified)',
    patchFile: '/s/step-1.patch',
    verify: verify([command('test')]),
  });
  const skipped = step(2, 'skipped', { reason: 'the step changes no file' });
  const xml = renderActJunit(act([conflict, skipped, step(3, 'cancelled'), step(4, 'not_run')]), options);
  const [c1, c2, c3, c4] = cases(xml);
  assert.deepEqual(child(c1 as XmlElement, 'failure')?.attributes, {
    message: 'files changed under aide since the step started: src/calc.js (modified)',
    type: 'conflict',
  });
  assert.match(
    child(c1 as XmlElement, 'failure')?.text ?? '',
    /the verified patch is saved in \/s\/step-1\.patch/,
  );
  assert.equal(child(c2 as XmlElement, 'skipped')?.attributes.message, 'skipped: the step changes no file');
  assert.equal(child(c3 as XmlElement, 'skipped')?.attributes.message, 'interrupted (Ctrl-C)');
  assert.equal(
    child(c4 as XmlElement, 'skipped')?.attributes.message,
    'not run: step 1 could not be written',
  );
  assert.equal(parseXml(xml).attributes.failures, '1');
  assert.equal(parseXml(xml).attributes.skipped, '3');
});

test('a dry run: verified steps pass, and the suite says it was a dry run', () => {
  const verified = { ...passed, status: 'verified' as const };
  const xml = renderActJunit(act([verified], true), options);
  assert.equal(parseXml(xml).attributes.failures, '0');
  assert.deepEqual(
    cases(xml)[0]?.children.map((c) => c.name),
    ['system-out'],
  );
  assert.match(xml, /<property name="aide.dry_run" value="true"\/>/);
});
