/**
 * The lines of a model-driven step in the plain act view: each attempt, the model's turns (with
 * tokens and tokens/s), its tool calls, what it got wrong, and the attempt's verdict. Streaming
 * text is not shown (a log gets the turn's totals instead).
 */
import type { AgentEvent } from '../../core/agent/loop-types.js';
import type { AideEvent } from '../../core/events.js';
import { plural } from '../../shared/text.js';
import { formatDuration } from '../../shared/units.js';
import type { Style } from './style.js';

type AttemptEvent = Extract<AideEvent, { type: 'attempt_started' | 'step_agent' | 'attempt_finished' }>;

function rate(tokensPerSecond: number | null): string {
  return tokensPerSecond === null ? '' : `, ${tokensPerSecond.toFixed(1)} tokens/s`;
}

/** One loop event as a line under its attempt, or null for one not shown. */
function agentLine(event: AgentEvent, style: Style): string | null {
  switch (event.type) {
    case 'model_turn':
      return style.dim(
        `turn ${event.iteration}: ${formatDuration(event.durationMs)}` +
          (event.promptTokens === null ? '' : `, ${event.promptTokens} in`) +
          `${event.evalTokens === null ? '' : `, ${event.evalTokens} out`}${rate(event.tokensPerSecond)}`,
      );
    case 'tool_call':
      return `${style.cyan('→')} ${event.summary}`;
    case 'tool_result':
      // A counted failure is said once, by the agent_mistake that follows.
      return event.ok || event.counted ? null : `  ${style.yellow('!')} ${event.summary}`;
    case 'agent_mistake':
      return `${style.yellow('!')} ${event.forUser} (${plural(event.mistakes, 'mistake')} in a row)`;
    case 'model_retrying':
      return style.yellow(`the server is not ready (${event.reason}); trying again (${event.attempt})`);
    case 'context_trimmed':
      return style.dim(
        `dropped the ${plural(event.droppedResults, 'oldest tool result')} to fit the context`,
      );
    case 'model_turn_started':
    case 'model_streaming':
      return null;
  }
}

/** The line(s) for an attempt's event, each ending in a newline; '' for none. */
export function attemptLines(event: AttemptEvent, style: Style): string {
  switch (event.type) {
    case 'attempt_started':
      return `  ${style.bold(`attempt ${event.attempt} of ${event.maxAttempts}`)}\n`;
    case 'step_agent': {
      const line = agentLine(event.event, style);
      return line === null ? '' : `    ${line}\n`;
    }
    case 'attempt_finished':
      if (event.passed) return `  ${style.green('✓')} attempt ${event.attempt} passed\n`;
      return `  ${style.red('✗')} attempt ${event.attempt} failed: ${(event.reason ?? '').split('\n')[0] ?? ''}\n`;
  }
}
