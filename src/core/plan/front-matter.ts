/**
 * The plan's front matter: YAML between a `---` line at the very top and the next `---` line.
 * Parsed with `yaml`'s document API for the positions of keys and values, then checked with the
 * zod schema, so every problem names its line.
 */
import {
  Document,
  isAlias,
  isMap,
  isScalar,
  parseDocument,
  type Node,
  type Pair,
  type YAMLError,
} from 'yaml';
import { didYouMean, lineColumnAt } from '../../shared/text.js';
import {
  FRONT_MATTER_EXAMPLES,
  planFrontMatterSchema,
  type FrontMatterKey,
  type PlanFrontMatter,
} from './schema.js';
import type { LineProblem } from './sections.js';

const DELIMITER = /^---[ \t]*$/;
const KEYS = Object.keys(FRONT_MATTER_EXAMPLES) as FrontMatterKey[];

export interface FrontMatterRead {
  /** The front matter when it is valid. */
  frontMatter: PlanFrontMatter | null;
  /** Index of the first line after the front matter; null when the front matter never ends (it holds the whole file). */
  bodyStart: number | null;
  problems: LineProblem[];
}

const TEMPLATE_HINT = `Start the file with:\n---\n${KEYS.slice(0, 3)
  .map((k) => FRONT_MATTER_EXAMPLES[k])
  .join('\n')}\n---`;

/** A value YAML reads as a number or boolean is the text written where the schema wants a string (a short hash such as 1e34567, a model tag such as 2024). */
function valueOf(key: string, node: unknown): unknown {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return {};
  if (!isScalar(node)) return isMap(node) ? {} : [];
  const value = node.value;
  if (
    key !== 'aide_plan' &&
    node.type === 'PLAIN' &&
    (typeof value === 'number' || typeof value === 'boolean')
  )
    return node.source;
  return value;
}

interface Located {
  record: Record<string, unknown>;
  /** Per key: 0-based offsets in the YAML text of the key and of its value. */
  at: Map<string, { key: number; value: number }>;
}

function locate(pairs: readonly Pair[]): Located {
  const record: Record<string, unknown> = {};
  const at = new Map<string, { key: number; value: number }>();
  for (const pair of pairs) {
    const keyNode = pair.key as Node | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
    const keyOffset = keyNode?.range?.[0] ?? 0;
    const valueNode = pair.value as Node | null;
    record[key] = valueOf(key, valueNode);
    at.set(key, { key: keyOffset, value: valueNode?.range?.[0] ?? keyOffset });
  }
  return { record, at };
}

/** yaml's messages are written for YAML experts; the one people hit most (a `: ` in a title) gets a plain one. */
function yamlProblem(error: YAMLError, yamlText: string, firstLine: number): LineProblem {
  const { line, column } = lineColumnAt(yamlText, error.pos[0]);
  const source = yamlText.split('\n')[line - 1] ?? '';
  const pair = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(source);
  const index = firstLine + line - 1;
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY' && pair !== null) {
    const value = (pair[2] ?? '').replace(/[ \t]+#.*$/, '');
    return {
      index,
      column,
      message: `the value of "${pair[1]}" holds ": ", which YAML reads as another key`,
      hint: `Put the value in double quotes: ${pair[1]}: ${JSON.stringify(value)}`,
    };
  }
  if (error.code === 'DUPLICATE_KEY') {
    const key = /^([^:]*)/.exec(source)?.[1]?.trim() ?? '';
    return {
      index,
      column,
      message: `"${key}" appears twice in the front matter`,
      hint: 'Keep one of the two lines.',
    };
  }
  return {
    index,
    column,
    message: `the front matter is not valid YAML: ${error.message}`,
    hint: 'Write one "key: value" per line; put a value in double quotes when it holds ": " or " #", or starts with a quote, bracket, & * ! | > % @ or `.',
  };
}

function unknownKey(key: string, index: number, column: number): LineProblem {
  const near = didYouMean(key, KEYS);
  const keys = `The front-matter keys are ${KEYS.join(', ')}.`;
  return {
    index,
    column,
    message: `unknown key "${key}" in the front matter`,
    hint: near === undefined ? `Remove it. ${keys}` : `Did you mean "${near}"? ${keys}`,
  };
}

function schemaProblems(
  located: Located,
  yamlText: string,
  firstLine: number,
  open: number,
): { value: PlanFrontMatter | null; problems: LineProblem[] } {
  const parsed = planFrontMatterSchema.safeParse(located.record);
  if (parsed.success) return { value: parsed.data, problems: [] };
  const where = (offset: number) => {
    const { line, column } = lineColumnAt(yamlText, offset);
    return { index: firstLine + line - 1, column };
  };
  const problems = parsed.error.issues.flatMap((issue): LineProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const p = where(located.at.get(key)?.key ?? 0);
        return unknownKey(key, p.index, p.column);
      });
    }
    const key = String(issue.path[0] ?? '') as FrontMatterKey;
    const example = FRONT_MATTER_EXAMPLES[key] ?? `${key}: …`;
    const position = located.at.get(key);
    if (position === undefined)
      return [
        { index: open, message: `the front matter has no "${key}"`, hint: `Add a line such as: ${example}` },
      ];
    return [
      { ...where(position.value), message: `"${key}": ${issue.message}`, hint: `For example: ${example}` },
    ];
  });
  return { value: null, problems };
}

function parseYaml(
  lines: readonly string[],
  open: number,
  close: number,
): { value: PlanFrontMatter | null; problems: LineProblem[] } {
  const yamlText = lines.slice(open + 1, close).join('\n');
  const firstLine = open + 1;
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  const errors = [...doc.errors, ...doc.warnings];
  if (errors.length > 0)
    return { value: null, problems: errors.map((e) => yamlProblem(e, yamlText, firstLine)) };
  const contents = doc.contents;
  if (contents !== null && !isMap(contents)) {
    return {
      value: null,
      problems: [
        {
          index: firstLine,
          message: 'the front matter is not a list of "key: value" lines',
          hint: TEMPLATE_HINT,
        },
      ],
    };
  }
  return schemaProblems(locate(contents?.items ?? []), yamlText, firstLine, open);
}

/** Reads the front matter at the top of `lines`. Without one, the body starts at line 0 so its problems are found too. */
export function readFrontMatter(lines: readonly string[]): FrontMatterRead {
  if (!DELIMITER.test(lines[0] ?? '')) {
    const later = lines.findIndex((l) => !/^\s*$/.test(l));
    const misplaced = later > 0 && DELIMITER.test(lines[later] ?? '');
    const message = misplaced
      ? 'the front matter must start on the first line'
      : 'the plan has no front matter';
    return {
      frontMatter: null,
      bodyStart: 0,
      problems: [
        {
          index: misplaced ? later : 0,
          message,
          hint: misplaced ? 'Remove the lines before the first ---.' : TEMPLATE_HINT,
        },
      ],
    };
  }
  const close = lines.findIndex((l, i) => i > 0 && DELIMITER.test(l));
  if (close === -1) {
    return {
      frontMatter: null,
      bodyStart: null,
      problems: [
        {
          index: 0,
          message: 'the front matter is never closed',
          hint: 'End it with a line --- before the summary.',
        },
      ],
    };
  }
  const { value, problems } = parseYaml(lines, 0, close);
  return { frontMatter: value, bodyStart: close + 1, problems };
}

/** The front matter block, `---` lines included; yaml quotes what needs quoting. */
export function renderFrontMatter(frontMatter: PlanFrontMatter): string {
  const fields: Record<string, unknown> = {
    aide_plan: frontMatter.aide_plan,
    title: frontMatter.title,
  };
  if (frontMatter.created !== null && frontMatter.created !== undefined)
    fields['created'] = frontMatter.created;
  if (frontMatter.base !== null && frontMatter.base !== undefined) fields['base'] = frontMatter.base;
  if (frontMatter.model !== null && frontMatter.model !== undefined) fields['model'] = frontMatter.model;
  return `---\n${new Document(fields).toString({ lineWidth: 0 })}---`;
}
