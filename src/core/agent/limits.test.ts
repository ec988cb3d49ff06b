import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { configSchema } from '../../config/config-schema.js';
import { agentLimits } from './limits.js';

describe('the loop limits from the config', () => {
  test('take the config’s limits, and the fixed number of finish rejections', () => {
    const limits = configSchema.parse({ limits: { max_iterations: 10 } }).limits;
    assert.deepEqual(agentLimits(limits), {
      maxIterations: 10,
      maxConsecutiveMistakes: 3,
      maxToolResultBytes: 16384,
      maxFinishRejections: 3,
    });
  });
});
