#!/usr/bin/env node
/**
 * aide with the test-only hooks, for the tests that need them; the shipped src/bin.ts has none,
 * so no environment variable reaches a hook there. Spawn it as TEST_BIN (cli.ts).
 *
 * AIDE_TEST_PAUSE_AFTER_WRITES=N: after the Nth file change this process makes in the
 * workspace (counted across commits: a restore's files, or every act step's write-back), aide
 * says `aide-test: paused after N writes` on stderr and stops for a minute, so the crash tests
 * can SIGKILL it between two file writes, where nothing can be held.
 */
import { start } from '../../src/cli/main.js';

const PAUSE_MS = 60_000;

/** The pause after the Nth write, or none when the variable is not set. */
function pauseAfterWrites(setting: string | undefined): ((done: number) => Promise<void>) | undefined {
  const count = Number(setting ?? '');
  if (!Number.isInteger(count) || count <= 0) return undefined;
  let written = 0;
  return async () => {
    written++;
    if (written !== count) return;
    process.stderr.write(`aide-test: paused after ${written} writes\n`);
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  };
}

await start({ afterWorkspaceChange: pauseAfterWrites(process.env['AIDE_TEST_PAUSE_AFTER_WRITES']) });
