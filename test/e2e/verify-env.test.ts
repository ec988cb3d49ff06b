/**
 * Secrets: allow, don't guess (threat T5). A verify command sees only the variables on the
 * allow-list (and env_allow); real credential variables of common providers, including those
 * a pattern list missed (AZURE_STORAGE_CONNECTION_STRING, CI_JOB_JWT, DB_PASS,
 * SLACK_WEBHOOK_URL, SENTRY_DSN), never reach it, and the report names every one withheld.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { verifyJson, verifyRepo } from '../helpers/verify.js';

const CREDENTIALS = [
  // AWS, Azure, GCP
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AZURE_CLIENT_SECRET',
  'AZURE_STORAGE_CONNECTION_STRING',
  'AZURE_STORAGE_KEY',
  'ARM_CLIENT_SECRET',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_API_KEY',
  'CLOUDSDK_AUTH_ACCESS_TOKEN',
  // GitHub, GitLab, other CI
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'CI_JOB_JWT',
  'CI_JOB_TOKEN',
  'GITLAB_TOKEN',
  'CI_REGISTRY_PASSWORD',
  'CIRCLE_TOKEN',
  'BUILDKITE_AGENT_ACCESS_TOKEN',
  'SYSTEM_ACCESSTOKEN',
  'CODECOV_TOKEN',
  // Package registries
  'NPM_TOKEN',
  'NODE_AUTH_TOKEN',
  'npm_config_//registry.npmjs.org/:_authToken',
  'TWINE_PASSWORD',
  'PYPI_API_TOKEN',
  'UV_PUBLISH_TOKEN',
  'DOCKER_AUTH_CONFIG',
  'DOCKER_PASSWORD',
  'DOCKERHUB_TOKEN',
  // SaaS
  'SLACK_WEBHOOK_URL',
  'SLACK_BOT_TOKEN',
  'SENTRY_DSN',
  'SENTRY_AUTH_TOKEN',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'TWILIO_ACCOUNT_SID',
  'TWILIO_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'HEROKU_API_KEY',
  'DIGITALOCEAN_ACCESS_TOKEN',
  'DD_API_KEY',
  'DD_APP_KEY',
  'VAULT_TOKEN',
  'HF_TOKEN',
  // Databases
  'DATABASE_URL',
  'DB_PASS',
  'MONGODB_URI',
  'REDIS_URL',
  'PGPASSWORD',
  'MYSQL_PWD',
  // Agents and flag channels
  'SSH_AUTH_SOCK',
  'NODE_OPTIONS',
];

/** Prints the names it was given, and whether any value it was given is a canary. */
const PRINT_ENV = [
  'node',
  '-e',
  'const e = process.env; console.log("names: " + Object.keys(e).sort().join(" ")); console.log(Object.values(e).some((v) => v.includes("can" + "ary")) ? "LEAKED" : "clean")',
];

test('credentials of common providers never reach a verify command, and each is named as withheld', async (t) => {
  const root = verifyRepo(t, [{ name: 'env', run: PRINT_ENV }], { env_allow: ['MY_SETTING'] });
  const env: Record<string, string> = Object.fromEntries(CREDENTIALS.map((name, i) => [name, `canary-${i}`]));
  env['DATABASE_URL'] = 'postgres://app:canary-db@db.internal/app';
  env['MY_SETTING'] = 'kept';
  env['LC_ALL'] = 'C.UTF-8';
  const { result, report } = await verifyJson(root, [], env);
  assert.equal(result.code, 0, result.stderr);
  const tail = report.commands[0]?.tail ?? '';
  assert.match(tail, /^clean$/m, tail);
  const names = (/^names: (.*)$/m.exec(tail)?.[1] ?? '').split(' ');
  for (const name of CREDENTIALS) {
    assert.ok(!names.includes(name), `${name} reached the command`);
    assert.ok(report.withheldEnv.includes(name), `${name} is not named as withheld`);
  }
  for (const name of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'MY_SETTING'])
    assert.ok(names.includes(name), `${name} should reach the command`);
  assert.ok(!report.withheldEnv.includes('MY_SETTING'));
  assert.ok(
    !result.stdout.includes('canary') && !result.stderr.includes('canary'),
    "a value leaked into aide's output",
  );

  const text = await runAide(['verify'], { cwd: root, env });
  assert.equal(text.code, 0, text.stderr);
  const line =
    /^withheld from the commands \(not on the allow-list\): (.*); list one in env_allow/m.exec(
      text.stdout,
    )?.[1] ?? '';
  for (const name of CREDENTIALS) assert.ok(line.split(', ').includes(name), `${name} missing from: ${line}`);
  assert.ok(!text.stdout.includes('canary') && !text.stderr.includes('canary'));
});
