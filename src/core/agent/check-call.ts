/**
 * Checks a call as written against the tool contract (tools.ts) and the mode. A malformed call
 * is a result with two audiences, never a throw: the model is told how to fix its call (with the
 * call's correct form), the user what happened in one line.
 */
import type { z } from 'zod';
import { didYouMean } from '../../shared/text.js';
import type { ProtocolProblem, RawCall } from './calls.js';
import {
  canonicalParameter,
  findTool,
  parameterText,
  parametersOf,
  toolsFor,
  type AgentMode,
  type ToolCall,
  type ToolDefinition,
} from './tools.js';

/** A call or reply the model must fix: what to tell it, and what to tell the user. */
export interface CallRejection {
  ok: false;
  forModel: string;
  forUser: string;
}

/** A call that may run, with the alias repairs made on the way ("file → path"). */
export interface CallAccepted {
  ok: true;
  call: ToolCall;
  repairs: string[];
}

export type CheckedCall = CallAccepted | CallRejection;

const MODE_NAME: Record<AgentMode, string> = { plan: 'Plan mode', act: 'Act mode' };

function reject(forModel: string, forUser: string): CallRejection {
  return { ok: false, forModel, forUser };
}

/** The correct form of a call, for the model to copy: `<read_file><path>…</path>…</read_file>`. */
export function usage(tool: ToolDefinition): string {
  const parameters = parametersOf(tool)
    .map((p) => (p.required ? `<${p.name}>…</${p.name}>` : `[<${p.name}>…</${p.name}>]`))
    .join('');
  return `<${tool.name}>${parameters}</${tool.name}>`;
}

function toolList(mode: AgentMode): string {
  return toolsFor(mode)
    .map((tool) => tool.name)
    .join(', ');
}

/** Checks one call for `mode`. */
export function checkCall(raw: RawCall, mode: AgentMode): CheckedCall {
  const tool = findTool(raw.tool);
  if (tool === undefined) return unknownTool(raw, mode);
  if (!tool.modes.includes(mode)) return unavailable(tool, mode);
  const input = inputOf(raw, tool);
  if (!input.ok) return input;
  const parsed = tool.parameters.safeParse(input.values);
  if (!parsed.success) return wrongParameters(tool, parsed.error, input.values);
  return { ok: true, call: { tool: tool.name, input: parsed.data } as ToolCall, repairs: input.repairs };
}

function unknownTool(raw: RawCall, mode: AgentMode): CallRejection {
  const offered = toolsFor(mode).map((tool) => tool.name);
  const guess = didYouMean(raw.tool.toLowerCase(), offered);
  const hint = guess === undefined ? '' : ` Did you mean <${guess}>?`;
  return reject(
    `<${raw.tool}> (line ${raw.line}) is not a tool.${hint} The tools in ${MODE_NAME[mode]} are: ${toolList(mode)}.`,
    `the model called an unknown tool "${raw.tool}"${guess === undefined ? '' : ` (meant ${guess}?)`}`,
  );
}

function unavailable(tool: ToolDefinition, mode: AgentMode): CallRejection {
  const why = mode === 'plan' ? ' Plan mode is read-only: nothing is written and no command runs.' : '';
  const finish = mode === 'plan' ? ' When the plan is ready, call <submit_plan>.' : '';
  return reject(
    `<${tool.name}> is not available in ${MODE_NAME[mode]}.${why} The tools here are: ${toolList(mode)}.${finish}`,
    `the model asked for ${tool.name}, which ${MODE_NAME[mode]} does not offer; nothing was done`,
  );
}

type Input = { ok: true; values: Record<string, string>; repairs: string[] } | CallRejection;

/** The call's parameters under their canonical names, or why they cannot be. */
function inputOf(raw: RawCall, tool: ToolDefinition): Input {
  const names = Object.keys(tool.parameters.shape);
  const values: Record<string, string> = {};
  const repairs: string[] = [];
  for (const parameter of raw.parameters) {
    const name = canonicalParameter(tool, parameter.name);
    if (!names.includes(name)) {
      const guess = didYouMean(name, names);
      const hint = guess === undefined ? '' : ` Did you mean <${guess}>?`;
      return reject(
        `<${tool.name}> has no parameter <${parameter.name}> (line ${parameter.line}).${hint} Write it as ${usage(tool)}.`,
        `the model gave ${tool.name} an unknown parameter "${parameter.name}"`,
      );
    }
    if (Object.hasOwn(values, name)) {
      return reject(
        `<${tool.name}> got <${name}> twice (line ${parameter.line}). Give each parameter once: ${usage(tool)}.`,
        `the model gave ${tool.name} the parameter "${name}" twice`,
      );
    }
    if (name !== parameter.name) repairs.push(`${parameter.name} → ${name}`);
    values[name] = parameter.value;
  }
  return raw.bare === undefined ? { ok: true, values, repairs } : withBare(raw, tool, values, repairs);
}

/** A call's bare text fills the one required parameter not given; with more left, tags are needed. */
function withBare(
  raw: RawCall,
  tool: ToolDefinition,
  values: Record<string, string>,
  repairs: string[],
): Input {
  const left = parametersOf(tool).filter((p) => p.required && !Object.hasOwn(values, p.name));
  const only = left.length === 1 ? left[0] : undefined;
  if (only === undefined) {
    return reject(
      `<${tool.name}> (line ${raw.line}) needs its parameters as tags: ${usage(tool)}.`,
      `the model's ${tool.name} call had no parameter tags`,
    );
  }
  const text = raw.bare ?? '';
  values[only.name] = parameterText(only.kind, text);
  return { ok: true, values, repairs };
}

function wrongParameters(
  tool: ToolDefinition,
  error: z.ZodError,
  values: Record<string, string>,
): CallRejection {
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const issue of error.issues) {
    const name = String(issue.path[0] ?? '');
    if (values[name] === undefined) missing.push(name);
    else wrong.push(`<${name}> ${issue.message}, got "${values[name].slice(0, 40)}"`);
  }
  const parts = [
    ...(missing.length > 0 ? [`missing ${missing.map((name) => `<${name}>`).join(', ')}`] : []),
    ...wrong,
  ];
  return reject(
    `<${tool.name}>: ${parts.join('; ')}. Write it as ${usage(tool)}.`,
    `the model's ${tool.name} call was malformed (${missing.length > 0 ? `missing ${missing.join(', ')}` : 'wrong values'})`,
  );
}

/** What to tell the model and the user about a reply the parser could not read as calls. */
export function describeProblem(problem: ProtocolProblem, mode: AgentMode): CallRejection {
  switch (problem.kind) {
    case 'unclosed_call': {
      const inside =
        problem.parameter === undefined
          ? ''
          : ` inside <${problem.parameter.name}> (opened on line ${problem.parameter.line})`;
      const closing = problem.parameter === undefined ? '' : `</${problem.parameter.name}>`;
      return reject(
        `Your <${problem.tool}> call (line ${problem.line}) is not closed: the reply ended on line ${problem.endLine}${inside}. ` +
          `Nothing was run. Send the whole call again, ending with ${closing}</${problem.tool}>.`,
        `the model's ${problem.tool} call on line ${problem.line} was cut off${inside}; nothing ran`,
      );
    }
    case 'interrupted_call':
      return reject(
        `Your <${problem.tool}> call (line ${problem.line}) is not closed: <${problem.next.tool}> opens on line ` +
          `${problem.next.line} before </${problem.tool}>. Nothing in it was run. Close each call before the next one.`,
        `the model's ${problem.tool} call on line ${problem.line} was never closed; nothing in it ran`,
      );
    case 'unclosed_parameter':
      return reject(
        `In your <${problem.tool}> call (line ${problem.line}), <${problem.parameter.name}> (line ` +
          `${problem.parameter.line}) has no </${problem.parameter.name}>. Close each parameter before </${problem.tool}>.`,
        `the model's ${problem.tool} call left its parameter "${problem.parameter.name}" open; nothing ran`,
      );
    case 'unclosed_reasoning':
      return reject(
        `Your reply is only reasoning: the <think> on line ${problem.line} never closes. Close it with </think>, then call a tool.`,
        'the model replied with reasoning only (an unclosed <think>)',
      );
    case 'no_call': {
      const finish = mode === 'plan' ? '<submit_plan>' : '<attempt_completion>';
      return reject(
        `Your reply used no tool. Every reply must call one, e.g. <read_file><path>src/a.ts</path></read_file>; ` +
          `when you are done, call ${finish}. The tools in ${MODE_NAME[mode]} are: ${toolList(mode)}.`,
        'the model replied without using a tool',
      );
    }
  }
}
