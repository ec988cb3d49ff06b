// The shipped CLI, bundled by esbuild into dist/bundle/ (package.json's bin is aide.js):
//   aide-cli.cjs           src/cli/main.ts and everything it loads, one CommonJS file;
//   aide-cli.cjs.cache     V8's code cache of it (scripts/warm-code-cache.mjs);
//   aide-review.cjs        the same CLI without what only other commands run (what a git hook's
//                          `aide review` starts), and aide-review.cjs.cache;
//   aide.js                the bin, src/bin.ts: answers a bare --version/--help, else compiles
//                          aide-review.cjs (`aide review …`) or aide-cli.cjs through its cache
//                          (src/launch/cli-bundle.ts).
// Node 20 caches no compiled code of ES modules and its ES module loader costs about half a
// millisecond per module; split ES module chunks were the layout before, and the one CommonJS
// file through the code cache starts `aide status` in about 20% less CPU. tsc still compiles src/
// one file per module into dist/src/ (the typecheck, and what the in-process tests import); this
// script does not typecheck, esbuild only strips the types.
//
// Left outside the bundle: typescript (9 MB, loaded with require() only when the syntax guard
// runs), web-tree-sitter and its grammars (they find their .wasm files next to their own modules).
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * string-width (yargs' help layout; listr2's task tree) builds an Intl.Segmenter and compiles
 * `/^\p{RGI_Emoji}$/v` when it loads: 10–13 ms and 16–21 ms of CPU on this machine, paid by every
 * aide start although most never measure a string. Both are made on first use instead. The
 * patterns must be found, so a string-width that changes fails the build rather than silently
 * paying again.
 */
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(build) {
    build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      const segmenter = 'const segmenter = new Intl.Segmenter();';
      if (!text.includes(segmenter))
        throw new Error(`${args.path}: \`${segmenter}\` not found (update scripts/bundle.mjs)`);
      text = text.replace(
        segmenter,
        'let realSegmenter;\nconst segmenter = { segment: (text) => (realSegmenter ??= new Intl.Segmenter()).segment(text) };',
      );
      const emoji = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
      if (text.includes('RGI_Emoji}$/v')) {
        if (!text.includes(emoji))
          throw new Error(`${args.path}: \`${emoji}\` not found (update scripts/bundle.mjs)`);
        text = text.replace(
          emoji,
          'let realRgiEmoji;\nconst rgiEmojiRegex = { test: (text) => (realRgiEmoji ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")).test(text) };',
        );
      }
      return { contents: text, loader: 'js' };
    });
  },
};

/**
 * zod's namespaces re-export every one of its 48 message locales (`export * as locales`), which
 * the bundle cannot drop: 368 KB of the 755 KB zod chunk, compiled at every start of a command
 * that validates anything. aide's messages are its own and English (zod's default, `en`, is
 * installed by zod's classic schemas themselves), so the locales namespace keeps `en` only. A zod
 * whose files move fails the build; aide's code naming `locales` fails lint's type check first
 * (the namespace still has every locale's type) and then the test below. Nothing else changes.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/](classic[\\/]external|core[\\/]index)\.js$/.test(args.importer))
        return undefined;
      const en = join(dirname(args.importer), '..', 'locales', 'en.js');
      if (!existsSync(en)) throw new Error(`${en} not found (update scripts/bundle.mjs)`);
      return { path: en, namespace: 'zod-locales' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};\n`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * yargs guesses a version at construction (`yargs()` calls `.version()`) by looking for the
 * package.json above `mainFilename`, the folder above the node_modules that holds yargs. Bundled,
 * yargs is in no node_modules, so `mainFilename` fell back to the cwd: every start walked up the
 * user's folders (a readdir of each, /tmp's hundreds of entries in a hook under /tmp) and, finding
 * none, threw and caught an AssertionError (loading node's assert and its message formatting), or
 * read the user's own package.json. From the bundle's own file the walk finds the bundle's own
 * package.json (below), next to it. aide sets the version itself (cli/main.ts), so nothing else changes.
 */
const yargsMainFilename = {
  name: 'yargs-main-filename',
  setup(build) {
    build.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const main = "const mainFilename = __dirname.substring(0, __dirname.lastIndexOf('node_modules'));";
      if (!text.includes(main))
        throw new Error(`${args.path}: \`${main}\` not found (update scripts/bundle.mjs)`);
      return { contents: text.replace(main, 'const mainFilename = __dirname;'), loader: 'js' };
    });
  },
};

const outdir = 'dist/bundle';
rmSync(outdir, { recursive: true, force: true });
const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // A package's ES module build first: jsonc-parser's CommonJS one is UMD, whose require() of its
  // own files a bundle cannot see.
  mainFields: ['module', 'main'],
  // Stack traces name src/ files (cli/source-stack.ts maps them when an error is printed); the
  // sources themselves stay out of the maps, which only those stack traces read.
  sourcemap: 'linked',
  sourcesContent: false,
  external: ['typescript', 'web-tree-sitter', '@repomix/tree-sitter-wasms'],
  plugins: [lazyStringWidth, englishOnlyZod, yargsMainFilename],
  logLevel: 'warning',
};
/**
 * The review bundle: the whole CLI's parser, every command's usage, options and help included (so
 * `aide review --help`, a mistyped flag or command and every exit code read as they do from
 * aide-cli.cjs; test/e2e/review-bundle.test.ts compares the two), but what the other commands run
 * is left out: each command stub (`src/cli/commands/*-command.ts`) imports what runs it only when
 * it runs (spec.ts), and here those imports of every stub but review's lead to a module that
 * throws. That is the agent, the edit engine, plans, yaml, execa and enquirer: half the CLI's
 * bytes, which a hook's review paid for at every commit in reading the file and its code cache.
 * The bin sends only `aide review …` here. A stub that moves or is renamed fails the build rather
 * than silently pulling its command back in.
 */
const COMMAND_STUB = /[\\/]src[\\/]cli[\\/]commands[\\/]([a-z-]+)-command\.ts$/;
function reviewOnly(cut) {
  return {
    name: 'review-only',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        const stub = COMMAND_STUB.exec(args.importer)?.[1];
        if (args.kind !== 'dynamic-import' || stub === undefined || stub === 'review') return undefined;
        cut.add(stub);
        return { path: stub, namespace: 'review-only' };
      });
      build.onLoad({ filter: /.*/, namespace: 'review-only' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(
          `aide-review.cjs runs \`aide review\` only; \`aide ${args.path}\` is in aide-cli.cjs (src/launch/cli-bundle.ts chooses)`,
        )});\n`,
        loader: 'js',
      }));
    },
  };
}

/**
 * One CommonJS file of the CLI, which the bin compiles through V8's code cache
 * (src/launch/cli-bundle.ts): Node 20 caches no ES module's compiled code, and with the cache a
 * start reads bytecode back instead of parsing the whole file.
 */
async function buildCli(name, plugins = []) {
  await build({
    ...shared,
    plugins: [...shared.plugins, ...plugins],
    entryPoints: { [name]: 'src/cli/main.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // import.meta.url (package-files.ts finds the package from it) as the bundle file's own URL.
    define: { 'import.meta.url': 'aideModuleUrl' },
    banner: { js: "const aideModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  // Pure ASCII, so the bin can read the CLI as a one-byte string (src/infra/code-cache/compiled-commonjs.ts): UTF-8
  // decoding of 3 MB cost 15-25 ms of every start. esbuild escapes non-ASCII characters in strings but
  // leaves them in comments and regular expression literals; there a \uXXXX escape means the same
  // character (with or without the u and v flags), and in a comment nothing.
  const cliFile = join(outdir, `${name}.cjs`);
  const cliText = readFileSync(cliFile, 'utf8');
  // After a backslash (`\—`, an identity escape) the escape would change meaning: stop instead.
  if (/\\[^\t\n\r -~]/.test(cliText)) throw new Error(`${cliFile}: a backslash before a non-ASCII character`);
  writeFileSync(
    cliFile,
    cliText.replace(/[^\t\n\r -~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

await buildCli('aide-cli');
const cut = new Set();
await buildCli('aide-review', [reviewOnly(cut)]);
// Every command stub but review's, so that a stub moved elsewhere or importing in another way
// fails here instead of pulling its command into the review bundle.
const stubs = readdirSync('src/cli/commands')
  .map((file) => /^([a-z-]+)-command\.ts$/.exec(file)?.[1])
  .filter((stub) => stub !== undefined && stub !== 'review')
  .sort();
if ([...cut].sort().join() !== stubs.join())
  throw new Error(
    `aide-review.cjs left out the runs of [${[...cut].sort().join(', ')}], not [${stubs.join(', ')}] (update scripts/bundle.mjs)`,
  );
// The bin: answers a bare --version or --help, or loads one of the CLIs above. CommonJS too:
// started as an ES module, node set up its ES module loader and a facade of each builtin the bin
// imports, about 6 ms of CPU at every start. aide's package is "type": "module", so a
// package.json of the bundle's own says what its .js file is (package-files.ts skips it: it names
// no package).
await build({
  ...shared,
  entryPoints: { aide: 'src/bin.ts' },
  outdir,
  format: 'cjs',
  define: { 'import.meta.url': 'aideModuleUrl' },
  // Strict, as the ES module it was: the directive must come before the banner's line.
  banner: { js: "'use strict';\nconst aideModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
// Each CLI's code cache, made by running its common commands once (warm-code-cache.mjs), in a
// process of its own: the two builds side by side.
const warm = (bundle) =>
  new Promise((resolveWarm, rejectWarm) => {
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./warm-code-cache.mjs', import.meta.url)), bundle],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        // NODE_OPTIONS dropped: the build's cache is for a plain start, and a cache's header names
        // the flags node started with (compiled-commonjs.ts).
        env: Object.fromEntries(
          Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_') && key !== 'NODE_OPTIONS'),
        ),
      },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', rejectWarm);
    child.on('close', (status) => {
      if (status === 0) resolveWarm();
      else {
        process.stderr.write(`${output}\n`);
        rejectWarm(new Error(`scripts/warm-code-cache.mjs ${bundle} failed (exit ${status})`));
      }
    });
  });
await Promise.all([warm('aide-cli'), warm('aide-review')]);
