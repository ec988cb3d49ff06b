import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  configReference,
  REFERENCE_END,
  REFERENCE_START,
  schemaFiles,
  withConfigReference,
} from './reference.js';

test('every field in the JSON Schemas has a description, for editors', () => {
  const missing: string[] = [];
  const walk = (schema: Record<string, unknown>, path: string) => {
    for (const [key, value] of Object.entries(
      (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>,
    )) {
      if (typeof value['description'] !== 'string') missing.push(`${path}${key}`);
      walk(value, `${path}${key}.`);
      const items = value['items'] as Record<string, unknown> | undefined;
      if (items !== undefined) walk(items, `${path}${key}[].`);
    }
  };
  for (const [file, text] of Object.entries(schemaFiles()))
    walk(JSON.parse(text) as Record<string, unknown>, `${file}: `);
  assert.deepEqual(missing, []);
});

test('every number and every list in the JSON Schemas has a ceiling', () => {
  const unbounded: string[] = [];
  const walk = (schema: Record<string, unknown>, path: string) => {
    const type = schema['type'];
    if ((type === 'integer' || type === 'number') && typeof schema['maximum'] !== 'number')
      unbounded.push(path);
    if (type === 'array' && typeof schema['maxItems'] !== 'number') unbounded.push(path);
    for (const [key, value] of Object.entries(
      (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>,
    ))
      walk(value, `${path}.${key}`);
    for (const variant of (schema['anyOf'] ?? []) as Array<Record<string, unknown>>) walk(variant, path);
    const items = schema['items'] as Record<string, unknown> | undefined;
    if (items !== undefined) walk(items, `${path}[]`);
  };
  for (const [file, text] of Object.entries(schemaFiles()))
    walk(JSON.parse(text) as Record<string, unknown>, file);
  assert.deepEqual(unbounded, []);
});

test('the reference lists every key, its default and the environment overrides', () => {
  const reference = configReference();
  for (const key of [
    '`model.endpoint`',
    '`limits.max_iterations`',
    '`protected_paths`',
    '`commands[].timeout_ms`',
    '`allowed_commands`',
  ]) {
    assert.ok(reference.includes(key), key);
  }
  assert.match(reference, /\| `model\.context_tokens` \| integer 1024–1048576 \| `16384` \|/);
  assert.match(reference, /\| `AIDE_CONTEXT_TOKENS` \| `model\.context_tokens` \|/);
});

test('the reference replaces what is between the markers and nothing else', () => {
  const readme = `# x\n\nintro\n\n## Configuration\n\nprose\n\n${REFERENCE_START}\nold\n${REFERENCE_END}\n\n## After\n`;
  const updated = withConfigReference(readme);
  assert.ok(
    updated.startsWith('# x\n\nintro\n\n## Configuration\n\nprose\n\n<!-- config-reference:start -->\n'),
  );
  assert.ok(updated.endsWith(`${REFERENCE_END}\n\n## After\n`));
  assert.ok(!updated.includes('\nold\n'));
  assert.equal(withConfigReference(updated), updated);
});

test('without markers, a Configuration section is added at the end', () => {
  const updated = withConfigReference('# x\n');
  assert.ok(updated.startsWith(`# x\n\n## Configuration\n\n${REFERENCE_START}\n`));
  assert.ok(updated.endsWith(`${REFERENCE_END}\n`));
});

test('an optional command is described in the JSON Schema and the reference: a boolean, false by default', () => {
  const schema = JSON.parse(schemaFiles()['schemas/sandbox.schema.json'] ?? '{}') as {
    properties: {
      commands: { items: { properties: Record<string, Record<string, unknown>>; required: string[] } };
    };
  };
  const optional = schema.properties.commands.items.properties['optional'];
  assert.equal(optional?.['type'], 'boolean');
  assert.equal(optional?.['default'], false);
  assert.match(
    String(optional?.['description']),
    /^Run only when asked for: by a plan step's Verify: line or `aide verify --commands`/,
  );
  assert.deepEqual(schema.properties.commands.items.required, ['name', 'run']);
  assert.match(
    configReference(),
    /\| `commands\[\]\.optional` \| boolean \| `false` \| Run only when asked for: by a plan step's Verify: line or `aide verify --commands`\. \|/,
  );
});
