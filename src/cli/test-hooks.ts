/**
 * Test-only hooks, read from the environment in the CLI wiring and nowhere else. Never set them
 * outside aide's own tests.
 *
 * AIDE_TEST_PAUSE_AFTER_WRITES=N: after the Nth file change this process makes in the
 * workspace (counted across commits: a restore's files, or every act step's write-back), aide
 * says `aide-test: paused after N writes` on stderr and stops for a minute, so the crash tests
 * can SIGKILL it between two file writes, where nothing can be held.
 */
import type { NodeFileSystemOptions } from '../infra/fs/node-file-system.js';
import type { CliIo } from './io.js';

const PAUSE_MS = 60_000;

/** NodeFileSystem options with the pause, or none when the variable is not set. */
export function testPauseAfterWrites(io: CliIo): NodeFileSystemOptions {
  const count = Number(io.env['AIDE_TEST_PAUSE_AFTER_WRITES'] ?? '');
  if (!Number.isInteger(count) || count <= 0) return {};
  let written = 0;
  return {
    afterChange: async () => {
      written++;
      if (written !== count) return;
      io.stderr.write(`aide-test: paused after ${written} writes\n`);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    },
  };
}
