/** The loop's guardrails from the workspace's config (`limits` in .aide/config.json). */
import type { AideConfig } from '../../config/config-schema.js';
import type { AgentLimits } from './loop-types.js';

/**
 * Finishing calls the judge may reject in a run (an invalid plan sent back with its parse error).
 * Not a config key: three tries at the same document is enough, and more only burns turns.
 */
export const MAX_FINISH_REJECTIONS = 3;

/** The loop's limits from the config's `limits` (defaults already applied by the schema). */
export function agentLimits(limits: AideConfig['limits']): AgentLimits {
  return {
    maxIterations: limits.max_iterations,
    maxConsecutiveMistakes: limits.max_consecutive_mistakes,
    maxToolResultBytes: limits.max_tool_result_bytes,
    maxFinishRejections: MAX_FINISH_REJECTIONS,
  };
}
