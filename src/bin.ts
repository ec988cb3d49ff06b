#!/usr/bin/env node
/**
 * The shipped bin (dist/bundle/aide.js, package.json's bin): a bare `--version` or `--help` is
 * answered here; anything else runs the CLI bundle through V8's code cache (launch/cli-bundle.ts).
 */
import { loadCli } from './launch/cli-bundle.js';
import { staticOutput } from './cli/static-output.js';

const text = staticOutput(process.argv.slice(2));
if (text !== undefined) process.stdout.write(`${text}\n`);
else await loadCli().start();
