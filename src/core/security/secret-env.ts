/**
 * The environment verify commands run with (threat T5: secrets in the environment echoed into
 * logs, test output or the model's context, or sent out when the network is allowed). The
 * commands come from the project, so they get the user's environment minus what looks like a
 * credential, unless the user names it in sandbox.json's allow list.
 *
 * Withholding is by name, plus one rule on values (URLs with a password). It is a net, not a
 * wall: files in the user's home stay readable, and a credential under an innocent name passes.
 * Variables that only point at a credential file are kept (KUBECONFIG, see below).
 */

export interface ChildEnvironmentOptions {
  /** Exact names (case-sensitive) passed through although they look like credentials. */
  allow: readonly string[];
  /**
   * Set last; always wins, over the filters too: the command's own `env` from sandbox.json (the
   * project asked for exactly this) and aide's AIDE_SANDBOX_NETWORK_DISABLED.
   */
  set?: Readonly<Record<string, string>>;
}

export interface ChildEnvironment {
  /** The child's complete environment. */
  env: Record<string, string>;
  /**
   * Names, sorted, of the user's variables withheld because they look like credentials; never
   * values. A name `set` defines is not listed: the command does get a variable of that name.
   */
  withheld: string[];
}

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

/**
 * Credentials whose names the rules below miss or that grant access without holding a secret:
 * an agent socket or askpass helper signs or answers for the user (push to GitHub, unlock a key).
 */
const KNOWN_CREDENTIALS = new Set([
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_SECURITY_TOKEN',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AZURE_CLIENT_SECRET',
  'AZURE_CLIENT_CERTIFICATE_PATH',
  'GH_TOKEN',
  'GITHUB_TOKEN',
  'NPM_TOKEN',
  'NODE_AUTH_TOKEN',
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  'DOCKER_AUTH_CONFIG',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'VSCODE_GIT_IPC_HANDLE',
]);

// KUBECONFIG is kept on purpose. It is a path, not a secret, and withholding it does not hide
// the file; worse, kubectl then falls back to ~/.kube/config, which may name another cluster
// (production, say) than the one the user chose. GOOGLE_APPLICATION_CREDENTIALS and
// AZURE_CLIENT_CERTIFICATE_PATH are paths too, but without them the SDKs lose those credentials
// rather than switch to others. The network being off by default is what keeps verify commands
// away from clusters.

/** Fragments that mark a credential anywhere in a name (after camelCase is split with "_"). */
const SECRET_FRAGMENTS = ['PASSWORD', 'PASSWD', 'PASSPHRASE', 'SECRET', 'CREDENTIAL', 'API_KEY', 'APIKEY', 'AUTHTOKEN', 'AUTH_IDENT', 'AUTHORIZATION', 'ACCESS_KEY', 'PRIVATE_KEY'];

/** A URL with a password (`scheme://user:password@`, user may be empty as in `redis://:pw@`). */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i;

/** `npm_config_//registry.npmjs.org/:_authToken` → NPM, CONFIG, …, AUTH, TOKEN. */
function nameSegments(name: string): { upper: string; segments: string[] } {
  const upper = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return { upper, segments: upper.split(/[^A-Z0-9]+/).filter((segment) => segment !== '') };
}

/**
 * Whether a variable looks like a credential. By name: a TOKEN or PAT word anywhere
 * (CI_JOB_TOKEN, POETRY_PYPI_TOKEN_PYPI, GH_PAT, but not TOKENIZERS_PARALLELISM or
 * PKG_CONFIG_PATH); KEY or AUTH as the last word (OPENAI_API_KEY, npm_config__auth, but not
 * KEYMAP or XAUTHORITY); PWD as the last of several words (MYSQL_PWD, but not PWD or OLDPWD);
 * a fragment of SECRET_FRAGMENTS; a known name. By value: a URL with a password in it
 * (DATABASE_URL, HTTP_PROXY=http://user:pw@proxy); a bare token as the user is not caught.
 */
export function looksLikeCredential(name: string, value: string): boolean {
  const { upper, segments } = nameSegments(name);
  const last = segments.at(-1) ?? '';
  if (KNOWN_CREDENTIALS.has(name.toUpperCase())) return true;
  if (segments.includes('TOKEN') || segments.includes('PAT')) return true;
  if (last === 'KEY' || last === 'AUTH' || (last === 'PWD' && segments.length > 1)) return true;
  if (SECRET_FRAGMENTS.some((fragment) => upper.includes(fragment))) return true;
  return URL_WITH_PASSWORD.test(value);
}

/**
 * The child's environment: the user's, minus git's redirecting variables and aide's own AIDE_*
 * (a nested aide must not inherit its parent's settings), minus credentials not in `allow`,
 * then `set` on top. Undefined values are skipped.
 */
export function childEnvironment(userEnv: Readonly<Record<string, string | undefined>>, options: ChildEnvironmentOptions): ChildEnvironment {
  const allow = new Set(options.allow);
  const set = options.set ?? {};
  const env: Record<string, string> = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(userEnv)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (GIT_REDIRECTS.has(upper) || GIT_CONFIG_PAIR.test(upper) || upper.startsWith('AIDE_')) continue;
    if (!allow.has(name) && looksLikeCredential(name, value)) {
      if (!Object.hasOwn(set, name)) withheld.push(name);
      continue;
    }
    env[name] = value;
  }
  Object.assign(env, set);
  return { env, withheld: withheld.sort() };
}
