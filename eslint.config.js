// Type-aware lint. The architecture's arrows (cli → core → ports ← infra) are enforced here
// with no-restricted-imports per folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const nodeEffects = [
  'node:fs',
  'node:fs/promises',
  'node:child_process',
  'node:net',
  'node:http',
  'node:https',
  'node:os',
  'node:process',
  'node:readline',
  'node:tty',
];
const effectLibraries = ['execa', 'simple-git', 'listr2', 'enquirer', '@listr2/*', 'yargs'];

function restrict(patterns, message) {
  return { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] };
}

export default tseslint.config(
  // examples/ is a user's project that aide edits in the demo, not aide's code.
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/**', 'coverage/**', 'examples/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
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
      'import-x/no-cycle': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict(
      ['**/cli/**', '**/infra/**', ...nodeEffects, ...effectLibraries],
      'core/ is the domain: it never touches the terminal, processes, network or disk directly. Use a port from core/ports.ts.',
    ),
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
    rules: restrict(
      ['**/cli/**', '**/infra/**', ...effectLibraries],
      'config/ holds schemas and loaders; it never imports the CLI or infra.',
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
    // Tests beside core code check it against the real file system and real processes.
    files: ['src/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
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
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
