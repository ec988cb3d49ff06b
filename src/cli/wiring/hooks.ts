/**
 * `aide hooks`' effects: finds the folder git runs hooks from (through the one door to the user's
 * repository), writes aide's hook from the project's template, keeps and restores a foreign hook,
 * and reads back what is installed. The decisions about text are core/hooks/hook-script.ts'.
 */
import { accessSync, constants, existsSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import {
  chainedName,
  hookManager,
  isAideHook,
  managerLine,
  recordedRunner,
  renderHookScript,
  withoutAideLines,
  type AideRunner,
  type HookManager,
  type HookName,
} from '../../core/hooks/hook-script.js';
import { hooksDir, type Env } from '../../infra/git/user-repo.js';
import { AideError } from '../../shared/errors.js';
import { cliEntry, packagePath } from '../package-files.js';

/** The node running now and aide's entry point (package.json's bin): what the hook records. */
export function currentRunner(): AideRunner {
  return { node: process.execPath, entry: cliEntry() };
}

/** The folder git runs hooks from, or a usage error outside a repository. */
export async function resolveHooksDir(cwd: string, env: Env): Promise<string> {
  const dir = await hooksDir(cwd, env);
  if (dir === undefined)
    throw new AideError(
      'workspace_invalid',
      `${cwd} is not in a git repository: there is nowhere to install a hook`,
      {
        hint: 'Run `aide hooks` inside a git work tree (or give --cwd one), or `git init` first.',
        exitCode: 2,
      },
    );
  return dir;
}

/** What `install` did for one hook. */
export type InstallOutcome =
  /** aide's hook is in place; `chained`: a foreign hook is kept and runs first; `again`: it was there already. */
  | { kind: 'installed'; hook: HookName; path: string; chained: string | null; again: boolean }
  /** A hook manager owns the folder: the line to add to its file; `written` with --force. */
  | { kind: 'manager'; hook: HookName; manager: HookManager; file: string; line: string; written: boolean };

function read(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

function installIntoManager(manager: HookManager, hook: HookName, force: boolean): InstallOutcome {
  const file = join(manager.folder, hook);
  const line = managerLine(hook);
  if (force) {
    const text = read(file) ?? '';
    if (!text.includes(line)) {
      const separator = text === '' || text.endsWith('\n') ? '' : '\n';
      writeFileSync(file, `${text}${separator}${line}\n`);
      chmodSync(file, 0o755);
    }
  }
  return { kind: 'manager', hook, manager, file, line, written: force };
}

export async function installHook(
  cwd: string,
  env: Env,
  hook: HookName,
  force: boolean,
): Promise<InstallOutcome> {
  const dir = await resolveHooksDir(cwd, env);
  const manager = hookManager(dir.replaceAll('\\', '/'));
  if (manager !== null) return installIntoManager(manager, hook, force);
  const path = join(dir, hook);
  const kept = join(dir, chainedName(hook));
  const existing = read(path);
  const again = existing !== null && isAideHook(existing);
  if (existing !== null && !again) {
    if (existsSync(kept))
      throw new AideError('usage', `${path} is not aide's, and ${kept} is taken already`, {
        hint: `Merge or remove one of them by hand, then run \`aide hooks install --hook ${hook}\` again.`,
      });
    // A rename keeps the foreign hook's bytes and mode exactly, for uninstall to put back.
    renameSync(path, kept);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path,
    renderHookScript(readFileSync(packagePath('hooks', 'hook.sh.template'), 'utf8'), hook, currentRunner()),
  );
  chmodSync(path, 0o755);
  return { kind: 'installed', hook, path, chained: existsSync(kept) ? kept : null, again };
}

/** What `uninstall` did for one hook. */
export type UninstallOutcome =
  | { kind: 'removed'; hook: HookName; path: string; restored: string | null }
  | { kind: 'foreign'; hook: HookName; path: string }
  | { kind: 'absent'; hook: HookName; path: string }
  | { kind: 'manager'; hook: HookName; file: string; removed: boolean };

export async function uninstallHook(cwd: string, env: Env, hook: HookName): Promise<UninstallOutcome> {
  const dir = await resolveHooksDir(cwd, env);
  const manager = hookManager(dir.replaceAll('\\', '/'));
  if (manager !== null) {
    const file = join(manager.folder, hook);
    const text = read(file);
    if (text === null || withoutAideLines(text) === text)
      return { kind: 'manager', hook, file, removed: false };
    const rest = withoutAideLines(text);
    if (rest.trim() === '') unlinkSync(file);
    else writeFileSync(file, rest);
    return { kind: 'manager', hook, file, removed: true };
  }
  const path = join(dir, hook);
  const text = read(path);
  if (text === null) return { kind: 'absent', hook, path };
  if (!isAideHook(text)) return { kind: 'foreign', hook, path };
  unlinkSync(path);
  const kept = join(dir, chainedName(hook));
  if (!existsSync(kept)) return { kind: 'removed', hook, path, restored: null };
  renameSync(kept, path);
  return { kind: 'removed', hook, path, restored: path };
}

/** One hook as `status` sees it. */
export interface HookStatus {
  hook: HookName;
  path: string;
  state: 'aide' | 'foreign' | 'absent';
  /** A kept foreign hook aide's runs first, or null. */
  chained: string | null;
  /** Whether git would run the file at all (the executable bit). */
  executable: boolean;
  /** How aide's hook would find aide: the recorded node and entry, `aide` on PATH, or not at all. */
  runner: 'recorded' | 'path' | 'none' | null;
  recorded: AideRunner | null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function aideOnPath(env: Env): boolean {
  return (env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, 'aide')));
}

function oneStatus(dir: string, hook: HookName, env: Env): HookStatus {
  const path = join(dir, hook);
  const kept = join(dir, chainedName(hook));
  const text = read(path);
  const state = text === null ? 'absent' : isAideHook(text) ? 'aide' : 'foreign';
  const recorded = state === 'aide' && text !== null ? recordedRunner(text) : null;
  const runner =
    state !== 'aide'
      ? null
      : recorded !== null && isExecutable(recorded.node) && existsSync(recorded.entry)
        ? 'recorded'
        : aideOnPath(env)
          ? 'path'
          : 'none';
  return {
    hook,
    path,
    state,
    chained: existsSync(kept) ? kept : null,
    executable: text !== null && isExecutable(path),
    runner,
    recorded,
  };
}

/** Where git looks for hooks, a manager owning that folder, and each hook aide knows. */
export interface HooksStatus {
  dir: string;
  manager: HookManager | null;
  /** For a manager's folder: whether its hook file has aide's line, per hook. */
  managerLines: Partial<Record<HookName, boolean>>;
  hooks: HookStatus[];
}

export async function hooksStatus(cwd: string, env: Env, hooks: readonly HookName[]): Promise<HooksStatus> {
  const dir = await resolveHooksDir(cwd, env);
  const manager = hookManager(dir.replaceAll('\\', '/'));
  const managerLines: Partial<Record<HookName, boolean>> = {};
  if (manager !== null)
    for (const hook of hooks)
      managerLines[hook] = (read(join(manager.folder, hook)) ?? '').includes(managerLine(hook));
  return { dir, manager, managerLines, hooks: hooks.map((hook) => oneStatus(dir, hook, env)) };
}
