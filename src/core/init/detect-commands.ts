/**
 * Finds a project's own test, lint, typecheck and build commands from its files, for `aide
 * init`. Pure: the caller reads the few files listed in PROBED_FILES and passes their text.
 * Detection only proposes; the user edits `.aide/sandbox.json` to taste.
 */

/** The files detection looks at, relative to the workspace root. */
export const PROBED_FILES = [
  'package.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'bun.lockb',
  'Cargo.toml',
  'go.mod',
  'pyproject.toml',
  'pytest.ini',
  'setup.cfg',
  'Makefile',
] as const;

export type ProbedFile = (typeof PROBED_FILES)[number];

/** Text of each probed file that exists (a binary lockfile's text does not matter, only that it is there). */
export type ProjectFiles = Partial<Record<ProbedFile, string>>;

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

export interface DetectedCommand {
  name: string;
  /** Program and arguments, run without a shell. */
  run: string[];
  /** Why it was proposed, for the user: `package.json script "lint"`. */
  because: string;
}

export interface Detection {
  packageManager: { name: PackageManager; because: string } | null;
  commands: DetectedCommand[];
  /** Things the user should know: a skipped placeholder script, a package.json that does not parse. */
  notes: string[];
}

const LOCKFILES: readonly [ProbedFile, PackageManager][] = [
  ['package-lock.json', 'npm'],
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
];

/** Scripts worth verifying with, in the order they should run: fast and specific first. */
const SCRIPT_ORDER = ['typecheck', 'lint', 'build', 'test'] as const;

/** What `npm init` puts in "test": it always fails, so it verifies nothing. */
const NPM_PLACEHOLDER_TEST = /no test specified/;

function packageManagerOf(files: ProjectFiles, notes: string[]): NonNullable<Detection['packageManager']> {
  const found = LOCKFILES.filter(([file]) => files[file] !== undefined);
  const first = found[0];
  if (first === undefined) return { name: 'npm', because: 'package.json without a lockfile' };
  if (new Set(found.map(([, manager]) => manager)).size > 1) notes.push(`Several lockfiles (${found.map(([f]) => f).join(', ')}); used ${first[1]} from ${first[0]}.`);
  return { name: first[1], because: first[0] };
}

/**
 * `npm test` but `npm run lint`. bun is the exception: `bun test` runs bun's own test runner
 * instead of the "test" script, so every script goes through `bun run`.
 */
function scriptCommand(manager: PackageManager, script: string): string[] {
  if (script === 'test' && manager !== 'bun') return [manager, 'test'];
  return [manager, 'run', script];
}

function scriptsOf(text: string, notes: string[]): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text) as unknown;
    const scripts = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['scripts'] : undefined;
    return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : {};
  } catch {
    notes.push('package.json is not valid JSON; its scripts were not read.');
    return {};
  }
}

function nodeCommands(files: ProjectFiles, detection: Detection): DetectedCommand[] {
  const text = files['package.json'];
  if (text === undefined) return [];
  const manager = packageManagerOf(files, detection.notes);
  detection.packageManager = manager;
  const scripts = scriptsOf(text, detection.notes);
  const commands: DetectedCommand[] = [];
  for (const script of SCRIPT_ORDER) {
    const body = scripts[script];
    if (typeof body !== 'string' || body.trim() === '') continue;
    if (script === 'test' && NPM_PLACEHOLDER_TEST.test(body)) {
      detection.notes.push('Skipped the "test" script: it is the placeholder `npm init` writes, which always fails.');
      continue;
    }
    commands.push({ name: script, run: scriptCommand(manager.name, script), because: `package.json script "${script}"` });
  }
  return commands;
}

/** pytest is in use when it has a config section, a pytest.ini, or is named as a dependency. */
function usesPytest(files: ProjectFiles): string | undefined {
  if (files['pytest.ini'] !== undefined) return 'pytest.ini';
  if (files['pyproject.toml'] !== undefined && /\[tool\.pytest|["'\s]pytest\b/.test(files['pyproject.toml'])) return 'pyproject.toml';
  if (files['setup.cfg'] !== undefined && /\[tool:pytest\]|\bpytest\b/.test(files['setup.cfg'])) return 'setup.cfg';
  return undefined;
}

/** A `test:` rule (not a `test := …` variable). */
function hasMakeTestTarget(makefile: string): boolean {
  return /^test\s*:(?!=)/m.test(makefile);
}

function toolCommands(files: ProjectFiles): DetectedCommand[] {
  const commands: DetectedCommand[] = [];
  if (files['Cargo.toml'] !== undefined) commands.push({ name: 'cargo-test', run: ['cargo', 'test'], because: 'Cargo.toml' });
  if (files['go.mod'] !== undefined) commands.push({ name: 'go-test', run: ['go', 'test', './...'], because: 'go.mod' });
  const pytest = usesPytest(files);
  if (pytest !== undefined) commands.push({ name: 'pytest', run: ['python', '-m', 'pytest'], because: `pytest (${pytest})` });
  if (files.Makefile !== undefined && hasMakeTestTarget(files.Makefile)) {
    commands.push({ name: 'make-test', run: ['make', 'test'], because: 'Makefile target "test"' });
  }
  return commands;
}

/**
 * Tool commands are named after the tool ("cargo-test"); when nothing else claims "test",
 * the first of them is plain "test", which is what a single-language project expects.
 */
function nameTools(taken: readonly DetectedCommand[], tools: DetectedCommand[]): DetectedCommand[] {
  const first = tools[0];
  if (first === undefined || taken.some((c) => c.name === 'test')) return tools;
  return [{ ...first, name: 'test' }, ...tools.slice(1)];
}

export function detectCommands(files: ProjectFiles): Detection {
  const detection: Detection = { packageManager: null, commands: [], notes: [] };
  const node = nodeCommands(files, detection);
  detection.commands = [...node, ...nameTools(node, toolCommands(files))];
  return detection;
}
