import assert from 'node:assert/strict';
import { test } from 'node:test';
import { childEnvironment, looksLikeCredential } from './secret-env.js';

const WITHHELD = [
  // Suffixes and words.
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'STRIPE_SECRET_KEY',
  'SSH_KEY',
  'KEY',
  'CI_JOB_TOKEN',
  'HF_TOKEN',
  'VAULT_TOKEN',
  'GITHUB_TOKEN_2',
  'POETRY_PYPI_TOKEN_PYPI',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  // Harmless alone, but the TOKEN word takes it too: accepted, it is useless without its partner.
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'SENTRY_AUTH_TOKEN',
  'GH_PAT',
  'AZURE_DEVOPS_PAT',
  'APP_SECRET',
  'JWT_SECRET_BASE64',
  'SECRETS_DIR',
  'PGPASSWORD',
  'TWINE_PASSWORD',
  'UV_INDEX_INTERNAL_PASSWORD',
  'LDAP_PASSWD',
  'SSH_KEY_PASSPHRASE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'CREDENTIALS_DIRECTORY',
  'SENDGRID_APIKEY',
  'MYSQL_PWD',
  'ALIBABA_CLOUD_ACCESS_KEY_ID',
  'GPG_PRIVATE_KEY_BASE64',
  'AUTHORIZATION_HEADER',
  'REDISCLI_AUTH',
  'BASIC_AUTH',
  // npm and yarn configuration from the environment.
  'NPM_CONFIG__AUTH',
  'npm_config__auth',
  'npm_config__authToken',
  'npm_config_//registry.npmjs.org/:_authToken',
  'npm_config_//npm.example.com/:_password',
  'npm_config_//npm.example.com/:_auth',
  'YARN_NPM_AUTH_TOKEN',
  'YARN_NPM_AUTH_IDENT',
  // camelCase and lower case.
  'githubToken',
  'myApiKey',
  'db_password',
  // Known names.
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
];

const KEPT = [
  'PATH',
  'HOME',
  'USER',
  'SHELL',
  'TERM',
  'LANG',
  'LC_ALL',
  'PWD',
  'OLDPWD',
  'KEYMAP',
  'XKB_DEFAULT_KEYMAP',
  'KEYBOARD',
  'MONKEY',
  'TOKENIZERS_PARALLELISM',
  'MAX_TOKENS',
  'PKG_CONFIG_PATH',
  'PATTERN',
  'SSH_TTY',
  'SSH_CONNECTION',
  'GPG_TTY',
  'XAUTHORITY',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'OS_AUTH_URL',
  'NODE_OPTIONS',
  'NODE_ENV',
  'NODE_EXTRA_CA_CERTS',
  'CI',
  'GITHUB_ACTIONS',
  'GITHUB_SHA',
  'GITHUB_API_URL',
  'ACTIONS_CACHE_URL',
  'npm_config_cache',
  'npm_config_registry',
  'npm_lifecycle_event',
  'KUBECONFIG',
  'DOCKER_CONFIG',
  'AWS_PROFILE',
  'AWS_REGION',
  'JAVA_HOME',
  'GOPATH',
  'VIRTUAL_ENV',
  'LS_COLORS',
  'DBUS_SESSION_BUS_ADDRESS',
];

test('credential-looking names are withheld', () => {
  for (const name of WITHHELD) assert.equal(looksLikeCredential(name, 'x'), true, name);
});

test('common harmless names are kept', () => {
  for (const name of KEPT) assert.equal(looksLikeCredential(name, 'x'), false, name);
});

test('a URL with a password in its value is withheld, whatever the name', () => {
  for (const value of [
    'postgres://app:s3cret@db.internal:5432/app',
    'redis://:s3cret@cache:6379/0',
    'http://proxyuser:pw@proxy.corp:3128',
    'https://x-access-token:ghp_abc@github.com/org/repo.git',
    'https://a.example/simple https://user:pw@b.example/simple',
    'MONGODB+SRV://root:pw@cluster0.example.net',
  ]) {
    assert.equal(looksLikeCredential('DATABASE_URL', value), true, value);
  }
});

test('URLs without a password, and values that merely contain ":" and "@", are kept', () => {
  for (const value of [
    'https://registry.npmjs.org/',
    'http://proxy.corp:3128',
    'ssh://git@github.com/org/repo.git',
    'git@github.com:org/repo.git',
    'https://example.com:443/pkg@1.2.3',
    'unix:path=/run/user/1000/bus',
    '/usr/local/bin:/usr/bin:/bin',
    'user@example.com',
  ]) {
    assert.equal(looksLikeCredential('SOME_URL', value), false, value);
  }
});

test('the child env is the user env minus credentials, and withheld lists their names sorted', () => {
  const { env, withheld } = childEnvironment(
    { PATH: '/usr/bin', HOME: '/home/dev', NPM_TOKEN: 'npm_abc', GITHUB_TOKEN: 'ghp_abc', DATABASE_URL: 'postgres://a:b@h/db', CI: 'true' },
    { allow: [] },
  );
  assert.deepEqual(env, { PATH: '/usr/bin', HOME: '/home/dev', CI: 'true' });
  assert.deepEqual(withheld, ['DATABASE_URL', 'GITHUB_TOKEN', 'NPM_TOKEN']);
});

test('withheld holds names only, never a value', () => {
  const { withheld } = childEnvironment({ API_KEY: 'sk-live-123', DB: 'mysql://u:hunter2@h/d' }, { allow: [] });
  const text = JSON.stringify(withheld);
  for (const secret of ['sk-live-123', 'hunter2', 'mysql://']) assert.ok(!text.includes(secret), secret);
});

test('a name in allow passes through, by its exact name only', () => {
  const { env, withheld } = childEnvironment({ NPM_TOKEN: 'a', GITHUB_TOKEN: 'b', DATABASE_URL: 'postgres://u:p@h/d' }, { allow: ['NPM_TOKEN', 'github_token', 'DATABASE_URL'] });
  assert.deepEqual(env, { NPM_TOKEN: 'a', DATABASE_URL: 'postgres://u:p@h/d' });
  assert.deepEqual(withheld, ['GITHUB_TOKEN']);
});

test('set wins over the user env, over allow and over every filter', () => {
  const { env, withheld } = childEnvironment(
    { NODE_ENV: 'development', GITHUB_TOKEN: 'user-secret', AIDE_SANDBOX_NETWORK_DISABLED: '0', GIT_DIR: '/home/dev/repo/.git' },
    { allow: [], set: { NODE_ENV: 'test', GITHUB_TOKEN: 'dummy', AIDE_SANDBOX_NETWORK_DISABLED: '1', GIT_DIR: '.git' } },
  );
  assert.deepEqual(env, { NODE_ENV: 'test', GITHUB_TOKEN: 'dummy', AIDE_SANDBOX_NETWORK_DISABLED: '1', GIT_DIR: '.git' });
  // The command does get a GITHUB_TOKEN (the configured one), so it is not reported as withheld.
  assert.deepEqual(withheld, []);
});

test("git's repository-redirecting variables are dropped, even when allowed, and not reported", () => {
  const git = {
    GIT_DIR: '/home/dev/repo/.git',
    GIT_WORK_TREE: '/home/dev/repo',
    GIT_INDEX_FILE: '/home/dev/repo/.git/index',
    GIT_OBJECT_DIRECTORY: '/x',
    GIT_ALTERNATE_OBJECT_DIRECTORIES: '/y',
    GIT_COMMON_DIR: '/z',
    GIT_NAMESPACE: 'ns',
    GIT_PREFIX: 'src/',
    GIT_CONFIG_PARAMETERS: "'http.extraheader'='Authorization: Bearer canary'",
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: 'Authorization: Bearer canary',
    git_dir: '/windows/ignores/case',
  };
  const { env, withheld } = childEnvironment({ ...git, GIT_AUTHOR_NAME: 'Dev', GIT_EDITOR: 'vi' }, { allow: Object.keys(git) });
  assert.deepEqual(env, { GIT_AUTHOR_NAME: 'Dev', GIT_EDITOR: 'vi' });
  assert.deepEqual(withheld, []);
});

test("aide's own AIDE_* variables are dropped unless set passes them, and allow does not bring them back", () => {
  const { env, withheld } = childEnvironment({ AIDE_MODEL: 'local', AIDE_CONFIG: '/x', PATH: '/bin' }, { allow: ['AIDE_MODEL'], set: { AIDE_SANDBOX_NETWORK_DISABLED: '1' } });
  assert.deepEqual(env, { PATH: '/bin', AIDE_SANDBOX_NETWORK_DISABLED: '1' });
  assert.deepEqual(withheld, []);
});

test('undefined values are skipped, empty strings kept', () => {
  const { env } = childEnvironment({ A: undefined, B: '', NPM_TOKEN: undefined }, { allow: [] });
  assert.deepEqual(env, { B: '' });
});

test('the input objects are not changed', () => {
  const user = { PATH: '/bin', NPM_TOKEN: 'x' };
  const set = { CI: '1' };
  childEnvironment(user, { allow: [], set });
  assert.deepEqual(user, { PATH: '/bin', NPM_TOKEN: 'x' });
  assert.deepEqual(set, { CI: '1' });
});
