/**
 * Top-level definitions of Go, Rust, Java and C/C++: types with their methods, functions with their
 * parameters, exported constants, namespaces and modules.
 */
import {
  children,
  memberNames,
  nameOf,
  oneLine,
  paramsOf,
  type SyntaxNode,
  typeParamsOf,
  withMembers,
} from './syntax.js';

/** Go: `type Inventory struct: Add, Count` (methods grouped under their receiver), `func Name(params)`. */
export function extractGo(root: SyntaxNode): string[] {
  const types = new Map<string, { heading: string; methods: string[] }>();
  const lines: Array<string | { type: string }> = [];
  const methods: Array<{ receiver: string; line: string; name: string }> = [];
  for (const node of children(root)) {
    if (node.hasError) continue;
    if (node.type === 'function_declaration')
      lines.push(`func ${nameOf(node) ?? '?'}${typeParamsOf(node)}${paramsOf(node)}`);
    if (node.type === 'method_declaration') {
      const receiver = /(\w+)(?:\[[^\]]*\])?\s*\)$/.exec(node.childForFieldName('receiver')?.text ?? '')?.[1];
      const name = nameOf(node) ?? '?';
      methods.push({
        receiver: receiver ?? '?',
        name,
        line: `func (${receiver ?? '?'}) ${name}${paramsOf(node)}`,
      });
    }
    if (node.type === 'type_declaration')
      for (const spec of children(node)) {
        const name = nameOf(spec);
        if (name === null) continue;
        const kind = spec.childForFieldName('type')?.type;
        const heading = `type ${name}${kind === 'struct_type' ? ' struct' : kind === 'interface_type' ? ' interface' : ''}`;
        types.set(name, { heading, methods: [] });
        lines.push({ type: name });
      }
    if (node.type === 'const_declaration' || node.type === 'var_declaration') {
      const names = children(node).flatMap((spec) => spec.childrenForFieldName('name'));
      const exported = names
        .flatMap((name) => (name === null ? [] : [name.text]))
        .filter((name) => /^[A-Z]/.test(name));
      if (exported.length > 0)
        lines.push(`${node.type === 'const_declaration' ? 'const' : 'var'} ${exported.join(', ')}`);
    }
  }
  const loose: string[] = [];
  for (const method of methods) {
    const owner = types.get(method.receiver);
    if (owner === undefined) loose.push(method.line);
    else owner.methods.push(method.name);
  }
  const rendered = lines.map((line) => {
    if (typeof line === 'string') return line;
    const type = types.get(line.type);
    return type === undefined ? '' : withMembers(type.heading, type.methods);
  });
  return [...rendered.filter((line) => line !== ''), ...loose];
}

const RUST_FUNCTIONS = new Set(['function_item', 'function_signature_item']);
const RUST_TYPES: Record<string, string> = {
  struct_item: 'struct',
  enum_item: 'enum',
  union_item: 'union',
  type_item: 'type',
  mod_item: 'mod',
  const_item: 'const',
  static_item: 'static',
};

/** Rust: `fn name(params)`, `struct Name`, `trait Name: methods`, `impl Trait for Type: methods`. */
export function extractRust(root: SyntaxNode): string[] {
  const lines: string[] = [];
  for (const node of children(root)) {
    if (node.hasError) continue;
    const kind = RUST_TYPES[node.type];
    if (kind !== undefined) lines.push(`${kind} ${nameOf(node) ?? '?'}${typeParamsOf(node)}`);
    else if (RUST_FUNCTIONS.has(node.type))
      lines.push(`fn ${nameOf(node) ?? '?'}${typeParamsOf(node)}${paramsOf(node)}`);
    else if (node.type === 'trait_item')
      lines.push(
        withMembers(
          `trait ${nameOf(node) ?? '?'}`,
          memberNames(node.childForFieldName('body'), RUST_FUNCTIONS),
        ),
      );
    else if (node.type === 'impl_item') {
      const trait = node.childForFieldName('trait');
      const type = oneLine(node.childForFieldName('type')?.text ?? '?', 40);
      const heading = trait === null ? `impl ${type}` : `impl ${oneLine(trait.text, 40)} for ${type}`;
      lines.push(withMembers(heading, memberNames(node.childForFieldName('body'), RUST_FUNCTIONS)));
    } else if (node.type === 'macro_definition') lines.push(`macro ${nameOf(node) ?? '?'}!`);
  }
  return lines;
}

const JAVA_TYPES: Record<string, string> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'record',
  annotation_type_declaration: '@interface',
};
const JAVA_METHODS = new Set(['method_declaration', 'constructor_declaration']);

/** Java: `class Name<T>: methods` for each top-level type (an enum's methods follow its constants). */
export function extractJava(root: SyntaxNode): string[] {
  const lines: string[] = [];
  for (const node of children(root)) {
    const kind = JAVA_TYPES[node.type];
    if (kind === undefined || node.hasError) continue;
    const body = node.childForFieldName('body');
    const enumBody =
      body === null ? undefined : children(body).find((c) => c.type === 'enum_body_declarations');
    const methods = memberNames(enumBody ?? body, JAVA_METHODS);
    const params = kind === 'record' ? paramsOf(node) : '';
    lines.push(withMembers(`${kind} ${nameOf(node) ?? '?'}${typeParamsOf(node)}${params}`, methods));
  }
  return lines;
}

/** Wrappers whose children are top-level too: header guards, `extern "C" {}`, templates. */
const C_TRANSPARENT = new Set([
  'preproc_ifdef',
  'preproc_if',
  'preproc_else',
  'preproc_elif',
  'linkage_specification',
  'declaration_list',
  'template_declaration',
]);
const C_TYPES = new Set(['struct_specifier', 'class_specifier', 'union_specifier', 'enum_specifier']);

/** C and C++: function definitions and prototypes as written, structs and classes with their methods. */
export function extractC(root: SyntaxNode): string[] {
  return cBody(root, '');
}

function cBody(body: SyntaxNode, prefix: string): string[] {
  const lines: string[] = [];
  for (const node of children(body)) {
    // A wrapper is looked into even when broken: `extern "C" {` split across two #ifdefs is an
    // error to the parser, and it wraps a whole header.
    if (C_TRANSPARENT.has(node.type)) lines.push(...cBody(node.childForFieldName('body') ?? node, prefix));
    else if (node.hasError) continue;
    else if (node.type === 'namespace_definition') {
      const inner = node.childForFieldName('body');
      if (inner !== null) lines.push(...cBody(inner, `${prefix}${nameOf(node) ?? ''}::`));
    } else if (node.type === 'function_definition' || node.type === 'declaration') {
      const line = cFunction(node, prefix);
      const type = node.childForFieldName('type');
      if (line !== null) lines.push(line);
      else if (type !== null && C_TYPES.has(type.type)) lines.push(...cType(type, prefix));
    } else if (C_TYPES.has(node.type)) lines.push(...cType(node, prefix));
    else if (node.type === 'type_definition') {
      const name = node.childForFieldName('declarator');
      if (name !== null) lines.push(`typedef ${prefix}${oneLine(name.text, 40)}`);
    }
  }
  return lines;
}

/** `int add(int a, int b)` for a definition or a prototype; null for a variable. */
function cFunction(node: SyntaxNode, prefix: string): string | null {
  const declarator = node.childForFieldName('declarator');
  if (declarator === null || functionDeclarator(declarator) === null) return null;
  const type = node.childForFieldName('type');
  return `${type === null ? '' : `${oneLine(type.text, 30)} `}${prefix}${oneLine(declarator.text)}`;
}

/** The function_declarator under pointers and references (`*make(…)`), or null. */
function functionDeclarator(node: SyntaxNode): SyntaxNode | null {
  let at: SyntaxNode | null = node;
  for (let depth = 0; at !== null && depth < 8; depth++) {
    if (at.type === 'function_declarator') return at;
    at =
      at.childForFieldName('declarator') ?? children(at).find((c) => c.type.endsWith('declarator')) ?? null;
  }
  return null;
}

/** A struct or class with a body (a bare `struct x;` or a use of one is no definition). */
function cType(node: SyntaxNode, prefix: string): string[] {
  const name = nameOf(node);
  const body = node.childForFieldName('body');
  if (name === null || body === null) return [];
  const kind = node.type.replace(/_specifier$/, '');
  const methods = children(body).flatMap((member) => {
    if (
      member.type !== 'field_declaration' &&
      member.type !== 'function_definition' &&
      member.type !== 'declaration'
    )
      return [];
    const declarator = member.childForFieldName('declarator');
    const fn = declarator === null ? null : functionDeclarator(declarator);
    const method = fn?.childForFieldName('declarator');
    return method === null || method === undefined ? [] : [oneLine(method.text, 40)];
  });
  return [withMembers(`${kind} ${prefix}${name}`, [...new Set(methods)])];
}
