/**
 * Facts about linked folders (sandbox.json `link`) that the schema describes and the scratch
 * acts on: one place, so the documentation cannot drift from the behaviour.
 */

/** `**` in a `link` glob looks this many folders deep at most. */
export const MAX_GLOB_DEPTH = 8;

/** Where projects keep their dependencies: the root, and workspace packages one or two folders down (packages/a, apps/web/b). */
export const DEFAULT_LINKS: readonly string[] = ['node_modules', '*/node_modules', '*/*/node_modules'];

/**
 * Top-level entries of a linked folder that tools write caches into, never linked: babel-loader,
 * nyc, ava, eslint, terser-webpack-plugin, Storybook, Turborepo in `.cache`; Vite in `.vite` and
 * `.vite-temp` (its bundled config); Vitest in `.vitest`; Astro in `.astro`.
 */
export const CACHE_ENTRIES: readonly string[] = ['.cache', '.vite', '.vite-temp', '.vitest', '.astro'];
