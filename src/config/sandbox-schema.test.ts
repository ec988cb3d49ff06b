import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSandboxFile, type LoadResult } from './load.js';
import { formatProblem } from './problems.js';

function problems<T>(result: LoadResult<T>): string[] {
  assert.equal(result.ok, false, 'expected the file to be rejected');
  return result.ok ? [] : result.problems.map(formatProblem);
}

function value(text: string | null) {
  const result = parseSandboxFile(text);
  if (!result.ok) assert.fail(result.problems.map(formatProblem).join('\n'));
  return result.loaded.value;
}

test('a missing sandbox.json means every default', () => {
  assert.deepEqual(value(null), {
    commands: [],
    timeout_ms: 120000,
    total_timeout_ms: 600000,
    allow_network: false,
    keep_verify_writes: false,
    link: ['node_modules', '*/node_modules', '*/*/node_modules'],
    flake_reruns: 1,
    max_attempts: 3,
    output_tail_bytes: 2048,
    output_log_bytes: 16777216,
    env_allow: [],
    home_binds: [],
    allowed_commands: [],
  });
});

test('commands take an argv array or a shell string, with optional timeout and env', () => {
  const { commands } = value(
    JSON.stringify({
      commands: [
        { name: 'lint', run: ['npm', 'run', 'lint'] },
        { name: 'test', run: 'make test', timeout_ms: 30000, env: { CI: '1' } },
      ],
    }),
  );
  assert.deepEqual(commands, [
    { name: 'lint', run: ['npm', 'run', 'lint'], optional: false },
    { name: 'test', run: 'make test', timeout_ms: 30000, env: { CI: '1' }, optional: false },
  ]);
});

test('a command is optional only when it says so', () => {
  const { commands } = value(
    JSON.stringify({
      commands: [
        { name: 'test', run: 'npm test' },
        { name: 'e2e', run: 'npm run e2e', optional: true },
      ],
    }),
  );
  assert.deepEqual(
    commands.map((c) => [c.name, c.optional]),
    [
      ['test', false],
      ['e2e', true],
    ],
  );
});

test('"optional" must be true or false', () => {
  const text = '{\n  "commands": [\n    { "name": "e2e", "run": "npm run e2e", "optional": "yes" }\n  ]\n}';
  assert.deepEqual(problems(parseSandboxFile(text)), [
    '.aide/sandbox.json:3:44: commands[0].optional: expected true or false, got "yes"',
  ]);
});

test('an unknown key inside a command names the file, the JSON path, line:column and a did-you-mean', () => {
  const text = [
    '{',
    '  "commands": [',
    '    { "name": "lint", "run": ["npm", "run", "lint"] },',
    '    {',
    '      "name": "test",',
    '      "run": ["npm", "test"],',
    '      "timout_ms": 30000',
    '    }',
    '  ]',
    '}',
  ].join('\n');
  const result = parseSandboxFile(text);
  assert.deepEqual(problems(result), [
    '.aide/sandbox.json:7:7: commands[1].timout_ms: unknown key (did you mean "timeout_ms"?)',
  ]);
  assert.equal(result.ok ? null : result.problems[0]?.hint, 'Rename it to "timeout_ms".');
});

test('a timeout written as text is rejected with what was found', () => {
  const text = '{\n  "commands": [\n    { "name": "test", "run": "npm test", "timeout_ms": "30s" }\n  ]\n}';
  assert.deepEqual(problems(parseSandboxFile(text)), [
    '.aide/sandbox.json:3:42: commands[0].timeout_ms: expected a whole number of milliseconds from 1 to 86400000 (e.g. 30000), got "30s"',
  ]);
});

test('duplicate command names are an error naming both commands', () => {
  const text =
    '{ "commands": [ { "name": "test", "run": "a" }, { "name": "lint", "run": "b" }, { "name": "test", "run": "c" } ] }';
  const [problem] = problems(parseSandboxFile(text));
  assert.match(
    problem ?? '',
    /^\.aide\/sandbox\.json:1:83: commands\[2\]\.name: "test" is already the name of commands\[0\]; commands\[0\] and commands\[2\] need different names$/,
  );
});

test('a duplicate name is reported together with other problems in the list', () => {
  const text = '{ "commands": [ { "name": "t", "run": "a" }, { "name": "t", "run": [] } ] }';
  assert.equal(problems(parseSandboxFile(text)).length, 2);
});

test('an empty argv, a missing run and a bad name are rejected', () => {
  const text =
    '{ "commands": [ { "name": "a", "run": [] }, { "name": "b" }, { "name": "-x", "run": "y" } ] }';
  const found = problems(parseSandboxFile(text));
  assert.match(
    found[0] ?? '',
    /commands\[0\]\.run: expected an argv array of non-empty strings .*, got \[\]$/,
  );
  assert.match(found[1] ?? '', /commands\[1\]\.run: missing \(required\): expected an argv array/);
  assert.match(found[2] ?? '', /commands\[2\]\.name: expected a command name/);
});

test('links must be relative paths inside the workspace', () => {
  const found = problems(
    parseSandboxFile('{ "link": ["node_modules", "../shared", "/usr/lib", "a/../../b", "vendor/.."] }'),
  );
  assert.deepEqual(
    found.map((p) => /link\[(\d)\]/.exec(p)?.[1]),
    ['1', '2', '3', '4'],
  );
});

test('home_binds are "~/" paths inside the home folder, never the home itself or a way out of it', () => {
  assert.deepEqual(value('{ "home_binds": ["~/.cache/pip", "~/.gitconfig"] }').home_binds, [
    '~/.cache/pip',
    '~/.gitconfig',
  ]);
  const found = problems(
    parseSandboxFile('{ "home_binds": ["~/.m2", "~/", "~", "/etc/passwd", "~/../x", "~/a/./b", ".cache"] }'),
  );
  assert.deepEqual(
    found.map((p) => /home_binds\[(\d)\]/.exec(p)?.[1]),
    ['1', '2', '3', '4', '5', '6'],
  );
  assert.match(found[0] ?? '', /starting with "~\/"/);
});

test('environment names in env_allow and a command env must be variable names', () => {
  const found = problems(
    parseSandboxFile(
      '{ "env_allow": ["PATH", "MY-VAR"], "commands": [ { "name": "t", "run": "x", "env": { "A B": "1" } } ] }',
    ),
  );
  assert.match(found[0] ?? '', /env_allow\[1\]: expected the name of an environment variable/);
  assert.match(
    found[1] ?? '',
    /commands\[0\]\.env\["A B"\]: invalid key: expected the name of an environment variable/,
  );
});

test('invalid JSON reports the line and column of the first error', () => {
  assert.deepEqual(problems(parseSandboxFile('{\n  "timeout_ms": 1000,\n}\n')), [
    '.aide/sandbox.json:2:21: trailing comma (JSON allows no "," after the last item)',
  ]);
  assert.deepEqual(problems(parseSandboxFile('{\n  // verify\n  "timeout_ms": 1000\n}')), [
    '.aide/sandbox.json:2:3: comments are not allowed in JSON',
  ]);
  assert.deepEqual(problems(parseSandboxFile('{\n  "timeout_ms" 1000\n}')), [
    '.aide/sandbox.json:2:16: expected ":" after the key',
  ]);
  assert.deepEqual(problems(parseSandboxFile("{ 'timeout_ms': 1 }")), [
    '.aide/sandbox.json:1:3: unexpected character; expected a JSON value (strings take "double quotes")',
  ]);
});

test('an empty file or a non-object is an error, not defaults', () => {
  assert.deepEqual(problems(parseSandboxFile('')), [
    '.aide/sandbox.json:1:1: the file is empty; expected a JSON object such as {}',
  ]);
  assert.deepEqual(problems(parseSandboxFile('[]')), [
    '.aide/sandbox.json:1:1: expected a JSON object ({ … }) at the top level',
  ]);
});

test('a key given twice is an error (JSON would silently keep the last)', () => {
  assert.deepEqual(problems(parseSandboxFile('{\n  "timeout_ms": 1000,\n  "timeout_ms": 2000\n}')), [
    '.aide/sandbox.json:3:3: timeout_ms: the key appears twice in this object (first at line 2); JSON would silently keep only the last one',
  ]);
});

test('a byte order mark is tolerated and positions stay right', () => {
  assert.deepEqual(problems(parseSandboxFile('\uFEFF{\n  "timout_ms": 1\n}')), [
    '.aide/sandbox.json:2:3: timout_ms: unknown key (did you mean "timeout_ms"?)',
  ]);
});

test('commands are listed item by item with their lines', () => {
  const result = parseSandboxFile(
    '{\n  "commands": [\n    { "name": "test", "run": ["npm", "test"] }\n  ]\n}',
  );
  assert.ok(result.ok);
  const paths = result.loaded.entries.map((e) => e.path);
  assert.deepEqual(paths.slice(0, 2), ['commands[0].name', 'commands[0].run']);
  assert.deepEqual(result.loaded.entries[1]?.source, {
    kind: 'file',
    file: '.aide/sandbox.json',
    line: 3,
    column: 23,
  });
});
