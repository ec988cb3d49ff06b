/** The shapes command detection works on and returns (see detect-commands.ts). */

/** The files detection looks at, relative to the workspace root. */
export const PROBED_FILES = [
  'package.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'bun.lockb',
  'pnpm-workspace.yaml',
  'Cargo.toml',
  'go.mod',
  'pyproject.toml',
  'pytest.ini',
  'setup.cfg',
  'tox.ini',
  'noxfile.py',
  'ruff.toml',
  '.ruff.toml',
  'mypy.ini',
  '.mypy.ini',
  '.pre-commit-config.yaml',
  // A virtualenv's marker file: the python commands need it activated (detect-python.ts).
  '.venv/pyvenv.cfg',
  'venv/pyvenv.cfg',
  // GNU make reads the first of these that exists.
  'GNUmakefile',
  'makefile',
  'Makefile',
] as const;

export type ProbedFile = (typeof PROBED_FILES)[number];

/** Text of each probed file that exists (a binary lockfile's text does not matter, only that it is there). */
export type ProjectFiles = Partial<Record<ProbedFile, string>>;

/** The package.json of one workspace package of a monorepo. */
export interface WorkspacePackage {
  /** Its folder, relative to the workspace root (`packages/core`). */
  dir: string;
  text: string;
}

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

export interface DetectedCommand {
  name: string;
  /** Program and arguments, run without a shell. */
  run: string[];
  /** Where it was found, for the user: `package.json script "lint"`, `Makefile target "test"`. */
  because: string;
  /** Written as `"optional": true`: runs only when asked for (a plan step's Verify: line, `--commands`). */
  optional?: true;
}

export interface Detection {
  packageManager: { name: PackageManager; because: string } | null;
  commands: DetectedCommand[];
  /** Things the user should know: a skipped placeholder script, a package.json that does not parse. */
  notes: string[];
}

/**
 * A command one ecosystem proposes, with where it goes in the run order: checks (lint,
 * typecheck) before tests, optional extras last.
 */
export interface Candidate {
  stage: 'check' | 'test' | 'extra';
  command: DetectedCommand;
}
