import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { usage } from './check-call.js';
import { findTool, parametersOf, TOOL_ALIASES, TOOLS, toolsFor } from './tools.js';

describe('the tool contract', () => {
  test('Plan mode offers only the read-only tools and submit_plan', () => {
    assert.deepEqual(
      toolsFor('plan').map((tool) => tool.name),
      ['read_file', 'list_files', 'search_files', 'submit_plan'],
    );
    assert.deepEqual(
      toolsFor('act').map((tool) => tool.name),
      [
        'read_file',
        'list_files',
        'search_files',
        'replace_in_file',
        'write_file',
        'run_command',
        'attempt_completion',
      ],
    );
  });

  test('every tool has a one-line description for the system prompt', () => {
    for (const tool of TOOLS) assert.match(tool.description, /^[^\n]{10,110}$/, tool.name);
  });

  test('parameters in contract order, with the required ones marked', () => {
    const read = findTool('read_file');
    assert.ok(read);
    assert.deepEqual(parametersOf(read), [
      { name: 'path', required: true, kind: 'scalar' },
      { name: 'offset', required: false, kind: 'scalar' },
      { name: 'limit', required: false, kind: 'scalar' },
    ]);
  });

  test('every alias and kind names a real parameter, every tool alias a real tool', () => {
    for (const tool of TOOLS) {
      const names = Object.keys(tool.parameters.shape);
      assert.deepEqual(Object.keys(tool.kinds).sort(), [...names].sort(), tool.name);
      for (const [alias, target] of Object.entries(tool.aliases)) {
        assert.ok(names.includes(target), `${tool.name}: ${alias} → ${target}`);
        assert.ok(!names.includes(alias), `${tool.name}: alias ${alias} shadows a parameter`);
      }
    }
    for (const target of Object.values(TOOL_ALIASES)) assert.ok(findTool(target), target);
  });

  test('tool names are found in any case, dashed or camelCase', () => {
    for (const written of [
      'read_file',
      'READ_FILE',
      'Read_File',
      'readFile',
      'ReadFile',
      'read-file',
      'readfile',
    ]) {
      assert.equal(findTool(written)?.name, 'read_file', written);
    }
    assert.equal(findTool('execute_command')?.name, 'run_command');
    assert.equal(findTool('READFILE')?.name, 'read_file');
    assert.equal(findTool('read_files'), undefined);
  });
});

test("the README's protocol section is the contract: every tool's row, every alias", () => {
  // dist/src/core/agent/tools.test.js → <repo>/README.md
  const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## The agent protocol'), readme.indexOf('## Safety model'));
  for (const tool of TOOLS) {
    const row = `| \`${usage(tool)}\` | ${tool.modes.join(', ')} | ${tool.description} |`;
    assert.ok(section.includes(row), `README.md lacks the row:\n${row}`);
    for (const alias of Object.keys(tool.aliases)) assert.ok(section.includes(`\`${alias}\``), alias);
  }
  for (const alias of Object.keys(TOOL_ALIASES)) assert.ok(section.includes(`\`${alias}\``), alias);
});
