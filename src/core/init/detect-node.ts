/**
 * npm, pnpm, yarn and bun projects: the package manager (from the lockfile), the root
 * package.json scripts worth verifying with, and in a monorepo the scripts its workspace
 * packages have that the root does not, run across all of them.
 */
import type {
  Candidate,
  Detection,
  PackageManager,
  ProbedFile,
  ProjectFiles,
  WorkspacePackage,
} from './detect-types.js';

const LOCKFILES: readonly [ProbedFile, PackageManager][] = [
  ['package-lock.json', 'npm'],
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
];

/**
 * Scripts worth verifying with, in the order they should run: fast and specific first. A
 * typecheck script goes by several names in real projects (changesets: "types:check"); the
 * first one present is used.
 */
const SCRIPT_ORDER: readonly (readonly string[])[] = [
  ['typecheck', 'type-check', 'types:check', 'check-types', 'check:types', 'tsc'],
  ['lint'],
  ['build'],
  ['test'],
];

/** What `npm init` puts in "test": it always fails, so it verifies nothing. */
const NPM_PLACEHOLDER_TEST = /no test specified/;

type Manifest = Record<string, unknown>;

function parseManifest(text: string): Manifest | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Manifest)
      : null;
  } catch {
    return null;
  }
}

function scriptsOf(manifest: Manifest | null): Record<string, unknown> {
  const scripts = manifest?.['scripts'];
  return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : {};
}

/** A script that would verify something: present, not empty, not npm init's placeholder. */
function usable(scripts: Record<string, unknown>, script: string): boolean {
  const body = scripts[script];
  return (
    typeof body === 'string' && body.trim() !== '' && !(script === 'test' && NPM_PLACEHOLDER_TEST.test(body))
  );
}

/** package.json's "packageManager" field (corepack), e.g. "pnpm@9.1.0"; '' when absent. */
function declaredManager(manifest: Manifest | null): string {
  const value = manifest?.['packageManager'];
  return typeof value === 'string' ? value : '';
}

/** The lockfile decides; without one, package.json's "packageManager" (corepack) or a pnpm workspace file. */
function packageManagerOf(
  files: ProjectFiles,
  manifest: Manifest | null,
  notes: string[],
): NonNullable<Detection['packageManager']> {
  const found = LOCKFILES.filter(([file]) => files[file] !== undefined);
  const first = found[0];
  if (first !== undefined) {
    if (new Set(found.map(([, manager]) => manager)).size > 1)
      notes.push(
        `Several lockfiles (${found.map(([f]) => f).join(', ')}); used ${first[1]} from ${first[0]}.`,
      );
    return { name: first[1], because: first[0] };
  }
  const declared = /^(npm|pnpm|yarn|bun)@/.exec(declaredManager(manifest))?.[1] as PackageManager | undefined;
  if (declared !== undefined) return { name: declared, because: 'package.json "packageManager"' };
  if (files['pnpm-workspace.yaml'] !== undefined) return { name: 'pnpm', because: 'pnpm-workspace.yaml' };
  return { name: 'npm', because: 'package.json without a lockfile' };
}

/** Yarn 2+ (berry) writes `__metadata:` in its lockfile; yarn 1 writes "# yarn lockfile v1". */
function isYarnClassic(files: ProjectFiles, manifest: Manifest | null): boolean {
  const lock = files['yarn.lock'];
  if (lock !== undefined && /^__metadata:/m.test(lock)) return false;
  if (lock !== undefined && /yarn lockfile v1/.test(lock)) return true;
  return !/^yarn@(?:[2-9]|\d{2,})/.test(declaredManager(manifest));
}

/**
 * `npm test` but `npm run lint`. bun is the exception: `bun test` runs bun's own test runner
 * instead of the "test" script, so every script goes through `bun run`.
 */
function scriptCommand(manager: PackageManager, script: string): string[] {
  if (script === 'test' && manager !== 'bun') return [manager, 'test'];
  return [manager, 'run', script];
}

/**
 * A script run in every workspace package that has it, skipping the others, and passing when
 * none has it: checked here on a two-package workspace with npm 11, pnpm 12, yarn 4 and bun 1.4
 * (pnpm and yarn leave out the root package, which has no such script or it would be used).
 * Yarn 1's `yarn workspaces run` fails in a package without the script (its docs), so it is
 * proposed only when every package has it (null otherwise).
 */
function workspaceCommand(
  manager: PackageManager,
  classicYarn: boolean,
  script: string,
  everyPackage: boolean,
): string[] | null {
  switch (manager) {
    case 'npm':
      return script === 'test'
        ? ['npm', 'test', '--workspaces', '--if-present']
        : ['npm', 'run', script, '--workspaces', '--if-present'];
    case 'pnpm':
      return ['pnpm', '-r', 'run', '--if-present', script];
    case 'yarn':
      if (!classicYarn) return ['yarn', 'workspaces', 'foreach', '--all', 'run', script];
      return everyPackage ? ['yarn', 'workspaces', 'run', script] : null;
    case 'bun':
      return ['bun', 'run', '--filter', '*', script];
  }
}

/** The workspace globs a monorepo declares, and where. */
export function workspacePatterns(files: ProjectFiles): { patterns: string[]; because: string } | null {
  const manifest = files['package.json'] === undefined ? null : parseManifest(files['package.json']);
  const declared = manifest?.['workspaces'];
  const list = Array.isArray(declared)
    ? declared
    : (declared as { packages?: unknown } | undefined)?.packages;
  if (Array.isArray(list))
    return {
      patterns: list.filter((p): p is string => typeof p === 'string'),
      because: 'package.json "workspaces"',
    };
  const pnpm = files['pnpm-workspace.yaml'];
  return pnpm === undefined ? null : { patterns: pnpmPackages(pnpm), because: 'pnpm-workspace.yaml' };
}

/** The `packages:` list of pnpm-workspace.yaml, block (`- 'packages/*'`) or flow (`['a', 'b']`) style. */
function pnpmPackages(text: string): string[] {
  const unquote = (value: string) => value.trim().replace(/^(['"])(.*)\1$/, '$2');
  const flow = /^packages\s*:\s*\[(.*)\]\s*(?:#.*)?$/m.exec(text)?.[1];
  if (flow !== undefined)
    return flow
      .split(',')
      .map(unquote)
      .filter((p) => p !== '');
  const patterns: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages\s*:\s*(?:#.*)?$/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const item = /^\s+-\s*(.+?)\s*(?:#.*)?$/.exec(line)?.[1];
      if (item !== undefined) patterns.push(unquote(item));
    }
  }
  return patterns;
}

interface NodeProject {
  manager: NonNullable<Detection['packageManager']>;
  classicYarn: boolean;
  root: Record<string, unknown>;
  packages: Record<string, unknown>[];
  workspaces: string;
}

function workspaceCandidate(project: NodeProject, script: string, notes: string[]): Candidate | null {
  const having = project.packages.filter((scripts) => usable(scripts, script)).length;
  if (having === 0) return null;
  const all = project.packages.length;
  const run = workspaceCommand(project.manager.name, project.classicYarn, script, having === all);
  if (run === null) {
    notes.push(
      `Only ${having} of ${all} workspace packages have a "${script}" script, and yarn 1's \`yarn workspaces run ${script}\` fails in the others; add a root "${script}" script to verify with it.`,
    );
    return null;
  }
  return {
    stage: 'check',
    command: {
      name: script,
      run,
      because: `script "${script}" in ${having} of ${all} workspace packages (${project.workspaces})`,
    },
  };
}

export function nodeCommands(
  files: ProjectFiles,
  packages: readonly WorkspacePackage[],
  detection: Detection,
): Candidate[] {
  const text = files['package.json'];
  if (text === undefined) return [];
  const manifest = parseManifest(text);
  if (manifest === null) detection.notes.push('package.json is not valid JSON; its scripts were not read.');
  const manager = packageManagerOf(files, manifest, detection.notes);
  detection.packageManager = manager;
  const root = scriptsOf(manifest);
  const project: NodeProject = {
    manager,
    classicYarn: isYarnClassic(files, manifest),
    root,
    packages: packages.map((p) => scriptsOf(parseManifest(p.text))),
    workspaces: workspacePatterns(files)?.because ?? 'workspaces',
  };
  const found: Candidate[] = [];
  for (const names of SCRIPT_ORDER) {
    const script =
      names.find((name) => usable(root, name)) ??
      names.find((name) => project.packages.some((p) => usable(p, name))) ??
      names[0] ??
      '';
    if (usable(root, script)) {
      found.push({
        stage: 'check',
        command: {
          name: script,
          run: scriptCommand(manager.name, script),
          because: `package.json script "${script}"`,
        },
      });
      continue;
    }
    if (script === 'test' && typeof root[script] === 'string' && NPM_PLACEHOLDER_TEST.test(root[script])) {
      detection.notes.push(
        'Skipped the "test" script: it is the placeholder `npm init` writes, which always fails.',
      );
    }
    const across = workspaceCandidate(project, script, detection.notes);
    if (across) found.push(across);
  }
  return found;
}
