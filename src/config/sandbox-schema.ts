/**
 * `.aide/sandbox.json`: how aide verifies a change. Only these commands ever run (never one a
 * model proposes), on a scratch copy of the workspace, with these timeouts and this network
 * policy. The one source of truth for the file, like config-schema.ts.
 */
import { z } from 'zod';
import { CACHE_ENTRIES, DEFAULT_LINKS, MAX_GLOB_DEPTH } from '../shared/links.js';
import {
  bool,
  COMMAND_NAME_PATTERN,
  envVarName,
  intAtLeast,
  list,
  positiveInt,
  relativePath,
  schemaRef,
  strictObject,
  text,
} from './fields.js';

/**
 * Ceilings. A day for any timeout (a verify run longer than that is stuck; past 2^31 ms a Node
 * timer would fire at once); 1 MiB of output tail (it is read into memory and shown, and the
 * model is meant to get about 2 KB); 1 GiB of log per command; 10 reruns and 20 attempts (each
 * is a full run of the commands); 100 commands and links, 1000 names in a list.
 */
export const MAX_TIMEOUT_MS = 86_400_000;
export const MAX_OUTPUT_TAIL_BYTES = 1_048_576;
export const MAX_OUTPUT_LOG_BYTES = 1_073_741_824;
export const MAX_FLAKE_RERUNS = 10;
export const MAX_ATTEMPTS = 20;
const MAX_COMMANDS = 100;
const CACHE_LIST = CACHE_ENTRIES.join(', ');
const MAX_NAMES = 1000;

function commandName() {
  const error = 'expected a command name: letters, digits and . _ : - (e.g. "test", "lint:types")';
  return z.string({ error }).regex(COMMAND_NAME_PATTERN, { error });
}

function commandLine() {
  const error =
    'expected an argv array of non-empty strings (e.g. ["npm", "test"]) or a shell command string (e.g. "make check")';
  const argv = z
    .array(z.string().min(1), { error })
    .min(1, { error })
    .max(MAX_NAMES, { error: `expected at most ${MAX_NAMES} arguments` })
    .describe('Program and arguments, run without a shell.');
  const shell = z.string().min(1).describe('A command line run by /bin/sh -c.');
  return z.union([argv, shell], { error });
}

const commandSchema = strictObject(
  {
    name: commandName().describe('Unique name of the command, shown in reports (e.g. "test").'),
    run: commandLine().describe(
      'What to run: an argv array (no shell; preferred) or a string run by /bin/sh -c.',
    ),
    timeout_ms: positiveInt('milliseconds', 30000, MAX_TIMEOUT_MS)
      .optional()
      .describe(
        "Milliseconds before this command's process group is killed, at most a day. Unset: the file's timeout_ms.",
      ),
    env: z
      .record(envVarName(), z.string({ error: 'expected a string value' }), {
        error: (issue) =>
          issue.code === 'invalid_type'
            ? 'expected an object of environment variables, e.g. { "CI": "1" }'
            : undefined,
      })
      .optional()
      .describe('Environment variables set for this command only (in addition to env_allow).'),
    optional: bool()
      .default(false)
      .describe("Run only when asked for: by a plan step's Verify: line or `aide verify --commands`."),
  },
  'a command with "name" and "run"',
);

/**
 * Names identify commands in reports and logs, so two commands may not share one. Runs even
 * when an item is invalid (`when`), so a duplicate is reported together with other problems.
 */
function checkUniqueNames(commands: unknown, ctx: z.core.$RefinementCtx): void {
  if (!Array.isArray(commands)) return;
  const first = new Map<string, number>();
  commands.forEach((command: unknown, index) => {
    const name =
      typeof command === 'object' && command !== null
        ? (command as Record<string, unknown>)['name']
        : undefined;
    if (typeof name !== 'string') return;
    const earlier = first.get(name);
    if (earlier === undefined) {
      first.set(name, index);
      return;
    }
    ctx.addIssue({
      code: 'custom',
      path: [index, 'name'],
      message: `"${name}" is already the name of commands[${earlier}]; commands[${earlier}] and commands[${index}] need different names`,
      params: { hint: 'Rename one of them: names identify commands in reports and logs.' },
    });
  });
}

/**
 * "~/" and a path inside the home folder: no "..", no empty or "." segment, not the home itself
 * (all of it would put every credential and socket there back in sight). A regex so editors
 * check it too.
 */
const HOME_PATH = /^~\/(?!\.{1,2}(?:\/|$))(?!.*\/\.{1,2}(?:\/|$))(?!.*\/\/)[^\0]+$/;

function homePath() {
  const error =
    'expected a path in your home folder starting with "~/", without "." or ".." segments (e.g. "~/.cache/pip")';
  return z.string({ error }).regex(HOME_PATH, { error });
}

export const sandboxSchema = strictObject(
  {
    $schema: schemaRef(),
    commands: list(commandSchema, 'commands', MAX_COMMANDS)
      .superRefine(checkUniqueNames, { when: () => true })
      .default([])
      .describe(
        `Verify commands, run in this order on a scratch copy of the workspace; a change is verified when all of them pass (optional ones run only when asked for). At most ${MAX_COMMANDS}.`,
      ),
    timeout_ms: positiveInt('milliseconds', 120000, MAX_TIMEOUT_MS)
      .default(120000)
      .describe(
        "Milliseconds before a command's whole process group is killed, unless the command sets its own. At most a day (86400000).",
      ),
    total_timeout_ms: positiveInt('milliseconds', 600000, MAX_TIMEOUT_MS)
      .default(600000)
      .describe('Milliseconds for one verification run of all commands together. At most a day (86400000).'),
    allow_network: bool()
      .default(false)
      .describe(
        'Let verify commands use the network. Off: they run without network access where the OS allows (threat T10).',
      ),
    keep_verify_writes: bool()
      .default(false)
      .describe(
        "aide act: keep what verify commands write in the scratch copy (build outputs, caches such as .eslintcache or a tsbuildinfo) for the next step's commands. Off: where the OS allows (an overlay in the sandbox, see aide doctor), each verification writes to a throwaway layer, so every step is verified on exactly its own files and aide need not re-read the scratch after the commands, which on a large repository is most of a step's own time.",
      ),
    link: list(relativePath('a folder to link'), 'paths', MAX_COMMANDS)
      .default([...DEFAULT_LINKS])
      .describe(
        `Ignored folders the commands need, linked into the scratch copy instead of copied: paths, or globs of folders ("packages/*/node_modules", "**/node_modules"), matched when the scratch is made; a glob never looks inside a node_modules, a dot-folder or a folder it matched, nor deeper than ${MAX_GLOB_DEPTH} folders for "**". The default covers the root node_modules and those of workspace packages one or two folders down (npm, yarn and pnpm workspaces such as packages/*, apps/*). A linked folder is a folder of links to its entries, without the caches tools write there (${CACHE_LIST}): those are made in the scratch, so the workspace's folder is never written. At most ${MAX_COMMANDS}.`,
      ),
    flake_reruns: intAtLeast(0, 'reruns', 1, MAX_FLAKE_RERUNS)
      .default(1)
      .describe(
        `Times a failing command is run again before the failure counts (flake guard; every run is recorded). At most ${MAX_FLAKE_RERUNS}.`,
      ),
    max_attempts: positiveInt('attempts', 3, MAX_ATTEMPTS)
      .default(3)
      .describe(
        `Edit-and-verify attempts per plan step; the failing output tail goes back to the model between attempts. At most ${MAX_ATTEMPTS}.`,
      ),
    output_tail_bytes: positiveInt('bytes', 2048, MAX_OUTPUT_TAIL_BYTES)
      .default(2048)
      .describe(
        "Bytes from the end of a command's output (whole lines, colors stripped) shown in reports and given back to the model. At most 1 MiB (1048576): it is held in memory and shown.",
      ),
    output_log_bytes: positiveInt('bytes', 16777216, MAX_OUTPUT_LOG_BYTES)
      .default(16777216)
      .describe(
        "Bytes of each command's output kept in its log file; the rest is read and dropped, and the log says how much. At most 1 GiB (1073741824).",
      ),
    env_allow: list(envVarName(), 'environment variable names', MAX_NAMES)
      .default([])
      .describe(
        `Environment variables passed through to verify commands, on top of the default allow-list (PATH, HOME, LANG, LC_*, CI, toolchain paths; the README lists them under aide verify); everything else is withheld and named in the report (threat T5). At most ${MAX_NAMES}.`,
      ),
    home_binds: list(homePath(), 'paths in your home, e.g. "~/.cache/pip"', MAX_NAMES)
      .default([])
      .describe(
        'Files and folders of your home that verify commands may read, e.g. "~/.cache/pip" or "~/.gitconfig": each appears read-only at the same place in the fresh, empty HOME the commands get; the rest of your home is out of their sight. Missing ones are skipped. At most 1000.',
      ),
    allowed_commands: list(text('a command line'), 'command lines', MAX_NAMES)
      .default([])
      .describe(
        `Command lines a plan's "Run:" steps may execute, exactly as written; any other is refused. At most ${MAX_NAMES}.`,
      ),
  },
  'the sandbox settings',
).meta({
  title: 'aide .aide/sandbox.json',
  description: 'Verify commands and the policy they run under, for aide, the git-native coding agent.',
});

/** `.aide/sandbox.json` after defaults are applied. */
export type SandboxConfig = z.output<typeof sandboxSchema>;
/** `.aide/sandbox.json` as written in the file. */
export type SandboxConfigInput = z.input<typeof sandboxSchema>;
/** One verify command. */
export type SandboxCommand = SandboxConfig['commands'][number];
