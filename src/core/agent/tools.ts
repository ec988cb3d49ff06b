/**
 * The model's tools: a public contract. Replay scripts, the system prompt, the call parser and
 * (later) the grammar all read this one table, so a tool, a parameter or an alias is added here
 * and nowhere else.
 *
 * Parameters arrive as text (the protocol is XML-style tags in the model's reply), so numbers and
 * flags are read from their text here; a value that does not read is a "wrong type" result for
 * the model, never a thrown error.
 */
import { z } from 'zod';

/** Plan mode reads the repository and submits a plan; act mode also writes in the scratch. */
export type AgentMode = 'plan' | 'act';

/**
 * How the parser treats a parameter's text. `scalar` values (paths, numbers, flags, patterns,
 * commands) are trimmed: surrounding spaces are never meant. `text` values (file content, diffs,
 * plans, results) are kept byte for byte except the line break right after the opening tag and
 * the indentation of a closing tag on a line of its own.
 */
export type ParameterKind = 'scalar' | 'text';

/**
 * A parameter's value from its text between the tags. Scalars are trimmed. Text is kept byte for
 * byte but for the layout of the tags: the line break right after the opening tag, and the
 * indentation before a closing tag on a line of its own. The line break that ends the last line
 * stays: it is the file's final newline in `<content>\n…\n</content>`. Entities are not decoded.
 */
export function parameterText(kind: ParameterKind, raw: string): string {
  if (kind === 'scalar') return raw.trim();
  let value = raw.replace(/^\r?\n/, '');
  const lastBreak = value.lastIndexOf('\n');
  if (lastBreak >= 0 && /^[ \t]+$/.test(value.slice(lastBreak + 1))) value = value.slice(0, lastBreak + 1);
  return value;
}

/** A whole number of 1 or more, written as digits. */
const lineNumber = z.preprocess(
  (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
  z.number({ error: 'must be a whole number such as 1 or 120' }).int().min(1, 'must be 1 or more'),
);

const FLAGS: Record<string, boolean> = {
  true: true,
  yes: true,
  '1': true,
  false: false,
  no: false,
  '0': false,
};

/** true/false (also yes/no, 1/0), in any case. */
const flag = z.preprocess(
  (value) => (typeof value === 'string' ? (FLAGS[value.toLowerCase()] ?? value) : value),
  z.boolean({ error: 'must be true or false' }),
);

const nonEmpty = z.string().min(1, 'must not be empty');
/** Text that may be empty: a file may be written empty. */
const anyText = z.string();

/** One tool of the contract. */
export interface ToolDefinition {
  /** The tag the model writes, snake_case. */
  name: ToolName;
  /** One line for the system prompt's tool list. */
  description: string;
  /** Modes that offer the tool. A tool called outside them is an error result to the model. */
  modes: readonly AgentMode[];
  /** The parameters' contract, keyed by their canonical names. */
  parameters: z.ZodObject;
  /** How each parameter's text is read (see ParameterKind). */
  kinds: Readonly<Record<string, ParameterKind>>;
  /** Other names models use for a parameter, repaired to the canonical name before validation. */
  aliases: Readonly<Record<string, string>>;
}

/** Names models reach for instead of `path`: aider, Cline, Claude Code, OpenAI function examples. */
const PATH_ALIASES = {
  file: 'path',
  filepath: 'path',
  file_path: 'path',
  filename: 'path',
  file_name: 'path',
  relative_path: 'path',
};

/** Names for a directory to look in. */
const DIRECTORY_ALIASES = {
  dir: 'path',
  directory: 'path',
  folder: 'path',
  dir_path: 'path',
  directory_path: 'path',
};

const BOTH = ['plan', 'act'] as const;
const ACT = ['act'] as const;

const definitions = {
  read_file: {
    description:
      'Read a file as numbered lines, about 100 lines at a time (offset = first line, limit = count).',
    modes: BOTH,
    parameters: z.strictObject({
      path: nonEmpty,
      offset: lineNumber.optional(),
      limit: lineNumber.optional(),
    }),
    kinds: { path: 'scalar', offset: 'scalar', limit: 'scalar' },
    aliases: { ...PATH_ALIASES, start_line: 'offset', line: 'offset', lines: 'limit', count: 'limit' },
  },
  list_files: {
    description: 'List the files under a directory (default: the repository root), ignores honoured.',
    modes: BOTH,
    parameters: z.strictObject({ path: nonEmpty.optional(), recursive: flag.optional() }),
    kinds: { path: 'scalar', recursive: 'scalar' },
    aliases: DIRECTORY_ALIASES,
  },
  search_files: {
    description: 'Search file contents for a regular expression: files first with match counts, at most 50.',
    modes: BOTH,
    parameters: z.strictObject({ pattern: nonEmpty, path: nonEmpty.optional(), glob: nonEmpty.optional() }),
    kinds: { pattern: 'scalar', path: 'scalar', glob: 'scalar' },
    aliases: {
      regex: 'pattern',
      query: 'pattern',
      search: 'pattern',
      ...DIRECTORY_ALIASES,
      file_pattern: 'glob',
      include: 'glob',
    },
  },
  submit_plan: {
    description: 'Submit the finished plan: a summary, then `## Step N: title` sections. Ends Plan mode.',
    modes: ['plan'],
    parameters: z.strictObject({ plan: nonEmpty }),
    kinds: { plan: 'text' },
    aliases: { content: 'plan', body: 'plan' },
  },
  replace_in_file: {
    description: 'Edit a file with SEARCH/REPLACE blocks (`<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE`).',
    modes: ACT,
    parameters: z.strictObject({ path: nonEmpty, diff: nonEmpty }),
    kinds: { path: 'scalar', diff: 'text' },
    aliases: { ...PATH_ALIASES, edit: 'diff', edits: 'diff', patch: 'diff', blocks: 'diff' },
  },
  write_file: {
    description: 'Write a whole file (create or replace) with the given content.',
    modes: ACT,
    parameters: z.strictObject({ path: nonEmpty, content: anyText }),
    kinds: { path: 'scalar', content: 'text' },
    aliases: { ...PATH_ALIASES, contents: 'content', text: 'content', file_content: 'content' },
  },
  run_command: {
    description: 'Run an allowed command (`allowed_commands`) in the isolated scratch copy.',
    modes: ACT,
    parameters: z.strictObject({ command: nonEmpty }),
    kinds: { command: 'scalar' },
    aliases: { cmd: 'command', shell: 'command', script: 'command' },
  },
  attempt_completion: {
    description: 'Say the step is done, with a short result for the user. Ends the step.',
    modes: ACT,
    parameters: z.strictObject({ result: anyText }),
    kinds: { result: 'text' },
    aliases: { summary: 'result', message: 'result', text: 'result' },
  },
} satisfies Record<string, Omit<ToolDefinition, 'name'>>;

/** The name of a tool of the contract. */
export type ToolName = keyof typeof definitions;

/** Every tool, in the order the system prompt lists them. */
export const TOOLS: readonly ToolDefinition[] = Object.entries(definitions).map(([name, definition]) => ({
  name: name as ToolName,
  ...definition,
}));

const byName = new Map<string, ToolDefinition>(TOOLS.map((tool) => [tool.name, tool]));

/**
 * Tool names of other agents' prompts that mean exactly one of ours (Cline's `execute_command`
 * and `write_to_file`): a model trained on them is understood rather than corrected.
 */
export const TOOL_ALIASES: Readonly<Record<string, ToolName>> = {
  execute_command: 'run_command',
  write_to_file: 'write_file',
  list_dir: 'list_files',
  list_directory: 'list_files',
  grep: 'search_files',
};

/** `ReadFile`, `readFile`, `read-file` and `READ_FILE` all name `read_file`. */
export function normalizeToolName(written: string): string {
  return written
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

/** The tool a written name means (case, dashes, camelCase, missing underscores and the aliases above forgiven). */
export function findTool(written: string): ToolDefinition | undefined {
  const name = normalizeToolName(written);
  return byName.get(TOOL_ALIASES[name] ?? name) ?? byName.get(SQUASHED[name] ?? '');
}

/** `readfile` and `READFILE` also name `read_file`: without underscores no two tools look alike. */
const SQUASHED: Readonly<Record<string, ToolName>> = Object.fromEntries(
  TOOLS.map((tool) => [tool.name.replace(/_/g, ''), tool.name]),
);

/** The tools a mode offers. */
export function toolsFor(mode: AgentMode): ToolDefinition[] {
  return TOOLS.filter((tool) => tool.modes.includes(mode));
}

/** A parameter as the system prompt and a grammar need it. */
export interface ParameterInfo {
  name: string;
  required: boolean;
  kind: ParameterKind;
}

/** A tool's parameters in contract order. */
export function parametersOf(tool: ToolDefinition): ParameterInfo[] {
  return Object.entries(tool.parameters.shape).map(([name, schema]) => ({
    name,
    required: !(schema as z.ZodType).safeParse(undefined).success,
    kind: tool.kinds[name] ?? 'scalar',
  }));
}

/** The canonical parameter name a written one means, lower-cased with aliases repaired. */
export function canonicalParameter(tool: ToolDefinition, written: string): string {
  const name = written.toLowerCase().replace(/-/g, '_');
  return tool.aliases[name] ?? name;
}

/** The calls each tool takes, typed from the contract. */
export type ToolInput<N extends ToolName> = z.output<(typeof definitions)[N]['parameters']>;

/** A checked call: a tool of the contract with parameters of the right types. */
export type ToolCall = { [N in ToolName]: { tool: N; input: ToolInput<N> } }[ToolName];
