#!/usr/bin/env node
/**
 * The shipped bin (dist/bundle/aide.js, package.json's bin): a bare `--version` or `--help` is
 * answered here; anything else runs a CLI bundle through V8's code cache (launch/cli-bundle.ts):
 * `aide review …`'s own, or the whole CLI's.
 */
import { bundleFor, loadCli } from './launch/cli-bundle.js';
import { staticOutput } from './cli/static-output.js';

const args = process.argv.slice(2);
const text = staticOutput(args);
if (text !== undefined) process.stdout.write(`${text}\n`);
// start() never rejects (runCli turns every error into an exit code); bundled as CommonJS, the
// bin has no top-level await.
else void loadCli(process.env, bundleFor(args)).start();
