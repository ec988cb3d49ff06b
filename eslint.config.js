// Type-aware lint. The architecture's arrows (cli → core → ports ← infra) are enforced here
// with no-restricted-imports per folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import { noCycle } from './scripts/eslint-no-cycle.mjs';

// Node builtins core may import: pure computation (paths as strings, hashing), no effect on the
// disk, processes, network, terminal or environment. Every other builtin is refused in core and
// in config's pure modules, spelled bare ('fs') and prefixed ('node:fs'); node:test and the like
// exist only prefixed, and newer Node lists those in builtinModules with the prefix.
const pureBuiltins = new Set(['path', 'path/posix', 'path/win32', 'crypto']);
const prefixOnlyBuiltins = ['sea', 'sqlite', 'test', 'test/reporters'];
const effectBuiltins = [
  ...new Set([...builtinModules.map((name) => name.replace(/^node:/, '')), ...prefixOnlyBuiltins]),
]
  .filter((name) => !pureBuiltins.has(name))
  .flatMap((name) => [name, `node:${name}`]);
const effectLibraries = ['execa', 'simple-git', 'listr2', 'enquirer', '@listr2/*', 'yargs'];

function restrict(patterns, message, builtinsMessage) {
  return {
    'no-restricted-imports': [
      'error',
      {
        ...(builtinsMessage === undefined
          ? {}
          : { paths: effectBuiltins.map((name) => ({ name, message: builtinsMessage })) }),
        patterns: [{ group: patterns, message }],
      },
    ],
  };
}

// config/ is pure except its loader: core may import config's schemas, field patterns, file
// names and the text of new files, never the module that reads them from disk.
const configLoader = '**/config/load-workspace*';

// What an import() or a global could reach around the import rules: a dynamic import of
// anything but a relative module, the process (env, cwd, exit) and the network.
const pureSyntax = {
  'no-restricted-syntax': [
    'error',
    {
      selector: "ImportExpression:not([source.type='Literal'][source.value=/^\\.\\.?\\//])",
      message: 'A dynamic import() here may load only a relative module: effects come through a port.',
    },
    {
      selector: "MemberExpression[object.name='globalThis'][property.name='process']",
      message: 'No process here: cwd and env are passed down explicitly (STYLE 3).',
    },
    {
      selector: "MemberExpression[object.name='globalThis'][property.value='process']",
      message: 'No process here: cwd and env are passed down explicitly (STYLE 3).',
    },
  ],
  'no-restricted-globals': [
    'error',
    { name: 'process', message: 'No process here: cwd and env are passed down explicitly (STYLE 3).' },
    { name: 'fetch', message: 'No network here: the model client is a port.' },
    { name: 'WebSocket', message: 'No network here: the model client is a port.' },
  ],
};

export default tseslint.config(
  // examples/ is a user's project that aide edits in the demo, not aide's code.
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/**', 'coverage/**', 'examples/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { aide: { rules: { 'no-cycle': noCycle } } },
    rules: {
      // Outside cli/ a `default:` may stand for the rest of a union (cli/ below lists every case).
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-non-null-assertion': 'error',
      // Every import cycle under src/, type-only and dynamic imports included (scripts/eslint-no-cycle.mjs).
      'aide/no-cycle': ['error', { root: 'src' }],
      'no-console': 'error',
    },
  },
  {
    // The first read of `performance` loads node's perf_hooks: about 2 ms of every start.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'performance', message: 'Use monotonicMs() from src/shared/monotonic.ts.' },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      ...restrict(
        ['**/cli/**', '**/infra/**', configLoader, ...effectLibraries],
        'core/ is the domain: it never touches the terminal, processes, network or disk directly, nor loads config files. Use a port from core/ports/.',
        'core/ is the domain: it never touches the terminal, processes, network, disk or environment directly. Use a port from core/ports/.',
      ),
      ...pureSyntax,
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict(
      ['**/cli/**', '**/core/**', '**/infra/**', '**/config/**', ...effectLibraries],
      'shared/ depends on nothing else in aide.',
    ),
  },
  {
    files: ['src/infra/**/*.ts'],
    rules: restrict(
      ['**/cli/**', 'yargs', 'listr2', 'enquirer', '@listr2/*'],
      'infra/ implements ports; it never imports the CLI or the UI.',
    ),
  },
  {
    files: ['src/config/**/*.ts'],
    ignores: ['src/config/load-workspace.ts'],
    rules: {
      ...restrict(
        ['**/cli/**', '**/core/**', '**/infra/**', ...effectLibraries],
        'config/ holds schemas; it never imports the CLI, core or infra.',
        'config/ is pure (core imports it); only its loader, load-workspace.ts, reads files.',
      ),
      ...pureSyntax,
    },
  },
  {
    files: ['src/config/load-workspace.ts'],
    rules: restrict(
      ['**/cli/**', '**/core/**', '**/infra/**', ...effectLibraries],
      'config/ holds schemas and their loader; it never imports the CLI, core or infra.',
    ),
  },
  {
    // Every view lists every event it is given, the ones it ignores too (with a comment): a new
    // event type then fails lint in each renderer until someone decides how it shows there.
    files: ['src/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // cli/ turns argv into options, renders, and gets its ports and data from cli/wiring/: the
    // one folder that knows which infra classes stand behind them. A dynamic import() is held
    // to the same rule, since the commands load what they run lazily.
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/wiring/**', 'src/cli/**/*.test.ts'],
    rules: {
      ...restrict(
        ['**/infra/**'],
        'cli/ gets its adapters from cli/wiring/ (one module per command); only the wiring imports infra/.',
      ),
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/(^|\\/)infra\\//]',
          message:
            'cli/ gets its adapters from cli/wiring/ (one module per command); only the wiring imports infra/.',
        },
      ],
    },
  },
  {
    // Tests beside core code check it against the real file system and real processes.
    files: ['src/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off', 'no-restricted-globals': 'off' },
  },
  {
    files: ['src/cli/render/**/*.ts', 'scripts/**', 'bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    // The spread's languageOptions turn the project service off; replacing them would leave it on
    // (every script parsed against a default TypeScript project, for rules that are off anyway).
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
);
