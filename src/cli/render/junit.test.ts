import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CommandReport, CommandRunRecord, VerifyReport } from '../../core/verify/report.js';
import { child, parseXml, type XmlElement } from '../../../test/helpers/xml.js';
import { escapeXmlAttribute, escapeXmlText, renderJunit } from './junit.js';

function run(overrides: Partial<CommandRunRecord> = {}): CommandRunRecord {
  return {
    attempt: 1,
    exitCode: 0,
    signal: null,
    timedOut: false,
    cancelled: false,
    truncated: false,
    durationMs: 1000,
    timeoutMs: 120000,
    logPath: '/tmp/aide/logs/cmd-1.log',
    tests: null,
    startError: null,
    ...overrides,
  };
}

function command(name: string, overrides: Partial<CommandReport> = {}): CommandReport {
  const runs = overrides.runs ?? [run({ logPath: `/tmp/aide/logs/${name}-1.log` })];
  const last = runs.at(-1);
  return {
    name,
    run: ['npm', 'run', name],
    status: 'passed',
    exitCode: last?.exitCode ?? null,
    signal: null,
    durationMs: 1000,
    tests: null,
    flaky: false,
    logPath: last?.logPath ?? null,
    tail: '',
    runs,
    ...overrides,
  };
}

function report(commands: CommandReport[], overrides: Partial<VerifyReport> = {}): VerifyReport {
  return {
    verdict: 'failed',
    summary: 'verify failed: test',
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
    durationMs: 12_345,
    withheldEnv: [],
    ...overrides,
  };
}

const options = { suiteName: 'aide verify', timestamp: '2025-01-31T12:00:00' };

const everyStatus = report([
  command('build', { durationMs: 1234, tests: null }),
  command('unit', {
    status: 'flaky',
    flaky: true,
    durationMs: 3000,
    tests: { runner: 'node:test', passed: 41, failed: 0, skipped: 0, total: 41 },
    runs: [
      run({ attempt: 1, exitCode: 1, logPath: '/tmp/aide/logs/unit-1.log' }),
      run({ attempt: 2, logPath: '/tmp/aide/logs/unit-2.log' }),
    ],
  }),
  command('test', {
    status: 'failed',
    exitCode: 1,
    tests: { runner: 'jest', passed: 40, failed: 2, skipped: 1, total: 43 },
    tail: 'FAIL src/api.test.js\nTests:       2 failed, 1 skipped, 40 passed, 43 total',
    runs: [run({ exitCode: 1, logPath: '/tmp/aide/logs/test-1.log' })],
  }),
  command('e2e', {
    status: 'timed_out',
    exitCode: null,
    signal: 'SIGKILL',
    tail: 'waiting for server…',
    runs: [run({ exitCode: null, signal: 'SIGKILL', timedOut: true, durationMs: 60_000 })],
  }),
  command('lint', {
    status: 'failed',
    exitCode: null,
    tail: '',
    runs: [run({ exitCode: null, startError: 'spawn eslint ENOENT', logPath: '/tmp/aide/logs/lint-1.log' })],
  }),
  command('types', { status: 'not_run', exitCode: null, durationMs: 0, logPath: null, runs: [] }),
]);

test('one testsuite inside testsuites, one testcase per command, with the counts on both', () => {
  const root = parseXml(renderJunit(everyStatus, options));
  assert.equal(root.name, 'testsuites');
  const suite = child(root, 'testsuite');
  assert.ok(suite);
  const counts = { tests: '6', failures: '2', errors: '1', skipped: '1', time: '12.345' };
  assert.deepEqual(root.attributes, { name: 'aide verify', ...counts });
  assert.deepEqual(suite.attributes, { name: 'aide verify', ...counts, timestamp: '2025-01-31T12:00:00' });
  const cases = suite.children.filter((c) => c.name === 'testcase');
  assert.deepEqual(
    cases.map((c) => [c.attributes.classname, c.attributes.name, c.attributes.time]),
    [
      ['aide.verify', 'build', '1.234'],
      ['aide.verify', 'unit', '3.000'],
      ['aide.verify', 'test', '1.000'],
      ['aide.verify', 'e2e', '1.000'],
      ['aide.verify', 'lint', '1.000'],
      ['aide.verify', 'types', '0.000'],
    ],
  );
});

test('failed and timed-out commands have a failure with the tail; a start error is an error', () => {
  const suite = child(parseXml(renderJunit(everyStatus, options)), 'testsuite');
  const byName = (name: string) => suite?.children.find((c) => c.attributes.name === name);
  const failure = byName('test') && child(byName('test') as XmlElement, 'failure');
  assert.deepEqual(failure?.attributes, { message: 'exit code 1; 2 of 43 tests failed', type: 'failed' });
  assert.equal(failure?.text, 'FAIL src/api.test.js\nTests:       2 failed, 1 skipped, 40 passed, 43 total');
  const timeout = child(byName('e2e') as XmlElement, 'failure');
  assert.deepEqual(timeout?.attributes, { message: 'timed out after 60 s', type: 'timed_out' });
  assert.equal(timeout?.text, 'waiting for server…');
  const error = child(byName('lint') as XmlElement, 'error');
  assert.deepEqual(error?.attributes, {
    message: 'could not start: spawn eslint ENOENT',
    type: 'start_error',
  });
  assert.equal(child(byName('lint') as XmlElement, 'failure'), undefined);
});

test('a passing and a flaky command have no failure; the flaky one says so in system-out', () => {
  const suite = child(parseXml(renderJunit(everyStatus, options)), 'testsuite');
  const build = suite?.children.find((c) => c.attributes.name === 'build') as XmlElement;
  assert.deepEqual(
    build.children.map((c) => c.name),
    ['system-out'],
  );
  assert.equal(child(build, 'system-out')?.text, 'command: npm run build\nlog: /tmp/aide/logs/build-1.log');
  const unit = suite?.children.find((c) => c.attributes.name === 'unit') as XmlElement;
  assert.deepEqual(
    unit.children.map((c) => c.name),
    ['system-out'],
  );
  assert.equal(
    child(unit, 'system-out')?.text,
    [
      'command: npm run unit',
      'tests: 41 passed, 0 failed, 0 skipped (node:test)',
      'flaky: attempt 1 failed (exit code 1), attempt 2 passed',
      'attempt 1 log: /tmp/aide/logs/unit-1.log',
      'log: /tmp/aide/logs/unit-2.log',
    ].join('\n'),
  );
});

test('not run and cancelled commands are skipped, with the reason', () => {
  const suite = child(parseXml(renderJunit(everyStatus, options)), 'testsuite');
  const types = suite?.children.find((c) => c.attributes.name === 'types') as XmlElement;
  assert.deepEqual(types.children, [
    {
      name: 'skipped',
      attributes: { message: 'not run: an earlier command failed (test)' },
      children: [],
      text: '',
    },
  ]);

  const cancelled = report(
    [
      command('test', {
        status: 'cancelled',
        runs: [run({ cancelled: true, exitCode: null, signal: 'SIGTERM' })],
      }),
      command('lint', { status: 'not_run', runs: [], logPath: null }),
    ],
    { verdict: 'cancelled' },
  );
  const cases =
    child(parseXml(renderJunit(cancelled, options)), 'testsuite')?.children.filter(
      (c) => c.name === 'testcase',
    ) ?? [];
  assert.deepEqual(
    cases.map((c) => child(c, 'skipped')?.attributes.message),
    ['cancelled: stopped by Ctrl-C', 'not run: cancelled (Ctrl-C)'],
  );

  const outOfTime = report([
    command('build'),
    command('test', { status: 'not_run', runs: [], logPath: null }),
  ]);
  const test = child(parseXml(renderJunit(outOfTime, options)), 'testsuite')?.children.find(
    (c) => c.attributes.name === 'test',
  );
  assert.equal(
    test && child(test, 'skipped')?.attributes.message,
    'not run: the time for all commands ran out',
  );
});

test('names, messages and text with <&"\'> are escaped and read back unchanged', () => {
  const nasty = `a<b & c>"d" 'e' ]]> </testcase>`;
  const xml = renderJunit(
    report([command(nasty, { status: 'failed', exitCode: 2, tail: nasty, run: nasty })], { summary: nasty }),
    { suiteName: nasty, timestamp: options.timestamp },
  );
  const root = parseXml(xml);
  const testcase = child(child(root, 'testsuite') as XmlElement, 'testcase') as XmlElement;
  assert.equal(root.attributes.name, nasty);
  assert.equal(testcase.attributes.name, nasty);
  assert.equal(child(testcase, 'failure')?.text, nasty);
  assert.ok(child(testcase, 'system-out')?.text.startsWith(`command: ${nasty}\n`));
  assert.ok(!xml.includes(']]>'));
});

test('control characters XML forbids become U+FFFD; tab, newlines, emoji and astral text survive', () => {
  const tail =
    'nul\u0000 esc\u001b[31m bell\u0007 bs\u0008 ff\u000c lone\uD800 bom-ish\uFFFE\uFFFF tab\there\r\nline2 😀 𝒳';
  const expected =
    'nul\uFFFD esc\uFFFD[31m bell\uFFFD bs\uFFFD ff\uFFFD lone\uFFFD bom-ish\uFFFD\uFFFD tab\there\r\nline2 😀 𝒳';
  const root = parseXml(
    renderJunit(
      report([command('x', { status: 'failed', exitCode: 1, tail, name: `x\u0000${tail}` })]),
      options,
    ),
  );
  const testcase = child(child(root, 'testsuite') as XmlElement, 'testcase') as XmlElement;
  assert.equal(child(testcase, 'failure')?.text, expected);
  assert.equal(testcase.attributes.name, `x\uFFFD${expected}`);
});

test('escaping helpers: attributes keep tab and newlines as references, text keeps them raw except CR', () => {
  assert.equal(escapeXmlAttribute('a\tb\nc\rd<&>"\''), 'a&#9;b&#10;c&#13;d&lt;&amp;&gt;&quot;&apos;');
  assert.equal(escapeXmlText('a\tb\nc\rd<&>"\''), 'a\tb\nc&#13;d&lt;&amp;&gt;"\'');
});

test('a report with no commands is still a well-formed suite of zero tests', () => {
  const root = parseXml(
    renderJunit(report([], { verdict: 'passed', summary: 'verified: 0 commands' }), options),
  );
  assert.deepEqual(root.attributes, {
    name: 'aide verify',
    tests: '0',
    failures: '0',
    errors: '0',
    skipped: '0',
    time: '12.345',
  });
});

test('suite properties: verdict, summary, isolation, and the withheld variable names when any', () => {
  const xml = renderJunit(
    report([command('build')], {
      verdict: 'passed',
      summary: 'verified: 1 command',
      withheldEnv: ['GITHUB_TOKEN', 'NPM_TOKEN'],
    }),
    options,
  );
  const props = child(child(parseXml(xml), 'testsuite') as XmlElement, 'properties')?.children.map((p) => [
    p.attributes.name,
    p.attributes.value,
  ]);
  assert.deepEqual(props, [
    ['aide.verdict', 'passed'],
    ['aide.summary', 'verified: 1 command'],
    ['aide.isolation', 'unshare; network off; workspace read-only'],
    ['aide.withheld_env', 'GITHUB_TOKEN NPM_TOKEN'],
  ]);
});

test('argv commands are shown shell-quoted where needed', () => {
  const xml = renderJunit(
    report([command('t', { run: ['node', '--test', 'a b.test.js', "it's"] })]),
    options,
  );
  const out = child(
    child(child(parseXml(xml), 'testsuite') as XmlElement, 'testcase') as XmlElement,
    'system-out',
  );
  assert.equal(out?.text.split('\n')[0], `command: node --test "a b.test.js" "it's"`);
});

test('the whole file for a passing run, byte for byte', () => {
  const xml = renderJunit(
    report(
      [
        command('test', {
          durationMs: 2500,
          tests: { runner: 'node:test', passed: 3, failed: 0, skipped: 1, total: 4 },
        }),
      ],
      { verdict: 'passed', summary: 'verified: 1 command, 3 tests passed', durationMs: 2600 },
    ),
    options,
  );
  assert.equal(
    xml,
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="aide verify" tests="1" failures="0" errors="0" skipped="0" time="2.600">',
      '  <testsuite name="aide verify" tests="1" failures="0" errors="0" skipped="0" time="2.600" timestamp="2025-01-31T12:00:00">',
      '    <properties>',
      '      <property name="aide.verdict" value="passed"/>',
      '      <property name="aide.summary" value="verified: 1 command, 3 tests passed"/>',
      '      <property name="aide.isolation" value="unshare; network off; workspace read-only"/>',
      '    </properties>',
      '    <testcase classname="aide.verify" name="test" time="2.500">',
      '      <system-out>command: npm run test',
      'tests: 3 passed, 0 failed, 1 skipped (node:test)',
      'log: /tmp/aide/logs/test-1.log</system-out>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n'),
  );
});

test('the checker itself rejects what a parser would', () => {
  const bad = [
    '<a><b></a></b>',
    '<a>x & y</a>',
    '<a x="1" x="2"/>',
    '<a>]]></a>',
    '<a/><b/>',
    '<a>\u0001</a>',
    '<a x="<"/>',
  ];
  for (const body of bad)
    assert.throws(() => parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`), body);
});
