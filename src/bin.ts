#!/usr/bin/env node
/**
 * The shipped bin (dist/bundle/aide.js, package.json's bin): a bare `--version` or `--help` is
 * answered here; anything else runs a CLI bundle through V8's code cache (launch/cli-bundle.ts):
 * `aide review …`'s own, or the whole CLI's. Before a review's bundle is compiled, its first git
 * question is started (infra/git/user-repo.ts, prestartReviewQuery): a hook's review at every
 * commit then finds it answered instead of starting git after the compile.
 */
import { bundleFor, loadCli } from './launch/cli-bundle.js';
import { staticOutput } from './cli/static-output.js';
import { prestartReviewQuery } from './infra/git/user-repo.js';

const args = process.argv.slice(2);
const text = staticOutput(args);
if (text !== undefined) process.stdout.write(`${text}\n`);
else {
  const bundle = bundleFor(args);
  // A folder that no longer exists is the CLI's to report.
  if (bundle === 'aide-review') {
    try {
      prestartReviewQuery(process.cwd(), process.env);
    } catch {
      // Nothing started: the CLI asks git itself.
    }
  }
  // start() never rejects (runCli turns every error into an exit code); bundled as CommonJS, the
  // bin has no top-level await.
  void loadCli(process.env, bundle).start();
}
