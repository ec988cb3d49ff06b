/**
 * `.aide/config.json`: the model aide talks to, the agent loop's limits and the paths a change
 * may not touch without the user's explicit approval. The one source of truth for the file:
 * the TypeScript types, the JSON Schema in schemas/ and the README reference come from here.
 */
import { z } from 'zod';
import {
  bool,
  COMMAND_NAME_PATTERN,
  envVarName,
  httpUrl,
  intAtLeast,
  list,
  positiveInt,
  schemaRef,
  strictObject,
  text,
} from './fields.js';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:11434/v1';
export const DEFAULT_MODEL = 'qwen2.5-coder:14b';
export const DEFAULT_CONTEXT_TOKENS = 16384;
/** Which API aide speaks: `auto` asks the server what it is (infra/model/detect.ts). */
export const MODEL_PROVIDERS = ['auto', 'ollama', 'openai-compatible'] as const;
export const DEFAULT_TEMPERATURE = 0.2;
/** Ten minutes for one reply: a 32B model on a laptop CPU can take that long for a big prompt. */
export const DEFAULT_MODEL_TIMEOUT_MS = 600_000;
export const MAX_MODEL_TIMEOUT_MS = 86_400_000;
export const DEFAULT_KEEP_ALIVE = '30m';
/**
 * Grammar mode (core/agent/grammar.ts): `auto` sends a grammar on a re-ask where the server takes
 * one (llama.cpp's llama-server, vLLM), `off` never does.
 */
export const GRAMMAR_MODES = ['auto', 'off'] as const;
/** Ollama's keep_alive: a duration ("30m", "90s", "1h", "500ms"), "0" to unload at once, "-1" to keep it loaded. */
const KEEP_ALIVE = /^(?:-1|0|\d{1,6}(?:ms|s|m|h))$/;

/**
 * Ceilings. 1M tokens of context (the largest windows models offer); 1000 model turns and 100
 * mistakes in a row per step (a loop past that is runaway, threat T9); 1 MiB per tool result
 * (it goes into the prompt); 1 GiB per checkpointed file (files are read into memory); 1000
 * protected globs.
 */
export const MAX_CONTEXT_TOKENS = 1_048_576;
export const MAX_ITERATIONS = 1000;
export const MAX_CONSECUTIVE_MISTAKES = 100;
export const MAX_TOOL_RESULT_BYTES = 1_048_576;
export const MAX_CHECKPOINT_FILE_BYTES = 1_073_741_824;
const MAX_PROTECTED_PATHS = 1000;

/**
 * Protected by default. A change to any of these is never approved automatically: a model
 * that edits tests, snapshots, test-runner settings or lockfiles can make verification pass
 * without fixing anything (threat T6), and scripts, build files, install settings, hooks and CI
 * configuration run code later on someone's machine (T7). `glob#/pointer` protects one value
 * inside a JSON file: `**\/package.json#/scripts` is the `scripts` field of every package.json,
 * so dependency bumps stay ordinary edits. TOML has no such rule (it would take a TOML parser),
 * so pyproject.toml is protected whole: its [tool.pytest] and [project.scripts] tables decide
 * which tests run and what runs later. `.aide/**` is protected whatever this list says
 * (ALWAYS_PROTECTED in core/security/protected-paths.ts).
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  // Tests and snapshots.
  '**/test/**',
  '**/tests/**',
  '**/__tests__/**',
  '**/spec/**',
  '**/*.test.*',
  '**/*.spec.*',
  '**/*-test.*',
  '**/*_test.*',
  '**/test.*',
  '**/test_*.py',
  '**/*_spec.rb',
  '**/conftest.py',
  '**/__snapshots__/**',
  '**/*.snap',
  // Test-runner settings: which tests run, and how a failure counts.
  '**/jest.config.*',
  '**/vitest.config.*',
  '**/vitest.workspace.*',
  '**/.mocharc*',
  '**/package.json#/jest',
  '**/package.json#/mocha',
  '**/pytest.ini',
  '**/tox.ini',
  '**/noxfile.py',
  '**/setup.cfg',
  '**/pyproject.toml',
  // Lockfiles.
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/pnpm-lock.yaml',
  '**/yarn.lock',
  '**/bun.lock',
  '**/bun.lockb',
  '**/Cargo.lock',
  '**/go.sum',
  '**/poetry.lock',
  '**/uv.lock',
  // Code that runs later: scripts, build files, install settings, the shell's directory hooks.
  '**/package.json#/scripts',
  '**/Makefile',
  '**/GNUmakefile',
  '**/.npmrc',
  '**/.yarnrc*',
  '**/.pnpmfile.cjs',
  '**/.envrc',
  // CI and git hooks.
  '.github/workflows/**',
  '.github/actions/**',
  '.gitlab-ci.yml',
  '.circleci/**',
  'azure-pipelines.yml',
  '**/Jenkinsfile',
  '.pre-commit-config.yaml',
  '{.,}lefthook{,-local}.{yml,yaml}',
  '.husky/**',
  '.githooks/**',
  '.git/**',
  '.aide/**',
];

/** A workspace-relative glob, optionally followed by `#/json/pointer` into a .json file. */
const PROTECTED_PATH = /^(?![\\/])(?!(?:.*\/)?\.\.(?:\/|#|$))[^#\\]+?(?:\.json#\/[^#]*)?$/;

function protectedPath() {
  const error =
    'expected a glob relative to the workspace root with / separators and no ".." (e.g. "migrations/**"), ' +
    'optionally followed by #/pointer into a .json file (e.g. "**/package.json#/scripts")';
  return z.string({ error }).regex(PROTECTED_PATH, { error });
}

/** Hosts that reach this machine only. `URL.hostname` keeps IPv6 brackets. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * A remote endpoint receives the prompts, and with them the user's code: it takes an explicit
 * `allow_remote`. Runs even when other model fields are invalid (`when`), so every problem is
 * reported at once; the value may then be partial, hence the defensive reads.
 */
function checkRemoteConsent(model: unknown, ctx: z.core.$RefinementCtx): void {
  if (typeof model !== 'object' || model === null) return;
  const { endpoint, allow_remote: allowRemote } = model as Record<string, unknown>;
  if (typeof endpoint !== 'string' || allowRemote === true || !URL.canParse(endpoint)) return;
  const host = new URL(endpoint).hostname;
  if (isLoopbackHost(host)) return;
  ctx.addIssue({
    code: 'custom',
    path: ['endpoint'],
    message: `${endpoint} is not on this machine: prompts, and the code in them, would be sent to ${host}`,
    params: {
      hint: `If you trust that server, set "allow_remote": true in "model" (or AIDE_ALLOW_REMOTE=1); otherwise use a local server such as ${DEFAULT_ENDPOINT}.`,
    },
  });
}

const modelSchema = strictObject(
  {
    endpoint: httpUrl()
      .default(DEFAULT_ENDPOINT)
      .describe(
        'Base URL of an OpenAI-compatible server (Ollama, llama.cpp server, LM Studio, vLLM). A host other than loopback needs allow_remote.',
      ),
    name: text('a model name')
      .default(DEFAULT_MODEL)
      .describe('Model name as the server knows it (e.g. "qwen2.5-coder:14b" for Ollama).'),
    context_tokens: intAtLeast(1024, 'tokens', 32768, MAX_CONTEXT_TOKENS)
      .default(DEFAULT_CONTEXT_TOKENS)
      .describe(
        'Context window to request, in tokens, at most 1048576. Sent to Ollama as num_ctx: its own default is small (2k-4k) and it silently truncates longer prompts.',
      ),
    api_key_env: envVarName()
      .optional()
      .describe(
        'Name of the environment variable holding the API key, if the server needs one. The key itself never goes in this file.',
      ),
    allow_remote: bool()
      .default(false)
      .describe('Consent to send prompts (and the code in them) to an endpoint that is not on this machine.'),
    provider: z
      .enum(MODEL_PROVIDERS, { error: `expected one of ${MODEL_PROVIDERS.map((p) => `"${p}"`).join(', ')}` })
      .default('auto')
      .describe(
        'The API aide speaks. "auto" asks the server (Ollama, llama.cpp server, LM Studio, vLLM, or any OpenAI-compatible one); "ollama" uses its native /api/chat, the only Ollama API that can set the context size.',
      ),
    temperature: z
      .number({ error: 'expected a number from 0 to 2 (e.g. 0.2)' })
      .min(0, { error: 'expected a number from 0 to 2 (e.g. 0.2)' })
      .max(2, { error: 'expected a number from 0 to 2 (e.g. 0.2)' })
      .default(DEFAULT_TEMPERATURE)
      .describe('Sampling temperature sent with every request, from 0 to 2. Low values keep edits literal.'),
    timeout_ms: positiveInt('milliseconds', 600000, MAX_MODEL_TIMEOUT_MS)
      .default(DEFAULT_MODEL_TIMEOUT_MS)
      .describe(
        `Longest wait for one whole reply, in milliseconds, at most ${MAX_MODEL_TIMEOUT_MS} (a day). A stream that goes silent for long fails sooner.`,
      ),
    keep_alive: z
      .string({ error: 'expected a duration such as "30m", "90s" or "1h", "0" or "-1"' })
      .regex(KEEP_ALIVE, { error: 'expected a duration such as "30m", "90s" or "1h", "0" or "-1"' })
      .default(DEFAULT_KEEP_ALIVE)
      .describe(
        'How long Ollama keeps the model loaded after a request ("30m", "1h"; "0" unloads at once, "-1" keeps it loaded). Other servers ignore it.',
      ),
    grammar: z
      .enum(GRAMMAR_MODES, { error: `expected one of ${GRAMMAR_MODES.map((m) => `"${m}"`).join(', ')}` })
      .default('auto')
      .describe(
        'Grammar mode: "auto" asks again for a tool call the parser rejected under a grammar of the tool schemas, where the server takes one (llama.cpp server, vLLM; never Ollama or LM Studio); "off" never sends one.',
      ),
  },
  'the model settings',
)
  .superRefine(checkRemoteConsent, { when: () => true })
  .prefault({})
  .describe('The model server aide talks to.');

const limitsSchema = strictObject(
  {
    max_iterations: positiveInt('model turns', 25, MAX_ITERATIONS)
      .default(25)
      .describe(`Most model turns per plan step before aide stops the step. At most ${MAX_ITERATIONS}.`),
    max_consecutive_mistakes: positiveInt('mistakes', 3, MAX_CONSECUTIVE_MISTAKES)
      .default(3)
      .describe(
        `Malformed tool calls or failed edits in a row before aide stops the step. At most ${MAX_CONSECUTIVE_MISTAKES}.`,
      ),
    max_tool_result_bytes: positiveInt('bytes', 16384, MAX_TOOL_RESULT_BYTES)
      .default(16384)
      .describe(
        'Largest tool result passed to the model, in bytes; longer output is cut with a marker. At most 1 MiB (1048576).',
      ),
    context_budget_tokens: positiveInt('tokens', 12000, MAX_CONTEXT_TOKENS)
      .optional()
      .describe(
        'Most tokens of conversation sent to the model; past it the oldest tool results are dropped (the model is told). At most 1048576. Unset: the context the server gives (or model.context_tokens).',
      ),
  },
  'the agent loop limits',
)
  .prefault({})
  .describe('Caps that stop runaway agent loops (threat T9).');

const checkpointsSchema = strictObject(
  {
    max_file_bytes: positiveInt('bytes', 20 * 1024 * 1024, MAX_CHECKPOINT_FILE_BYTES)
      .default(20 * 1024 * 1024)
      .describe(
        'Files larger than this are left out of checkpoints, with a warning naming them; restore never touches a file a checkpoint left out. At most 1 GiB (1073741824).',
      ),
  },
  'the checkpoint settings',
)
  .prefault({})
  .describe('Checkpoints in the shadow repository (.aide/state/shadow.git).');

/** What `review.protected` may say: a change to a protected path is a warning, or fails the review. */
export const REVIEW_PROTECTED_MODES = ['warn', 'block'] as const;
/**
 * The severities a model review gives its findings, mildest first; `review.model_blocks_on` names
 * the mildest one that fails the check, or `none` (the model only advises).
 */
export const MODEL_SEVERITIES = ['info', 'warning', 'error'] as const;
export const MODEL_BLOCKS_ON = ['none', ...MODEL_SEVERITIES] as const;
export const DEFAULT_REVIEW_MAX_FILE_KB = 500;
/** 1 GiB: a larger file cannot be read into memory to be checked anyway. */
export const MAX_REVIEW_FILE_KB = 1_048_576;
const MAX_REVIEW_COMMANDS = 100;

const oneOf = (values: readonly string[]) => `expected one of ${values.map((v) => `"${v}"`).join(', ')}`;

function reviewCommandName() {
  const error = 'expected the name of a command in .aide/sandbox.json (e.g. "lint")';
  return z.string({ error }).regex(COMMAND_NAME_PATTERN, { error });
}

const reviewSchema = strictObject(
  {
    commands: list(reviewCommandName(), 'command names', MAX_REVIEW_COMMANDS)
      .optional()
      .describe(
        'The .aide/sandbox.json commands `aide review` (and so the git hook) runs in its verify check, by name, e.g. ["lint", "test:unit"]: a whole suite per commit may be too slow. Unset: the commands `aide verify` runs.',
      ),
    protected: z
      .enum(REVIEW_PROTECTED_MODES, { error: oneOf(REVIEW_PROTECTED_MODES) })
      .default('warn')
      .describe(
        'A change to a protected path (protected_paths) in `aide review`: "warn" shows it and lets it through, "block" fails the protected-paths check.',
      ),
    max_file_kb: positiveInt('KiB', DEFAULT_REVIEW_MAX_FILE_KB, MAX_REVIEW_FILE_KB)
      .default(DEFAULT_REVIEW_MAX_FILE_KB)
      .describe(
        `Added or changed files larger than this, in KiB, fail the large-files check of \`aide review\` (Git LFS pointers are never counted). At most ${MAX_REVIEW_FILE_KB} (1 GiB).`,
      ),
    model_blocks_on: z
      .enum(MODEL_BLOCKS_ON, { error: oneOf(MODEL_BLOCKS_ON) })
      .default('none')
      .describe(
        'The mildest severity of a model review finding that fails the model check of `aide review` ("error", "warning" or "info"); "none" shows the findings and never fails (a model is advice).',
      ),
  },
  'the review settings',
)
  .prefault({})
  .describe('`aide review` and the git hooks that run it.');

export const configSchema = strictObject(
  {
    $schema: schemaRef(),
    model: modelSchema,
    limits: limitsSchema,
    checkpoints: checkpointsSchema,
    review: reviewSchema,
    protected_paths: list(protectedPath(), 'globs', MAX_PROTECTED_PATHS)
      .default([...DEFAULT_PROTECTED_PATHS])
      .describe(
        'Paths whose changes are never approved automatically: `aide apply` and `aide act` write them only with --allow-protected or a yes at the terminal. ' +
          'Globs relative to the workspace root (`*` within a segment, `**` across segments), matched without regard to case where the file system ignores it; ' +
          '`glob#/pointer` protects one value in a JSON file, e.g. `**/package.json#/scripts`. Setting this replaces the default list; `.aide/**` stays protected whatever it says. At most 1000.',
      ),
  },
  'the aide configuration',
).meta({
  title: 'aide .aide/config.json',
  description:
    'Model, loop limits, checkpoints, review and protected paths for aide, the git-native coding agent.',
});

/** `.aide/config.json` after defaults are applied. */
export type AideConfig = z.output<typeof configSchema>;
/** `.aide/config.json` as written in the file. */
export type AideConfigInput = z.input<typeof configSchema>;
