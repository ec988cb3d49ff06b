// Emits the project's TypeScript (tsconfig.json's files) as JavaScript into dist/, one file per
// module, with esbuild: what tsc emits, without its type checking, in about a second instead of
// about half a minute. `npm run check` runs the tests on this output while tsc type-checks beside
// them (scripts/build-and-lint.mjs); `npm run build` still emits with tsc itself.
// verbatimModuleSyntax and isolatedModules (tsconfig.json) are what make a per-file transform
// equal to tsc's output: every type-only import is marked, nothing needs another file's types.
import { build } from 'esbuild';

/** `files`: the project's source files (absolute or relative), as tsconfig.json resolves them. */
export async function emit(files) {
  await build({
    entryPoints: files.filter((file) => /\.[cm]?ts$/.test(file) && !file.endsWith('.d.ts')),
    outdir: 'dist',
    outbase: '.',
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}
