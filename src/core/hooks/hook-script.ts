/**
 * What `aide hooks` writes and how it recognises its own: the hook script rendered from the
 * project's template (hooks/hook.sh.template), the marker line, the name a kept foreign hook moves
 * to, and hook managers whose folder core.hooksPath names. Pure: the wiring reads and writes.
 */

/** The hooks aide installs. */
export type HookName = 'pre-commit' | 'pre-push';
export const HOOK_NAMES: readonly HookName[] = ['pre-commit', 'pre-push'];

/** The line that marks a hook (or a line in a manager's hook file) as aide's. */
export const HOOK_MARKER = '# installed by aide';

/** The hook's first argument, written into the script unquoted-as-a-word: git's remote name for pre-push. */
export const FIRST_HOOK_ARG = '$1';

/**
 * The aide arguments each hook runs (nothing else names them). pre-push reviews what is pushed:
 * `--pre-push <remote>` reads git's `<local ref> <local sha> <remote ref> <remote sha>` lines on
 * stdin and reviews each pushed range (cli/review-push.ts).
 */
export const HOOK_ARGS: Readonly<Record<HookName, readonly string[]>> = {
  'pre-commit': ['review', '--staged'],
  'pre-push': ['review', '--pre-push', FIRST_HOOK_ARG],
};

/** One word of a hook's aide command, for POSIX sh. */
function shWord(arg: string): string {
  if (arg === FIRST_HOOK_ARG) return `"${FIRST_HOOK_ARG}"`;
  return /^[\w./=:@%+,-]+$/.test(arg) ? arg : shQuote(arg);
}

/** Where a foreign hook is kept while aide's runs in its place (and runs it first). */
export function chainedName(hook: HookName): string {
  return `${hook}.aide-chained`;
}

/** A word for POSIX sh, single-quoted. */
export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The pre-commit style line printed when AIDE_SKIP=1 skips the checks: 80 columns. */
export function skippedLine(): string {
  const name = 'aide (AIDE_SKIP=1)';
  const status = 'Skipped';
  return `${name}${'.'.repeat(80 - name.length - status.length)}${status}`;
}

/** How aide ran at install time: the node binary and aide's entry point, both absolute. */
export interface AideRunner {
  node: string;
  entry: string;
}

/** The hook script: the template with the hook's name, the runner and the command filled in. */
export function renderHookScript(template: string, hook: HookName, runner: AideRunner): string {
  const args = HOOK_ARGS[hook];
  const fills: Record<string, string> = {
    '@HOOK@': hook,
    '@GIT_VERB@': hook === 'pre-push' ? 'push' : 'commit',
    '@ARGS_TEXT@': args.join(' '),
    '@ARGS@': args.map(shWord).join(' '),
    '@SKIPPED@': skippedLine(),
    '@NODE@': shQuote(runner.node),
    '@ENTRY@': shQuote(runner.entry),
  };
  return template.replaceAll(/@[A-Z_]+@/g, (key) => fills[key] ?? key);
}

/** Whether a hook's text is one aide wrote (the marker among its first lines). */
export function isAideHook(text: string): boolean {
  return text.split('\n', 5).some((line) => line.startsWith(HOOK_MARKER));
}

/** The runner an aide hook recorded (`aide_node='…'`, `aide_entry='…'`), or null when unreadable. */
export function recordedRunner(text: string): AideRunner | null {
  const value = (name: string): string | undefined => {
    const match = new RegExp(`^${name}='((?:[^']|'\\\\'')*)'$`, 'm').exec(text);
    return match?.[1]?.replaceAll(`'\\''`, "'");
  };
  const node = value('aide_node');
  const entry = value('aide_entry');
  return node === undefined || entry === undefined ? null : { node, entry };
}

/** A hook manager that owns the folder core.hooksPath names; its own hook files are where a line goes. */
export interface HookManager {
  name: 'husky';
  /** The manager's folder of hook files (`<top>/.husky`), absolute. */
  folder: string;
}

/** husky (v9 sets core.hooksPath to `.husky/_`, v4–v8 to `.husky`) or null. `dir` is absolute, '/'-separated. */
export function hookManager(dir: string): HookManager | null {
  const trimmed = dir.replace(/\/+$/, '');
  if (trimmed.endsWith('/.husky/_')) return { name: 'husky', folder: trimmed.slice(0, -2) };
  if (trimmed.endsWith('/.husky')) return { name: 'husky', folder: trimmed };
  return null;
}

/** The line for a manager's hook file: portable (the file is committed), marked so uninstall finds it. */
export function managerLine(hook: HookName): string {
  return `aide ${HOOK_ARGS[hook].map(shWord).join(' ')} ${HOOK_MARKER} (aide hooks uninstall removes this line)`;
}

/** A manager's hook file without aide's lines (what uninstall leaves). */
export function withoutAideLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.includes(HOOK_MARKER))
    .join('\n');
}
