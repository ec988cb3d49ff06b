/**
 * A step's Run commands, in the scratch: each allowed by sandbox.json exactly as written, its
 * templates resolved from earlier steps' output, its output kept for later steps.
 */
import { resolveTemplates } from '../plan/templates.js';
import type { ActStep, Outcome, StepContext } from './act-types.js';
import { commandEnvironment } from './verify.js';

/** A Run command as written in the plan, the way allowed_commands lists it. */
export function commandText(run: string | readonly string[]): string {
  return typeof run === 'string' ? run : JSON.stringify(run);
}

/** Templates in one Run command, element by element for an argv. */
function resolveRun(
  run: string | readonly string[],
  ctx: StepContext,
  step: number,
): Outcome<string | string[]> {
  const parts = typeof run === 'string' ? [run] : [...run];
  const resolved: string[] = [];
  for (const part of parts) {
    const result = resolveTemplates(part, ctx.outputs, step);
    if (!result.ok) return { ok: false, reason: result.message };
    resolved.push(result.text);
  }
  return { ok: true, value: typeof run === 'string' ? (resolved[0] ?? '') : resolved };
}

/** The step's Run commands, in the scratch, each allowed by sandbox.json; their output joined. */
export async function runCommands(step: ActStep, ctx: StepContext): Promise<Outcome<string>> {
  const { input, deps } = ctx;
  const outputs: string[] = [];
  for (const [index, run] of step.run.entries()) {
    const text = commandText(run);
    if (!input.allowedCommands.includes(text)) {
      return {
        ok: false,
        reason: `Run: ${text} is not allowed; add it, exactly as written, to "allowed_commands" in .aide/sandbox.json`,
      };
    }
    const resolved = resolveRun(run, ctx, step.number);
    if (!resolved.ok) return resolved;
    const result = await deps.runner.run({
      name: `run-${index + 1}`,
      run: resolved.value,
      cwd: deps.scratch.path,
      env: commandEnvironment(input.userEnv, input.policy.envAllow, deps.runner),
      timeoutMs: input.policy.timeoutMs,
      logFile: `${input.logDir(step.number)}/run-${index + 1}.log`,
      maxLogBytes: input.policy.maxLogBytes,
      // The output flows into later steps' templates: keep more than a verify tail.
      tailBytes: RUN_OUTPUT_BYTES,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    });
    if (result.cancelled) return { ok: false, reason: 'interrupted', cancelled: true };
    if (result.exitCode !== 0 || result.timedOut) {
      const why =
        result.startError ??
        (result.timedOut ? 'timed out' : `exited ${result.exitCode ?? result.signal ?? '?'}`);
      return {
        ok: false,
        reason: `Run: ${text} ${why}${result.tail.trim() === '' ? '' : `:\n${result.tail.trimEnd()}`}`,
      };
    }
    outputs.push(result.tail.trim());
  }
  return { ok: true, value: outputs.join('\n') };
}

/** At most this much of a Run command's output is kept as the step's output. */
const RUN_OUTPUT_BYTES = 64 * 1024;
