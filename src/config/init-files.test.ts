import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatJson } from './format-json.js';
import { gitignoreWithState, initialConfigText, initialSandboxText } from './init-files.js';
import { parseConfigFile, parseSandboxFile } from './load.js';

test('the files init writes are valid and equal to the defaults where they speak', () => {
  const config = parseConfigFile(initialConfigText(null), {});
  const defaults = parseConfigFile(null, {});
  assert.ok(config.ok && defaults.ok);
  assert.deepEqual(config.loaded.value, defaults.loaded.value);
  const sandbox = parseSandboxFile(
    initialSandboxText([{ name: 'test', run: ['npm', 'test'] }], '../node_modules/aide/schemas'),
  );
  assert.ok(sandbox.ok);
  assert.deepEqual(sandbox.loaded.value.commands, [{ name: 'test', run: ['npm', 'test'], optional: false }]);
});

test('$schema points at the installed schemas, or is left out', () => {
  assert.match(
    initialConfigText('../node_modules/aide/schemas'),
    /"\$schema": "\.\.\/node_modules\/aide\/schemas\/config\.schema\.json"/,
  );
  assert.match(
    initialSandboxText([], '../node_modules/aide/schemas'),
    /"\$schema": "\.\.\/node_modules\/aide\/schemas\/sandbox\.schema\.json"/,
  );
  assert.doesNotMatch(initialConfigText(null), /\$schema/);
});

test('verify commands are written one per line', () => {
  assert.equal(
    initialSandboxText(
      [
        { name: 'lint', run: ['npm', 'run', 'lint'] },
        { name: 'test', run: ['npm', 'test'] },
      ],
      null,
    ),
    '{\n  "commands": [\n    { "name": "lint", "run": ["npm", "run", "lint"] },\n    { "name": "test", "run": ["npm", "test"] }\n  ]\n}\n',
  );
});

test('an optional command is written with "optional": true, a required one without the field', () => {
  const text = initialSandboxText(
    [
      { name: 'test', run: ['make', 'test'] },
      { name: 'tox', run: ['tox'], optional: true },
    ],
    null,
  );
  assert.match(text, /\{ "name": "test", "run": \["make", "test"\] \},\n/);
  assert.match(text, /\{ "name": "tox", "run": \["tox"\], "optional": true \}\n/);
  const sandbox = parseSandboxFile(text);
  assert.ok(sandbox.ok);
  assert.deepEqual(
    sandbox.loaded.value.commands.map((c) => c.optional),
    [false, true],
  );
});

test('formatJson keeps nested objects readable and empty containers short', () => {
  assert.equal(
    formatJson({ a: { b: 1 }, c: [], d: {} }),
    '{\n  "a": {\n    "b": 1\n  },\n  "c": [],\n  "d": {}\n}\n',
  );
});

test('.gitignore: created with state/, appended when missing, untouched when present', () => {
  assert.equal(gitignoreWithState(null), 'state/\n');
  assert.equal(gitignoreWithState('plans/tmp/\n'), 'plans/tmp/\nstate/\n');
  assert.equal(gitignoreWithState('plans/tmp/'), 'plans/tmp/\nstate/\n');
  assert.equal(gitignoreWithState('a\r\nb\r\n'), 'a\r\nb\r\nstate/\r\n');
  assert.equal(gitignoreWithState(''), 'state/\n');
  for (const present of ['state/\n', 'x\n/state\n', '  state  \n', '/state/'])
    assert.equal(gitignoreWithState(present), null, present);
  assert.equal(gitignoreWithState('# state/\n'), '# state/\nstate/\n');
});
