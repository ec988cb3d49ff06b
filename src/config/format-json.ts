/**
 * JSON for files people edit: two-space indentation like JSON.stringify, but short arrays of
 * plain values and short objects inside arrays stay on one line, so a verify command reads
 * `{ "name": "test", "run": ["npm", "test"] }` rather than eight lines.
 */
const WIDTH = 100;

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(([key, member]) => `${JSON.stringify(key)}: ${inline(member)}`);
    return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
  }
  return JSON.stringify(value);
}

function render(value: unknown, indent: string, inArray: boolean): string {
  if (isScalar(value)) return JSON.stringify(value);
  const oneLine = inline(value);
  const fits = indent.length + oneLine.length <= WIDTH;
  if (Array.isArray(value)) {
    if (value.length === 0 || (fits && value.every(isScalar))) return oneLine;
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${render(item, inner, true)}`).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0 || (inArray && fits)) return oneLine;
  const inner = `${indent}  `;
  return `{\n${entries.map(([key, member]) => `${inner}${JSON.stringify(key)}: ${render(member, inner, false)}`).join(',\n')}\n${indent}}`;
}

/** The value as JSON text with a final newline. */
export function formatJson(value: unknown): string {
  return `${render(value, '', false)}\n`;
}
