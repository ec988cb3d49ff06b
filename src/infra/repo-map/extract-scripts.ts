/** Top-level definitions of Python and Ruby: classes with their methods, functions, modules. */
import { children, memberNames, nameOf, paramsOf, type SyntaxNode, withMembers } from './syntax.js';

const PYTHON_METHODS = new Set(['function_definition', 'decorated_definition']);

/** Python: `def name(params)`, `class Name(Base): methods`; decorators are looked through. */
export function extractPython(root: SyntaxNode): string[] {
  const lines: string[] = [];
  for (const node of children(root)) {
    if (node.hasError) continue;
    const line = pythonDefinition(undecorated(node));
    if (line !== null) lines.push(line);
  }
  return lines;
}

function undecorated(node: SyntaxNode): SyntaxNode {
  return node.type === 'decorated_definition' ? (node.childForFieldName('definition') ?? node) : node;
}

function pythonDefinition(node: SyntaxNode): string | null {
  if (node.type === 'function_definition') {
    const prefix = node.text.startsWith('async') ? 'async def' : 'def';
    return `${prefix} ${nameOf(node) ?? '?'}${paramsOf(node)}`;
  }
  if (node.type !== 'class_definition') return null;
  const bases = node.childForFieldName('superclasses');
  const methods = memberNames(node.childForFieldName('body'), PYTHON_METHODS, (member) =>
    nameOf(undecorated(member)),
  );
  return withMembers(
    `class ${nameOf(node) ?? '?'}${bases === null ? '' : paramsOf(node, 'superclasses')}`,
    methods,
  );
}

const RUBY_METHODS = new Set(['method', 'singleton_method']);

/**
 * Ruby: `class Name: methods`, `module Name: methods`, `def name(params)`. Modules mostly
 * namespace classes, so the classes and modules inside a module are listed too, as `A::B`.
 */
export function extractRuby(root: SyntaxNode): string[] {
  return rubyBody(root, '');
}

function rubyBody(body: SyntaxNode, prefix: string): string[] {
  const lines: string[] = [];
  for (const node of children(body)) {
    if (node.hasError) continue;
    if (node.type === 'method' || node.type === 'singleton_method') lines.push(rubyMethod(node));
    if (node.type !== 'class' && node.type !== 'module') continue;
    const name = `${prefix}${nameOf(node) ?? '?'}`;
    const inner = rubyClassBody(node);
    const methods = memberNames(inner, RUBY_METHODS, rubyMethodName);
    if (node.type === 'class' || methods.length > 0) lines.push(withMembers(`${node.type} ${name}`, methods));
    if (inner !== null)
      lines.push(...rubyBody(inner, `${name}::`).filter((line) => !line.startsWith('def ')));
  }
  return lines;
}

/** A class's or module's statements: a `body` field in newer grammars, a body_statement child in older. */
function rubyClassBody(node: SyntaxNode): SyntaxNode | null {
  return (
    node.childForFieldName('body') ?? children(node).find((child) => child.type === 'body_statement') ?? null
  );
}

function rubyMethodName(node: SyntaxNode): string | null {
  const name = nameOf(node);
  return name === null ? null : node.type === 'singleton_method' ? `self.${name}` : name;
}

function rubyMethod(node: SyntaxNode): string {
  const params = node.childForFieldName('parameters');
  return `def ${rubyMethodName(node) ?? '?'}${params === null ? '' : paramsOf(node)}`;
}
