/**
 * The agent loop run against the scripted model and a recording tool executor, for the loop's
 * tests: every event, the outcome, every request and every call that ran.
 */
import { FakeClock, FakeModel, type FakeModelOptions, type FakeTurn } from './fake-model.js';
import { runAgent } from '../agent/loop.js';
import type {
  AgentEvent,
  AgentLimits,
  AgentLoopInput,
  AgentOutcome,
  FinishOutcome,
  ToolExecutor,
  ToolResult,
} from '../agent/loop-types.js';
import type { AgentMode, ToolCall } from '../agent/tools.js';

/** Runs tools by a table of answers and records every call it was asked to run. */
export class FakeTools implements ToolExecutor {
  readonly ran: ToolCall[] = [];
  constructor(private readonly answer: (call: ToolCall) => ToolResult | undefined = () => undefined) {}
  run(call: ToolCall): Promise<ToolResult> {
    this.ran.push(call);
    const fallback = {
      ok: true,
      forModel: `output of ${call.tool} ${JSON.stringify(call.input)}`,
      forUser: call.tool,
    };
    return Promise.resolve(this.answer(call) ?? fallback);
  }
  get names(): string[] {
    return this.ran.map((call) => call.tool);
  }
}

export const GOOD_PLAN =
  '<submit_plan><plan># Fix it\n\nSummary.\n\n## Step 1: Do it\n\nFiles: a.ts\n</plan></submit_plan>';

/** Accepts a plan with a step, rejects one without. */
export function judgePlan(call: ToolCall): FinishOutcome<string> {
  if (call.tool !== 'submit_plan' && call.tool !== 'attempt_completion') throw new Error('not a finish');
  const text = call.tool === 'submit_plan' ? call.input.plan : call.input.result;
  if (call.tool === 'attempt_completion' || text.includes('## Step 1')) return { ok: true, value: text };
  return {
    ok: false,
    forModel: 'The plan has no step: add a "## Step 1: title" section.',
    forUser: 'no step',
  };
}

export interface Setup {
  mode?: AgentMode;
  tools?: FakeTools;
  limits?: Partial<AgentLimits>;
  contextTokens?: number;
  replyReserveTokens?: number;
  grammar?: string;
  signal?: AbortSignal;
  model?: FakeModelOptions;
  clock?: FakeClock;
}

export function fence(n: number): string {
  return `fence${String(n).padStart(4, '0')}`;
}

/** Runs the loop over a script with fake tools; what it did, and what the model was sent. */
export async function runScript(script: FakeTurn[], setup: Setup = {}) {
  const clock = setup.clock ?? new FakeClock();
  const model = new FakeModel(script, { clock, ...setup.model });
  const tools = setup.tools ?? new FakeTools();
  let fences = 0;
  const mode = setup.mode ?? 'plan';
  const input: AgentLoopInput<string> = {
    mode,
    client: model,
    system: 'SYSTEM PROMPT',
    task: 'Task: fix it.',
    tools,
    finish: { tool: mode === 'plan' ? 'submit_plan' : 'attempt_completion', judge: judgePlan },
    limits: {
      maxIterations: 25,
      maxConsecutiveMistakes: 3,
      maxToolResultBytes: 10_000,
      maxFinishRejections: 3,
      ...setup.limits,
    },
    contextTokens: setup.contextTokens ?? 100_000,
    replyReserveTokens: setup.replyReserveTokens ?? 1000,
    fence: () => fence(++fences),
    now: clock.now,
    ...(setup.grammar === undefined ? {} : { grammar: setup.grammar }),
    ...(setup.signal === undefined ? {} : { signal: setup.signal }),
  };
  const events: AgentEvent[] = [];
  const loop = runAgent(input);
  let outcome: AgentOutcome<string> | undefined;
  for (;;) {
    const next = await loop.next();
    if (next.done === true) {
      outcome = next.value;
      break;
    }
    events.push(next.value);
  }
  /** The last user message of request `n` (0-based): what the model was told after reply n-1. */
  const told = (n: number): string => {
    const messages = model.requests[n]?.messages ?? [];
    return messages[messages.length - 1]?.content ?? '';
  };
  return { outcome, events, model, tools, told };
}

export function ofType<K extends AgentEvent['type']>(events: AgentEvent[], type: K) {
  return events.filter((event): event is Extract<AgentEvent, { type: K }> => event.type === type);
}

/** Why the run stopped; a run that finished is a failed test. */
export function stopOf(outcome: AgentOutcome<string>) {
  if (outcome.ok) throw new Error(`the run finished with ${outcome.value}; a stop was expected`);
  return outcome.stop;
}
