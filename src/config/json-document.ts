/**
 * Strict JSON with positions: the parsed value, plus where each value and key sits in the
 * text, so a problem can be reported as file:line:column. jsonc-parser keeps offsets; comments
 * and trailing commas are rejected because the files are plain JSON (other tools read them).
 */
import {
  findNodeAtLocation,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
  type ParseErrorCode,
} from 'jsonc-parser';

export type JsonPath = readonly (string | number)[];

export interface JsonDocument {
  text: string;
  tree: Node;
  value: unknown;
}

export type ParsedJson =
  { ok: true; document: JsonDocument } | { ok: false; offset: number; message: string };

const MESSAGES: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: 'unexpected character; expected a JSON value (strings take "double quotes")',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a key in "double quotes"',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":" after the key',
  CommaExpected: 'expected "," between items',
  CloseBraceExpected: 'expected "}" to close the object',
  CloseBracketExpected: 'expected "]" to close the array',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'unterminated string (a string cannot span lines; write \\n)',
  UnexpectedEndOfNumber: 'invalid number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape in a string',
  InvalidCharacter: 'invalid character in a string (control characters must be escaped)',
};

/** A comma right before `}` or `]`: the most common hand-edit mistake, worth naming. */
function trailingCommaAt(text: string, offset: number): number | undefined {
  if (text[offset] !== '}' && text[offset] !== ']') return undefined;
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i] ?? '')) i--;
  return text[i] === ',' ? i : undefined;
}

function describeError(
  text: string,
  code: ParseErrorCode,
  offset: number,
): { offset: number; message: string } {
  const comma = trailingCommaAt(text, offset);
  if (comma !== undefined)
    return { offset: comma, message: 'trailing comma (JSON allows no "," after the last item)' };
  if (text.trim() === '')
    return { offset: 0, message: 'the file is empty; expected a JSON object such as {}' };
  return {
    offset,
    message: MESSAGES[printParseErrorCode(code)] ?? `invalid JSON (${printParseErrorCode(code)})`,
  };
}

/**
 * How deep arrays and objects may sit inside each other. aide's own files need four levels; the
 * parser, the schema check and the error reporter all recurse, and a file nested some thousands
 * deep overflowed the stack (an internal error) before this guard.
 */
export const MAX_JSON_DEPTH = 64;

/** Offset of the first `[` or `{` (outside strings) that opens level MAX_JSON_DEPTH + 1, if any. A linear scan. */
export function tooDeepAt(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

/** Parses strict JSON; on failure, the first error only (later ones are usually its echoes). */
export function parseJson(text: string): ParsedJson {
  // A UTF-8 byte order mark, as some Windows editors write, becomes a space: offsets stay put.
  const source = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  const deep = tooDeepAt(source);
  if (deep !== undefined) {
    return {
      ok: false,
      offset: deep,
      message: `arrays and objects are nested more than ${MAX_JSON_DEPTH} levels deep here; aide's settings need a few`,
    };
  }
  const errors: ParseError[] = [];
  const tree = parseTree(source, errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first !== undefined) return { ok: false, ...describeError(source, first.error, first.offset) };
  if (tree === undefined)
    return { ok: false, offset: 0, message: 'the file is empty; expected a JSON object such as {}' };
  // jsonc-parser is lenient in corners JSON.parse is not; let the strict parser have the last word.
  try {
    return { ok: true, document: { text: source, tree, value: JSON.parse(source) as unknown } };
  } catch (error) {
    return { ok: false, offset: 0, message: `invalid JSON: ${(error as Error).message}` };
  }
}

/** The node for a value; a member's position is its key's, which is where people look. */
function positionOf(node: Node): number {
  return node.parent?.type === 'property' ? node.parent.offset : node.offset;
}

/**
 * Offset of the value at `path`, or of its nearest ancestor that exists (a missing key is
 * reported at the object that lacks it). With `key`, the offset of that key in the object.
 */
export function offsetOf(document: JsonDocument, path: JsonPath, key?: string): number {
  if (key !== undefined) {
    const object = findNodeAtLocation(document.tree, [...path]);
    const property = object?.children?.find((p) => p.children?.[0]?.value === key);
    if (property !== undefined) return property.offset;
  }
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(document.tree, [...path.slice(0, depth)]);
    if (node !== undefined) return positionOf(node);
  }
  return 0;
}

/** True when the file sets the value at `path` itself. */
export function hasValueAt(document: JsonDocument, path: JsonPath): boolean {
  return findNodeAtLocation(document.tree, [...path]) !== undefined;
}

export interface DuplicateKey {
  path: JsonPath;
  key: string;
  offset: number;
  firstOffset: number;
}

/** Keys that appear twice in one object: JSON.parse silently keeps the last, hiding the first. */
export function findDuplicateKeys(node: Node, path: JsonPath = []): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  if (node.type === 'object') {
    const seen = new Map<string, number>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode === undefined || typeof keyNode.value !== 'string') continue;
      const key = keyNode.value;
      const firstOffset = seen.get(key);
      if (firstOffset === undefined) seen.set(key, property.offset);
      else found.push({ path, key, offset: property.offset, firstOffset });
      if (valueNode !== undefined) found.push(...findDuplicateKeys(valueNode, [...path, key]));
    }
  } else if (node.type === 'array') {
    (node.children ?? []).forEach((child, index) =>
      found.push(...findDuplicateKeys(child, [...path, index])),
    );
  }
  return found;
}
