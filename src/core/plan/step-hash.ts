/**
 * A stable hash of one plan step's content, so a resumed session can say which steps changed
 * since it was interrupted. Everything but the step's number counts (its title, intent, files,
 * Run: and Verify: lines, edits): the number is what steps are matched by. Keys are sorted, so
 * the hash does not depend on the order fields happen to be built in.
 */
import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** sha256 (hex) of the step without its number. */
export function stepHash(step: { readonly number: number }): string {
  const content: Record<string, unknown> = { ...step };
  delete content['number'];
  return createHash('sha256')
    .update(JSON.stringify(canonical(content)))
    .digest('hex');
}

/** sha256 (hex) of a plan file's text, as read. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
