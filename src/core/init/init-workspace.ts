/**
 * `aide init`: writes `.aide/config.json`, `.aide/sandbox.json` (with the detected verify
 * commands) and `.aide/.gitignore`. Never overwrites the config files unless forced, and never
 * rewrites a user's `.gitignore` (it only appends `state/`). All files are written in one
 * commit of the FileSystem port: each atomically, and none if one fails.
 *
 * A plain async function rather than an event stream: there is nothing to approve or to
 * watch, and the report is the whole story.
 */
import { join } from 'node:path';
import {
  AIDE_DIR,
  CONFIG_FILE,
  CONFIG_SCHEMA_FILE,
  GITIGNORE_FILE,
  INSTALLED_SCHEMA_DIR,
  SANDBOX_FILE,
} from '../../config/files.js';
import { gitignoreWithState, initialConfigText, initialSandboxText } from '../../config/init-files.js';
import { AideError } from '../../shared/errors.js';
import type { FileSystem, FileWrite } from '../ports/files.js';
import {
  detectCommands,
  PROBED_FILES,
  workspacePatterns,
  type Detection,
  type ProjectFiles,
  type WorkspacePackage,
} from './detect-commands.js';
import { expandWorkspaces, type DirectoryLister } from './workspace-dirs.js';

export interface InitRequest {
  /** The workspace root, absolute. */
  root: string;
  /** Overwrite existing config.json and sandbox.json. */
  force: boolean;
}

export interface InitFile {
  /** Relative to the workspace root. */
  path: string;
  action: 'created' | 'overwritten' | 'appended' | 'unchanged';
}

export interface InitReport {
  root: string;
  files: InitFile[];
  detection: Detection;
  /** Where `$schema` points, relative to `.aide/`; null when aide is not installed in the project. */
  schemaDir: string | null;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The files command detection looks at, as text (absent ones left out). */
export async function readProject(fs: FileSystem, root: string): Promise<ProjectFiles> {
  const files: ProjectFiles = {};
  for (const name of PROBED_FILES) {
    if ((await fs.lstat(join(root, name)))?.kind !== 'file') continue;
    const bytes = await fs.readFile(join(root, name));
    if (bytes !== null) files[name] = decoder.decode(bytes);
  }
  return files;
}

/** Existing config files, or an error when `.aide` itself is in the way. */
async function existingConfigFiles(fs: FileSystem, root: string): Promise<string[]> {
  const dir = await fs.lstat(join(root, AIDE_DIR));
  if (dir !== null && dir.kind !== 'directory') {
    throw new AideError(
      'workspace_invalid',
      `${AIDE_DIR} exists but is not a folder; aide keeps its files in a folder of that name`,
      {
        hint: `Move ${AIDE_DIR} aside, then run \`aide init\` again.`,
      },
    );
  }
  const existing: string[] = [];
  for (const file of [CONFIG_FILE, SANDBOX_FILE])
    if ((await fs.lstat(join(root, file))) !== null) existing.push(file);
  return existing;
}

function refuse(existing: readonly string[]): AideError {
  const what =
    existing.length === 1 ? `${existing[0] ?? ''} already exists` : `${existing.join(' and ')} already exist`;
  return new AideError('config_exists', `${what}; nothing written`, { remedy: 'init_force' });
}

/** `$schema` points at the schemas shipped with aide when aide is installed in the project. */
async function schemaDirFor(fs: FileSystem, root: string): Promise<string | null> {
  const installed = await fs.lstat(join(root, `${INSTALLED_SCHEMA_DIR}/${CONFIG_SCHEMA_FILE}`));
  return installed === null ? null : `../${INSTALLED_SCHEMA_DIR}`;
}

interface Planned {
  file: InitFile;
  /** null: the file stays as it is. */
  change: FileWrite | null;
}

async function planWrite(fs: FileSystem, root: string, path: string, content: string): Promise<Planned> {
  const target = join(root, path);
  const previous = await fs.readFile(target);
  return {
    file: { path, action: previous === null ? 'created' : 'overwritten' },
    change: { kind: 'write', path: target, content: encoder.encode(content), previous },
  };
}

async function planGitignore(fs: FileSystem, root: string): Promise<Planned> {
  const target = join(root, GITIGNORE_FILE);
  const previous = await fs.readFile(target);
  const text = gitignoreWithState(previous === null ? null : decoder.decode(previous));
  if (text === null) return { file: { path: GITIGNORE_FILE, action: 'unchanged' }, change: null };
  return {
    file: { path: GITIGNORE_FILE, action: previous === null ? 'created' : 'appended' },
    change: { kind: 'write', path: target, content: encoder.encode(text), previous },
  };
}

/**
 * The package.json of each workspace package a monorepo declares (none without a lister or
 * workspaces); a package.json that is missing or not a file is left out.
 */
export async function readWorkspacePackages(
  fs: FileSystem,
  lister: DirectoryLister | undefined,
  root: string,
  files: ProjectFiles,
): Promise<WorkspacePackage[]> {
  const declared = workspacePatterns(files);
  if (lister === undefined || declared === null) return [];
  const packages: WorkspacePackage[] = [];
  for (const dir of await expandWorkspaces(lister, root, declared.patterns)) {
    const path = join(root, dir, 'package.json');
    if ((await fs.lstat(path))?.kind !== 'file') continue;
    const bytes = await fs.readFile(path);
    if (bytes !== null) packages.push({ dir, text: decoder.decode(bytes) });
  }
  return packages;
}

/** What `aide init` detects in a workspace (and `aide verify` runs when sandbox.json lists no commands). */
export async function detectProject(
  fs: FileSystem,
  lister: DirectoryLister | undefined,
  root: string,
): Promise<Detection> {
  const files = await readProject(fs, root);
  return detectCommands(files, await readWorkspacePackages(fs, lister, root, files));
}

export interface InitDeps {
  fs: FileSystem;
  /** Lists folders, to find a monorepo's workspace packages; without it they are not read. */
  lister?: DirectoryLister;
}

export async function initWorkspace(request: InitRequest, deps: InitDeps): Promise<InitReport> {
  const { fs } = deps;
  const { root } = request;
  const existing = await existingConfigFiles(fs, root);
  if (existing.length > 0 && !request.force) throw refuse(existing);
  const detection = await detectProject(fs, deps.lister, root);
  const schemaDir = await schemaDirFor(fs, root);
  const planned = [
    await planWrite(fs, root, CONFIG_FILE, initialConfigText(schemaDir)),
    await planWrite(fs, root, SANDBOX_FILE, initialSandboxText(detection.commands, schemaDir)),
    await planGitignore(fs, root),
  ];
  await fs.commit(planned.flatMap((p) => (p.change === null ? [] : [p.change])));
  return { root, files: planned.map((p) => p.file), detection, schemaDir };
}
