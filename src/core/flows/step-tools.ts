/**
 * Act mode's tools for one attempt at a step, from what the act flow already holds: the scratch
 * and its file system, the runner, allowed_commands, protected_paths and the verify policy (the
 * model's commands run as verify's do). The step author that runs the act-mode loop calls this.
 */
import { actTools, type ActTools } from '../agent/act-tools.js';
import type { ToolExecutor } from '../agent/loop-types.js';
import type { SyntaxChecker } from '../ports/syntax.js';
import type { ActStep, StepContext } from './act-types.js';

/** What the act flow does not hold itself: the JS/TS parser and the read tools over the scratch. */
export interface StepToolsExtra {
  syntax?: SyntaxChecker;
  /** read_file, list_files and search_files over the scratch as it is now. */
  reads?: ToolExecutor;
}

/**
 * The tools of attempt `attempt` (1-based) at `step`, in the session's scratch; the model's
 * commands log to `attempt-<a>-tool-<n>.log` in the step's log folder. `session` is what the act
 * flow was given (an author is built with it, or gets a StepContext).
 */
export function stepTools(
  session: Pick<StepContext, 'input' | 'deps'>,
  step: ActStep,
  attempt: number,
  extra: StepToolsExtra = {},
): ActTools {
  const { input, deps } = session;
  return actTools({
    root: deps.scratch.path,
    fs: deps.fs,
    ...extra,
    protectedPaths: input.protectedPaths,
    protectedCaseInsensitive: input.protectedCaseInsensitive === true,
    commands: {
      allowed: input.allowedCommands,
      runner: deps.runner,
      userEnv: input.userEnv,
      envAllow: input.policy.envAllow,
      timeoutMs: input.policy.timeoutMs,
      maxLogBytes: input.policy.maxLogBytes,
      tailBytes: input.policy.tailBytes,
      logFile: (n) => `${input.logDir(step.number)}/attempt-${attempt}-tool-${n}.log`,
    },
  });
}
