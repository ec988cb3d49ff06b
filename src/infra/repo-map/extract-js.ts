/**
 * Top-level definitions of JavaScript and TypeScript (ESM and CommonJS): functions with their
 * parameters, classes with their methods, interfaces with their members, types, enums, namespaces,
 * exported constants, and what `module.exports` / `exports.x` publish.
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

const CLASS_MEMBERS = new Set(['method_definition', 'method_signature', 'abstract_method_signature']);
const INTERFACE_MEMBERS = new Set(['property_signature', 'method_signature']);
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_VALUES = new Set(['class']);

/** The definitions among `root`'s top-level statements, one line each, in file order. */
export function extractJavaScript(root: SyntaxNode): string[] {
  const lines: string[] = [];
  for (const node of children(root)) {
    if (node.hasError) continue;
    lines.push(...statement(node, false));
  }
  return lines;
}

function statement(node: SyntaxNode, exported: boolean): string[] {
  switch (node.type) {
    case 'export_statement':
      return exportStatement(node);
    case 'ambient_declaration': // `declare function f(): void;` and friends
      return children(node).flatMap((inner) => statement(inner, exported));
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature':
      return [functionLine(nameOf(node), node)];
    case 'class_declaration':
    case 'abstract_class_declaration':
      return [classLine(node)];
    case 'interface_declaration':
      return [interfaceLine(node)];
    case 'type_alias_declaration':
      return [`type ${nameOf(node) ?? '?'}${typeParamsOf(node)}`];
    case 'enum_declaration':
      return [`enum ${nameOf(node) ?? '?'}`];
    case 'internal_module':
    case 'module':
      return [`namespace ${nameOf(node) ?? '?'}`];
    case 'lexical_declaration':
    case 'variable_declaration':
      return declarators(node, exported);
    case 'expression_statement':
      return commonJsExport(node);
    default:
      return [];
  }
}

function exportStatement(node: SyntaxNode): string[] {
  const declaration = node.childForFieldName('declaration');
  if (declaration !== null) return statement(declaration, true);
  const value = node.childForFieldName('value');
  if (value === null) return []; // `export { a, b }` and re-exports: defined elsewhere
  // `export default function (a) {}` and `export default class {}`: anonymous.
  if (FUNCTION_VALUES.has(value.type)) return [`export default function${functionParams(value)}`];
  if (CLASS_VALUES.has(value.type)) return [classLine(value, nameOf(value) ?? 'default')];
  return [];
}

function functionLine(name: string | null, node: SyntaxNode): string {
  return `function ${name ?? ''}${typeParamsOf(node)}${functionParams(node)}`;
}

/** An arrow function's single bare parameter (`x => x`) is its `parameter` field. */
function functionParams(node: SyntaxNode): string {
  const single = node.childForFieldName('parameter');
  return single === null ? paramsOf(node) : `(${oneLine(single.text)})`;
}

function classLine(node: SyntaxNode, name = nameOf(node)): string {
  const methods = memberNames(node.childForFieldName('body'), CLASS_MEMBERS);
  return withMembers(`class ${name ?? ''}${typeParamsOf(node)}`, methods);
}

function interfaceLine(node: SyntaxNode): string {
  const members = memberNames(node.childForFieldName('body'), INTERFACE_MEMBERS);
  return withMembers(`interface ${nameOf(node) ?? '?'}${typeParamsOf(node)}`, members);
}

/**
 * `const a = …, b = …`: a function or class value is always a definition (CommonJS modules define
 * their functions this way, then export them in one object); any other value only when exported.
 */
function declarators(node: SyntaxNode, exported: boolean): string[] {
  const lines: string[] = [];
  for (const declarator of children(node)) {
    if (declarator.type !== 'variable_declarator') continue;
    const name = nameOf(declarator);
    const value = declarator.childForFieldName('value');
    if (name === null) continue;
    lines.push(...valueLine(name, value, exported));
  }
  return lines;
}

/** The line for `name = value`: a function, a class, or (when `exported`) a constant. */
function valueLine(name: string, value: SyntaxNode | null, exported: boolean): string[] {
  if (value !== null && FUNCTION_VALUES.has(value.type)) return [functionLine(name, value)];
  if (value !== null && CLASS_VALUES.has(value.type)) return [classLine(value, name)];
  return exported ? [`const ${name}`] : [];
}

/** `module.exports = …`, `module.exports.x = …` and `exports.x = …`. */
function commonJsExport(node: SyntaxNode): string[] {
  const assignment = children(node)[0];
  if (assignment?.type !== 'assignment_expression') return [];
  const target = assignment.childForFieldName('left')?.text.replace(/\s+/g, '') ?? '';
  const value = assignment.childForFieldName('right');
  if (target === 'module.exports') return moduleExports(value);
  const member = /^(?:module\.)?exports\.([\w$]+)$/.exec(target);
  return member?.[1] === undefined ? [] : valueLine(member[1], value, true);
}

function moduleExports(value: SyntaxNode | null): string[] {
  if (value === null) return [];
  if (value.type === 'object') {
    const keys = children(value).flatMap((entry) => {
      if (entry.type === 'shorthand_property_identifier') return [entry.text];
      const key = entry.childForFieldName('key');
      return key === null ? [] : [oneLine(key.text, 40)];
    });
    return [withMembers('module.exports', keys)];
  }
  const named = value.childForFieldName('name');
  if (FUNCTION_VALUES.has(value.type) || CLASS_VALUES.has(value.type))
    return valueLine(named === null ? 'module.exports' : oneLine(named.text), value, true);
  return [];
}
