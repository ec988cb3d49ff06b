/**
 * What the definition extractors need of a syntax tree, and the helpers they share. web-tree-sitter's
 * `Node` has this shape; the extractors name only this interface, so they never load the runtime.
 */

/** One node of a tree-sitter syntax tree (the part of web-tree-sitter's `Node` the extractors read). */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  /** True when this node or one below it is an ERROR or a MISSING node. */
  readonly hasError: boolean;
  readonly namedChildren: ReadonlyArray<SyntaxNode | null>;
  childForFieldName(field: string): SyntaxNode | null;
  childrenForFieldName(field: string): ReadonlyArray<SyntaxNode | null>;
}

/** The longest a parameter list or a heading gets before it is cut with `…`. */
const MAX_PART = 80;
/** The most member names a class line lists before `…`. */
const MAX_MEMBERS = 12;

/** `text` on one line, runs of white space as one space, cut at `max` characters. */
export function oneLine(text: string, max = MAX_PART): string {
  // A parameter list written one per line reads `(a, b)`, not `( a, b, )`.
  const flat = text
    .replace(/\s+/g, ' ')
    .replace(/([([]) /g, '$1')
    .replace(/,? ([)\]])/g, '$1')
    .trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The node's named children, without the nulls web-tree-sitter may hand back. */
export function children(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((child): child is SyntaxNode => child !== null);
}

/** The text of the node's `name` field (or `field`), or null when it has none. */
export function nameOf(node: SyntaxNode, field = 'name'): string | null {
  const name = node.childForFieldName(field);
  return name === null ? null : oneLine(name.text);
}

/** The node's parameter list as written (`(inventory, options = {})`), on one line, or `()`. */
export function paramsOf(node: SyntaxNode, field = 'parameters'): string {
  const params = node.childForFieldName(field);
  return params === null ? '()' : oneLine(params.text);
}

/** The node's type parameters (`<T, K>`), or nothing. */
export function typeParamsOf(node: SyntaxNode): string {
  const params = node.childForFieldName('type_parameters');
  return params === null ? '' : oneLine(params.text, 40);
}

/** `heading: a, b, c` with at most MAX_MEMBERS names (then `…`); just `heading` without members. */
export function withMembers(heading: string, members: readonly string[]): string {
  if (members.length === 0) return heading;
  const shown = members.slice(0, MAX_MEMBERS).join(', ');
  return `${heading}: ${shown}${members.length > MAX_MEMBERS ? ', …' : ''}`;
}

/** The names of `body`'s children whose type is in `types`, each through `name` (null: skipped). */
export function memberNames(
  body: SyntaxNode | null,
  types: ReadonlySet<string>,
  name: (member: SyntaxNode) => string | null = (member) => nameOf(member),
): string[] {
  if (body === null) return [];
  const names: string[] = [];
  for (const member of children(body)) {
    if (!types.has(member.type) || member.hasError) continue;
    const found = name(member);
    if (found !== null && !names.includes(found)) names.push(found);
  }
  return names;
}
