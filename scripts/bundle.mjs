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
import { rmSync } from 'node:fs';

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
  logLevel: 'warning',
});
