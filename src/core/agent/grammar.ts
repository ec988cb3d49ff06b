/**
 * Grammar mode: a GBNF grammar (llama.cpp's format, also read by vLLM's xgrammar) generated from
 * the tool contract, for servers that constrain a reply to one. When the parser rejects a reply,
 * the loop asks again under this grammar: the model can then only write prose and one call in
 * the canonical form, with the contract's tool and parameter names, its required parameters,
 * typed scalars and, for `replace_in_file`, the SEARCH/REPLACE markers.
 *
 * The reply it allows, and nothing else:
 *
 * - up to three lines of prose without `<` (a tag in prose would read as a mention or a call);
 * - `<tool_name>`, each parameter as `<param>value</param>` in contract order (the required ones
 *   required, the optional ones optional), `</tool_name>`, one optional line break;
 * - scalars on one line without `<`, starting with a non-space (the parser trims them; an empty
 *   one is "must not be empty"); line numbers as digits from 1; flags `true` or `false`;
 * - text (file content, a plan, a result) of any characters except what would end it early for
 *   the parser (parse-calls.ts): the closing tag of the same name followed by a space, a line
 *   break, `<` or the end. So `</content>` inside code, `<T>` generics and `a < b` stay possible;
 * - a diff as one or more blocks `<<<<<<< SEARCH` lines `=======` lines `>>>>>>> REPLACE`, its
 *   lines under the same rule as text.
 *
 * GBNF has no lookahead, so "text not ending early" is a small automaton written out as rules:
 * one rule per state of matching `</name\s*>` followed by a space or `<` (see guardedText).
 * Rule names use dashes: llama.cpp's GBNF allows letters, digits and `-` only.
 */
import type { z } from 'zod';
import { parametersOf, toolsFor, type AgentMode, type ToolDefinition, type ToolName } from './tools.js';

/** The parameters that hold SEARCH/REPLACE blocks, whose structure the grammar forces. */
const SEARCH_REPLACE: Readonly<Partial<Record<ToolName, string>>> = { replace_in_file: 'diff' };

/** What a parameter's value may look like in the grammar. */
type ValueShape = 'line' | 'number' | 'flag' | 'text' | 'diff';

/**
 * JavaScript's `\s` (what the parser skips after a closing tag), as a GBNF character-class body.
 * GBNF has no `\v` or `\f`: they are written as hex escapes.
 */
const SPACE = '\\t\\n\\x0B\\x0C\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';
const SPACE_IN_LINE = SPACE.replace('\\n', '');

/**
 * The GBNF grammar for a reply of one call in `mode`: any of the mode's tools, or only `tool`
 * (the re-ask for one broken call). The same input always gives the same text, rules in a
 * fixed order, `root` first. Throws for a tool the mode does not offer: asking a model to redo a
 * call it may not make is a bug in the caller.
 */
export function grammarFor(mode: AgentMode, tool?: ToolName): string {
  const offered = toolsFor(mode);
  const tools = tool === undefined ? offered : offered.filter((t) => t.name === tool);
  if (tools.length === 0) throw new Error(`${tool ?? '(none)'} is not a tool of ${mode} mode`);
  const rules = new Rules();
  const calls = tools.map((t) => callRule(rules, t));
  rules.set('root', `prose sp call ("\\r"? "\\n")?`, true);
  rules.set('call', calls.join(' | '), true);
  rules.set('prose', 'prose-line{0,3}', true);
  rules.set('prose-line', '[^<\\r\\n]* "\\r"? "\\n"', true);
  // Bounded layout: an unbounded run of spaces or blank lines is a known way for a constrained
  // model to loop until its token limit.
  rules.set('sp', '[ \\t]{0,16}', true);
  rules.set('sep', 'sp ("\\r"? "\\n" sp)?', true);
  rules.set('eol', '"\\r"? "\\n"', true);
  return rules.render();
}

/** The rules of a grammar, kept in the order they are first set (`root` and its kin first). */
class Rules {
  private readonly head = new Map<string, string>();
  private readonly body = new Map<string, string>();

  set(name: string, definition: string, first = false): string {
    (first ? this.head : this.body).set(name, definition);
    return name;
  }

  has(name: string): boolean {
    return this.head.has(name) || this.body.has(name);
  }

  render(): string {
    const order = ['root', ...[...this.head.keys()].filter((n) => n !== 'root'), ...this.body.keys()];
    const all = new Map([...this.head, ...this.body]);
    return order.map((name) => `${name} ::= ${all.get(name) ?? ''}\n`).join('');
  }
}

/** `read_file` → `read-file`: GBNF rule names take no underscore. */
function ruleName(...parts: string[]): string {
  return parts.join('-').replace(/_/g, '-');
}

/** A GBNF string literal. */
function literal(text: string): string {
  const escaped = text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n');
  return `"${escaped}"`;
}

/** One tool's call: its tags around its parameters in contract order. */
function callRule(rules: Rules, tool: ToolDefinition): string {
  const parts = [literal(`<${tool.name}>`), 'sep'];
  for (const parameter of parametersOf(tool)) {
    const value = valueRule(rules, tool, parameter.name);
    const tagged = `${literal(`<${parameter.name}>`)} ${value} ${literal(`</${parameter.name}>`)} sep`;
    parts.push(parameter.required ? tagged : `(${tagged})?`);
  }
  parts.push(literal(`</${tool.name}>`));
  return rules.set(ruleName(tool.name), parts.join(' '));
}

/** The rule for a parameter's value, shared by the tools whose parameter has the same shape. */
function valueRule(rules: Rules, tool: ToolDefinition, parameter: string): string {
  const shape = shapeOf(tool, parameter);
  switch (shape) {
    case 'line':
      return rules.set('line-value', '[^<\\r\\n \\t] [^<\\r\\n]*');
    case 'number':
      return rules.set('number-value', '"0"* [1-9] [0-9]*');
    case 'flag':
      return rules.set('flag-value', '"true" | "false"');
    case 'text':
      return guardedText(rules, parameter, false);
    case 'diff': {
      const line = guardedText(rules, parameter, true);
      const block = rules.set(
        ruleName(parameter, 'block'),
        `blank* "<<<<<<< SEARCH" eol ${line}* "=======" eol ${line}* ">>>>>>> REPLACE" eol`,
      );
      rules.set('blank', '[ \\t]* eol');
      return rules.set(ruleName(parameter, 'value'), `${block}+ blank* sp`);
    }
  }
}

/**
 * A parameter's shape, read from its schema by trying values: the contract types scalars with
 * zod (tools.ts), and a kind of value the grammar cannot write is an error here, so a new one is
 * noticed by the grammar's tests rather than by a model stuck on it.
 */
function shapeOf(tool: ToolDefinition, parameter: string): ValueShape {
  if (SEARCH_REPLACE[tool.name] === parameter) return 'diff';
  if (tool.kinds[parameter] === 'text') return 'text';
  const schema = tool.parameters.shape[parameter] as z.ZodType;
  const accepts = (value: string) => schema.safeParse(value).success;
  if (accepts('src/a.ts')) return 'line';
  if (accepts('12') && !accepts('0')) return 'number';
  if (accepts('true') && accepts('false')) return 'flag';
  throw new Error(`the grammar has no rule for ${tool.name}'s parameter ${parameter}`);
}

/**
 * Text that the parser reads whole up to the grammar's own `</name>`: text without `</name\s*>`
 * (any case, as the parser matches it) followed by a space or `<`. Written as a matching
 * automaton, one rule per state: `<` seen, `</` seen, i letters of the name seen, the whole name
 * and spaces seen, `>` seen. Any other character goes back to the start. In `line` form (a
 * diff's lines) the text is one line and ends with its `\n`; otherwise it may be empty and ends
 * anywhere but right after a matched `>` (the grammar's `</name>` comes next, a `<`).
 */
function guardedText(rules: Rules, name: string, line: boolean): string {
  const base = ruleName(line ? 'line' : 'text', name);
  if (rules.has(base)) return base;
  const newline = line ? '\\n' : '';
  // A state other than "`>` seen" may end the text: with its line break in line form, at once
  // otherwise (written `(…)?`, the usual GBNF for an empty alternative).
  const state = (rule: string, ...moves: string[]) =>
    rules.set(rule, line ? `${moves.join(' | ')} | "\\n"` : `(${moves.join(' | ')})?`);
  const start = base;
  const lt = `${base}-lt`;
  const matched = (i: number) => (i === name.length ? `${base}-name` : `${base}-${i}`);
  state(start, `"<" ${lt}`, `[^<${newline}] ${start}`);
  state(lt, `"/" ${matched(0)}`, `"<" ${lt}`, `[^/<${newline}] ${start}`);
  for (let i = 0; i < name.length; i++) {
    const char = name.charAt(i);
    const cases = [...new Set([char.toLowerCase(), char.toUpperCase()])].join('');
    state(matched(i), `[${cases}] ${matched(i + 1)}`, `"<" ${lt}`, `[^${cases}<${newline}] ${start}`);
  }
  const closed = `${base}-gt`;
  const spaces = line ? SPACE_IN_LINE : SPACE;
  const whole = matched(name.length);
  state(whole, `[${spaces}] ${whole}`, `">" ${closed}`, `"<" ${lt}`, `[^<>${SPACE}] ${start}`);
  rules.set(closed, `[^<${SPACE}] ${start}`);
  return start;
}
