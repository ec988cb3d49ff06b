/**
 * Checks a planned result must pass before it counts as applied: no invisible or
 * direction-changing characters in the new text (threat T8), and a JSON file that parsed
 * before still parses.
 */
import { findInvisible } from '../security/invisible.js';
import type { BlockFailure } from './plan-types.js';
import type { TextFile } from './text-file.js';

/** The added lines' invisible characters, as a failure; a BOM at the very start is allowed. */
export function invisibleFailure(
  path: string,
  lineAt: (index: number) => string | undefined,
  added: Iterable<number>,
): BlockFailure | undefined {
  const found: string[] = [];
  for (const index of added) {
    for (const ch of findInvisible(lineAt(index) ?? '')) {
      if (index === 0 && ch.column === 1 && ch.codePoint === 0xfeff) continue;
      found.push(`line ${index + 1}, column ${ch.column}: ${ch.label}`);
    }
  }
  if (found.length === 0) return undefined;
  return {
    kind: 'invisible-characters',
    message: `the new text for ${path} contains invisible or direction-changing characters: ${found.slice(0, 5).join('; ')}${found.length > 5 ? `; and ${found.length - 5} more` : ''}`,
    hint: 'Remove these characters: they hide what the code really says from the reviewer.',
  };
}

/** The parse error of a JSON file that was strict JSON before (null before: a new file), or undefined. */
export function invalidJson(
  path: string,
  before: TextFile | null,
  after: TextFile | null,
): string | undefined {
  if (!path.toLowerCase().endsWith('.json') || after === null) return undefined;
  const parses = (file: TextFile) => {
    try {
      JSON.parse(file.lines.join('\n'));
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  // A file that was not strict JSON before (tsconfig.json with comments) is not checked.
  if (before !== null && parses(before) !== undefined) return undefined;
  return parses(after);
}
