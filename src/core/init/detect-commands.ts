/**
 * Finds a project's own test, lint, typecheck and build commands from its files, for `aide
 * init`. Pure: the caller reads the files listed in PROBED_FILES (and, in a monorepo, the
 * package.json of each workspace package) and passes their text. Detection only proposes, and
 * says where each command was found; the user edits `.aide/sandbox.json` to taste.
 *
 * Order: package.json scripts, then lint and typecheck tools, then tests, then optional extras.
 * Commands that build their own environments (tox, nox, pre-commit) or need a component that
 * is often missing (clippy) are optional: they run only when asked for.
 */
import { hasTarget, makeTargets } from './detect-make.js';
import { nodeCommands } from './detect-node.js';
import { pythonCommands, virtualenvNote } from './detect-python.js';
import type {
  Candidate,
  DetectedCommand,
  Detection,
  ProjectFiles,
  WorkspacePackage,
} from './detect-types.js';

export {
  PROBED_FILES,
  type DetectedCommand,
  type Detection,
  type PackageManager,
  type ProbedFile,
  type ProjectFiles,
  type WorkspacePackage,
} from './detect-types.js';
export { workspacePatterns } from './detect-node.js';

const STAGES: readonly Candidate['stage'][] = ['check', 'test', 'extra'];

/** Tool commands that run a project's tests (the first one found is named "test" if nothing else is). */
const TEST_TOOLS = new Set(['make-test', 'make-check', 'go-test', 'cargo-test', 'pytest']);

/** A Cargo.toml with a [package] and a [workspace]: plain `cargo test` would test the root package only. */
function cargoWorkspaceFlag(manifest: string): string[] {
  return /^\s*\[package\]/m.test(manifest) && /^\s*\[workspace\]/m.test(manifest) ? ['--workspace'] : [];
}

function rustCommands(files: ProjectFiles): Candidate[] {
  const manifest = files['Cargo.toml'];
  if (manifest === undefined) return [];
  const workspace = cargoWorkspaceFlag(manifest);
  return [
    {
      stage: 'test',
      command: { name: 'cargo-test', run: ['cargo', 'test', ...workspace], because: 'Cargo.toml' },
    },
    {
      stage: 'extra',
      command: {
        name: 'clippy',
        run: ['cargo', 'clippy', ...workspace, '--all-targets', '--', '-D', 'warnings'],
        because: 'Cargo.toml (clippy: a rustup component)',
        optional: true,
      },
    },
  ];
}

function goCommands(files: ProjectFiles): Candidate[] {
  if (files['go.mod'] === undefined) return [];
  return [
    { stage: 'check', command: { name: 'go-vet', run: ['go', 'vet', './...'], because: 'go.mod' } },
    { stage: 'test', command: { name: 'go-test', run: ['go', 'test', './...'], because: 'go.mod' } },
  ];
}

function makeCommands(files: ProjectFiles): Candidate[] {
  const file = (['GNUmakefile', 'makefile', 'Makefile'] as const).find((name) => files[name] !== undefined);
  if (file === undefined) return [];
  const targets = makeTargets(files[file] ?? '');
  const test = hasTarget(targets, 'test');
  const found: Candidate[] = [];
  if (test)
    found.push({
      stage: 'test',
      command: { name: 'make-test', run: ['make', 'test'], because: `${file} target "test"` },
    });
  if (hasTarget(targets, 'check')) {
    // `check` usually runs `test` and more; with both, running both would run the tests twice.
    const command: DetectedCommand = {
      name: 'make-check',
      run: ['make', 'check'],
      because: `${file} target "check"`,
    };
    found.push({ stage: 'test', command: test ? { ...command, optional: true } : command });
  }
  return found;
}

/** The hook ids of a .pre-commit-config.yaml, for saying what `pre-commit run` would run. */
function preCommitHooks(text: string): string[] {
  return [...text.matchAll(/^\s*-\s+id:\s*['"]?([\w.-]+)/gm)].map((m) => m[1] ?? '');
}

function preCommitCommands(files: ProjectFiles): Candidate[] {
  const text = files['.pre-commit-config.yaml'];
  if (text === undefined) return [];
  const hooks = preCommitHooks(text);
  const shown = hooks.length > 4 ? `${hooks.slice(0, 4).join(', ')}, …` : hooks.join(', ');
  const because =
    hooks.length === 0 ? '.pre-commit-config.yaml' : `.pre-commit-config.yaml (hooks: ${shown})`;
  return [
    {
      stage: 'extra',
      command: { name: 'pre-commit', run: ['pre-commit', 'run', '--all-files'], because, optional: true },
    },
  ];
}

/**
 * A Makefile's test target is how the project says to run its tests, and it most likely runs
 * `go test` / `cargo test` / pytest itself: those stay, optional, so the tests do not run twice.
 */
function preferMake(candidates: Candidate[], notes: string[]): Candidate[] {
  const make = candidates.find(
    (c) => c.command.name === 'make-test' || (c.command.name === 'make-check' && c.command.optional !== true),
  );
  if (make === undefined) return candidates;
  return candidates.map((candidate) => {
    const { command } = candidate;
    if (command.name === make.command.name || !TEST_TOOLS.has(command.name) || command.optional === true)
      return candidate;
    notes.push(
      `${command.name} (${command.run.join(' ')}) is optional: \`${make.command.run.join(' ')}\` most likely runs it already.`,
    );
    return { ...candidate, command: { ...command, optional: true } };
  });
}

/** When nothing claims "test", the first required test tool takes the name: what a one-language project expects. */
function nameTest(commands: DetectedCommand[]): DetectedCommand[] {
  if (commands.some((c) => c.name === 'test')) return commands;
  const first = commands.findIndex((c) => TEST_TOOLS.has(c.name) && c.optional !== true);
  return commands.map((c, i) => (i === first ? { ...c, name: 'test' } : c));
}

export function detectCommands(
  files: ProjectFiles,
  workspacePackages: readonly WorkspacePackage[] = [],
): Detection {
  const detection: Detection = { packageManager: null, commands: [], notes: [] };
  const node = nodeCommands(files, workspacePackages, detection);
  const tools = preferMake(
    [
      ...makeCommands(files),
      ...goCommands(files),
      ...rustCommands(files),
      ...pythonCommands(files),
      ...preCommitCommands(files),
    ],
    detection.notes,
  );
  const ordered = STAGES.flatMap((stage) => tools.filter((c) => c.stage === stage));
  detection.commands = nameTest([...node, ...ordered].map((c) => c.command));
  const venv = virtualenvNote(files, detection.commands);
  if (venv !== null) detection.notes.push(venv);
  return detection;
}
