import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowedByDefault, childEnvironment } from './secret-env.js';

/** Real credential variables of common providers: none is on the default list. */
const CREDENTIALS = [
  'AZURE_STORAGE_CONNECTION_STRING',
  'CI_JOB_JWT',
  'DB_PASS',
  'SLACK_WEBHOOK_URL',
  'SENTRY_DSN',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'GITHUB_TOKEN',
  'npm_config_//registry.npmjs.org/:_authToken',
  'TWINE_PASSWORD',
  'DOCKER_AUTH_CONFIG',
  'STRIPE_SECRET_KEY',
  'OPENAI_API_KEY',
  'SSH_AUTH_SOCK',
];

test('credentials of common providers are withheld, by name only', () => {
  const userEnv = Object.fromEntries(CREDENTIALS.map((name, i) => [name, `canary-${i}`]));
  const { env, withheld } = childEnvironment({ ...userEnv, PATH: '/usr/bin' }, { allow: [] });
  assert.deepEqual(env, { PATH: '/usr/bin' });
  assert.deepEqual(withheld, [...CREDENTIALS].sort());
  assert.ok(!JSON.stringify(withheld).includes('canary'));
});

test('the defaults: shell, locale, CI switches and toolchain paths pass', () => {
  for (const name of [
    'PATH',
    'HOME',
    'USER',
    'SHELL',
    'TERM',
    'LANG',
    'LC_ALL',
    'LC_CTYPE',
    'TZ',
    'TMPDIR',
    'CI',
    'GITHUB_ACTIONS',
    'JAVA_HOME',
    'GOPATH',
    'GOFLAGS',
    'CARGO_HOME',
    'RUSTUP_HOME',
    'VIRTUAL_ENV',
    'PYTHONPATH',
    'LD_LIBRARY_PATH',
    'NODE_ENV',
    'GIT_AUTHOR_NAME',
    'http_proxy',
    'Path',
    'SystemRoot',
  ]) {
    assert.equal(allowedByDefault(name), true, name);
  }
});

test('flag channels and registry settings are not on the default list', () => {
  for (const name of [
    'NODE_OPTIONS',
    'JAVA_TOOL_OPTIONS',
    'npm_config_registry',
    'PIP_INDEX_URL',
    'BUNDLE_GITHUB__COM',
    'YARN_NPM_AUTH_TOKEN',
    'XDG_CONFIG_HOME',
    'GIT_CONFIG_GLOBAL',
    'PLAIN',
    'LC',
  ]) {
    assert.equal(allowedByDefault(name), false, name);
  }
});

test('a default whose value holds a password is withheld; env_allow passes it', () => {
  const userEnv = {
    HTTPS_PROXY: 'http://proxyuser:pw@proxy.corp:3128',
    HTTP_PROXY: 'http://proxy.corp:3128',
  };
  assert.deepEqual(childEnvironment(userEnv, { allow: [] }), {
    env: { HTTP_PROXY: 'http://proxy.corp:3128' },
    withheld: ['HTTPS_PROXY'],
  });
  assert.deepEqual(childEnvironment(userEnv, { allow: ['HTTPS_PROXY'] }).env, userEnv);
});

test('a name in allow passes through, by its exact name only', () => {
  const { env, withheld } = childEnvironment(
    { NPM_TOKEN: 'a', GITHUB_TOKEN: 'b', DATABASE_URL: 'postgres://u:p@h/d' },
    { allow: ['NPM_TOKEN', 'github_token', 'DATABASE_URL'] },
  );
  assert.deepEqual(env, { NPM_TOKEN: 'a', DATABASE_URL: 'postgres://u:p@h/d' });
  assert.deepEqual(withheld, ['GITHUB_TOKEN']);
});

test('set wins over the user env, over allow and over every filter', () => {
  const { env, withheld } = childEnvironment(
    {
      NODE_ENV: 'development',
      HOME: '/home/dev',
      GITHUB_TOKEN: 'user-secret',
      AIDE_SANDBOX_NETWORK_DISABLED: '0',
      GIT_DIR: '/home/dev/repo/.git',
    },
    {
      allow: [],
      set: {
        NODE_ENV: 'test',
        HOME: '/tmp/aide-home',
        GITHUB_TOKEN: 'dummy',
        AIDE_SANDBOX_NETWORK_DISABLED: '1',
        GIT_DIR: '.git',
      },
    },
  );
  assert.deepEqual(env, {
    NODE_ENV: 'test',
    HOME: '/tmp/aide-home',
    GITHUB_TOKEN: 'dummy',
    AIDE_SANDBOX_NETWORK_DISABLED: '1',
    GIT_DIR: '.git',
  });
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
  const { env, withheld } = childEnvironment(
    { ...git, GIT_AUTHOR_NAME: 'Dev', GIT_EDITOR: 'vi' },
    { allow: [...Object.keys(git), 'GIT_EDITOR'] },
  );
  assert.deepEqual(env, { GIT_AUTHOR_NAME: 'Dev', GIT_EDITOR: 'vi' });
  assert.deepEqual(withheld, []);
});

test("aide's own AIDE_* variables and the shell's bookkeeping are dropped without a report", () => {
  const { env, withheld } = childEnvironment(
    {
      AIDE_MODEL: 'local',
      AIDE_CONFIG: '/x',
      PATH: '/bin',
      PWD: '/w',
      OLDPWD: '/',
      SHLVL: '2',
      _: '/usr/bin/aide',
    },
    { allow: ['AIDE_MODEL'], set: { AIDE_SANDBOX_NETWORK_DISABLED: '1' } },
  );
  assert.deepEqual(env, { PATH: '/bin', AIDE_SANDBOX_NETWORK_DISABLED: '1' });
  assert.deepEqual(withheld, []);
});

test('undefined values are skipped, empty strings kept', () => {
  const { env } = childEnvironment({ A: undefined, LANG: '', NPM_TOKEN: undefined }, { allow: [] });
  assert.deepEqual(env, { LANG: '' });
});

test('the input objects are not changed', () => {
  const user = { PATH: '/bin', NPM_TOKEN: 'x' };
  const set = { CI: '1' };
  childEnvironment(user, { allow: [], set });
  assert.deepEqual(user, { PATH: '/bin', NPM_TOKEN: 'x' });
  assert.deepEqual(set, { CI: '1' });
});
