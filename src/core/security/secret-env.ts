/**
 * The environment verify commands run with (threat T5: secrets in the environment echoed into
 * logs, test output or the model's context, or sent out when the network is allowed).
 *
 * An allow-list, not a guess: a command gets only the variables below, known not to hold
 * secrets, plus the names sandbox.json's `env_allow` lists. A list of credential-looking
 * patterns always misses one (AZURE_STORAGE_CONNECTION_STRING, CI_JOB_JWT, DB_PASS,
 * SLACK_WEBHOOK_URL, SENTRY_DSN all passed the patterns this replaced). Everything else is
 * withheld and named in the report (names, never values).
 */

export interface ChildEnvironmentOptions {
  /** Exact names (case-sensitive) passed through on top of the defaults: sandbox.json's env_allow. */
  allow: readonly string[];
  /**
   * Set last; always wins, over the filters too: the command's own `env` from sandbox.json (the
   * project asked for exactly this), the sandbox's own HOME and TMPDIR, and aide's
   * AIDE_SANDBOX_NETWORK_DISABLED.
   */
  set?: Readonly<Record<string, string>>;
}

export interface ChildEnvironment {
  /** The child's complete environment. */
  env: Record<string, string>;
  /**
   * Names, sorted, of the user's variables withheld (not on the allow-list, or a default whose
   * value holds a password); never values. A name `set` defines is not listed: the command does
   * get a variable of that name.
   */
  withheld: string[];
}

/**
 * Passed through by default, compared upper-cased (Windows environment names ignore case, and
 * `http_proxy` is as common as `HTTP_PROXY`). Each is a path, a switch or a locale, never a
 * credential. Left out on purpose, though projects use them: NODE_OPTIONS and JAVA_TOOL_OPTIONS
 * (flag channels that IDE debuggers fill with `--require`/`-javaagent` code for the interactive
 * shell, and that can carry `-Dpassword=`), npm_config_*, PIP_*, BUNDLE_*, YARN_* (registry
 * credentials live there: `npm_config_//host/:_authToken`, `PIP_INDEX_URL=https://u:pw@…`,
 * `BUNDLE_GITHUB__COM`), XDG_* (they would lead a command past its private HOME back to the
 * user's real config). A project that needs one names it in env_allow, or sets it in the
 * command's own `env`.
 */
const DEFAULT_ALLOWED: ReadonlySet<string> = new Set([
  // The shell and the terminal.
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'COLUMNS',
  'LINES',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TZ',
  'LANG',
  'LANGUAGE',
  // Windows: without these, many programs do not start at all.
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'OS',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'COMMONPROGRAMFILES',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  // "Am I in CI?" switches that test runners read (not the CI's tokens, which carry other names).
  'CI',
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'CIRCLECI',
  'BUILDKITE',
  'TF_BUILD',
  'TRAVIS',
  'APPVEYOR',
  'TEAMCITY_VERSION',
  'JENKINS_URL',
  // Certificates and proxies (a proxy URL with a password is still withheld, see below).
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
  // git's identity, for tests that commit (a private HOME has no ~/.gitconfig).
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  // Node.js and its version managers.
  'NODE_ENV',
  'NODE_PATH',
  'NVM_DIR',
  'NVM_BIN',
  'VOLTA_HOME',
  'FNM_DIR',
  'PNPM_HOME',
  'COREPACK_HOME',
  'BUN_INSTALL',
  'DENO_DIR',
  // Java.
  'JAVA_HOME',
  'JDK_HOME',
  'GRADLE_USER_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  // Go.
  'GOPATH',
  'GOROOT',
  'GOBIN',
  'GOFLAGS',
  'GOCACHE',
  'GOMODCACHE',
  'GOPROXY',
  'GOPRIVATE',
  'GONOSUMDB',
  'GOTOOLCHAIN',
  'GOOS',
  'GOARCH',
  'CGO_ENABLED',
  'GO111MODULE',
  // Rust.
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'RUSTFLAGS',
  'CARGO_TARGET_DIR',
  'RUST_BACKTRACE',
  'RUST_LOG',
  // Python (PYTHONPATH, unlike NODE_OPTIONS, is only a list of folders of the user's own code).
  'VIRTUAL_ENV',
  'PYTHONPATH',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONUNBUFFERED',
  'PYTHONIOENCODING',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'CONDA_EXE',
  'UV_CACHE_DIR',
  // Ruby, .NET.
  'GEM_HOME',
  'GEM_PATH',
  'RBENV_ROOT',
  'RBENV_VERSION',
  'DOTNET_ROOT',
  'DOTNET_CLI_HOME',
  'NUGET_PACKAGES',
  'DOTNET_CLI_TELEMETRY_OPTOUT',
  // C and C++ toolchains.
  'CC',
  'CXX',
  'PKG_CONFIG_PATH',
  'LD_LIBRARY_PATH',
  'LIBRARY_PATH',
  'CPATH',
]);

/** Name prefixes passed through by default: the locale's categories (LC_ALL, LC_CTYPE, …). */
const DEFAULT_ALLOWED_PREFIXES: readonly string[] = ['LC_'];

/**
 * Dropped without being reported: they describe aide's own shell, not the command's (the shell
 * a command runs in sets PWD and SHLVL itself), and would be noise in every report.
 */
const SHELL_BOOKKEEPING: ReadonlySet<string> = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

/**
 * git's repository-redirecting variables. Inherited inside a git hook (git exports GIT_DIR and
 * GIT_INDEX_FILE to hooks) they make every git call of a verify command act on the user's real
 * repository and index instead of the scratch's (LESSONS.md). Dropped whatever `allow` says:
 * a command runs in a scratch whose own repository is the right one. Not secrets, so they are not
 * listed in `withheld`. Compared upper-cased because Windows environment names ignore case.
 */
const GIT_REDIRECTS = new Set([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  // A parent git's `-c` settings (git sets these for hooks and aliases); they can carry a token
  // (`-c http.extraHeader=Authorization: …`) and would reconfigure the scratch's git.
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
]);

/** GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n>: the numbered form of the settings above. */
const GIT_CONFIG_PAIR = /^GIT_CONFIG_(KEY|VALUE)_\d+$/;

/** A URL with a password (`scheme://user:password@`, user may be empty as in `redis://:pw@`). */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i;

/** Whether a name is on the default allow-list (not env_allow). */
export function allowedByDefault(name: string): boolean {
  const upper = name.toUpperCase();
  return DEFAULT_ALLOWED.has(upper) || DEFAULT_ALLOWED_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** Dropped silently: git's redirects (a command must act on its scratch's repository), AIDE_*, shell bookkeeping. */
function droppedQuietly(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    GIT_REDIRECTS.has(upper) ||
    GIT_CONFIG_PAIR.test(upper) ||
    upper.startsWith('AIDE_') ||
    SHELL_BOOKKEEPING.has(upper)
  );
}

/**
 * Whether a variable reaches the command: named in `allow` (exactly, whatever its value), or on
 * the default list with a value that holds no password (`HTTPS_PROXY=http://user:pw@proxy`).
 */
function passes(name: string, value: string, allow: ReadonlySet<string>): boolean {
  if (allow.has(name)) return true;
  return allowedByDefault(name) && !URL_WITH_PASSWORD.test(value);
}

/**
 * The child's environment: the user's variables that are on the allow-list (the defaults, then
 * `allow`), never git's redirecting variables nor aide's own AIDE_* (a nested aide must not
 * inherit its parent's settings), then `set` on top. Undefined values are skipped.
 */
export function childEnvironment(
  userEnv: Readonly<Record<string, string | undefined>>,
  options: ChildEnvironmentOptions,
): ChildEnvironment {
  const allow = new Set(options.allow);
  const set = options.set ?? {};
  const env: Record<string, string> = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(userEnv)) {
    if (value === undefined || droppedQuietly(name)) continue;
    if (passes(name, value, allow)) env[name] = value;
    else if (!Object.hasOwn(set, name)) withheld.push(name);
  }
  Object.assign(env, set);
  return { env, withheld: withheld.sort() };
}
