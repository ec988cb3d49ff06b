// The shipped CLI: src/bin.ts bundled by esbuild into dist/bundle/ (package.json's bin), split at
// each dynamic import so a command loads only its own code. Node 20 has no compile cache and its
// ES module loader costs about half a millisecond per module: unbundled, `aide status` loads 213
// modules (95 of them zod's) and `aide act` over 400. tsc still compiles src/ one file per module
// into dist/src/ (the typecheck, and what the in-process tests import); this script does not
// typecheck, esbuild only strips the types.
//
// Left outside the bundle: typescript (9 MB, loaded with require() only when the syntax guard
// runs), web-tree-sitter and its grammars (they find their .wasm files next to their own modules).
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

const outdir = 'dist/bundle';
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { aide: 'src/bin.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // A package's ES module build first: jsonc-parser's CommonJS one is UMD, whose require() of its
  // own files a bundle cannot see.
  mainFields: ['module', 'main'],
  // Stack traces name src/ files (bin.ts turns source maps on); the sources themselves stay out
  // of the maps, which only the stack traces of errors read.
  sourcemap: 'linked',
  sourcesContent: false,
  external: ['typescript', 'web-tree-sitter', '@repomix/tree-sitter-wasms'],
  // The CommonJS packages inside (debug, enquirer…) require() Node's own modules: an ES module
  // has no require of its own, so each output file gets one.
  banner: {
    js: "import { createRequire as aideCreateRequire } from 'node:module';\nconst require = aideCreateRequire(import.meta.url);",
  },
  plugins: [lazyStringWidth, englishOnlyZod],
  logLevel: 'warning',
});
