/**
 * What verify commands cannot do (threats T5, T6, T10): reach the host's network, write the
 * real workspace, read credentials from the environment; and isolation is never claimed when
 * it is not in force.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { fingerprint } from '../helpers/sandbox.js';
import { verifyJson, verifyRepo, withoutState } from '../helpers/verify.js';

async function loopbackServer(t: {
  after(fn: () => void): void;
}): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

const fetchCommand = (port: number) => [
  'node',
  '-e',
  `fetch("http://127.0.0.1:${port}/").then(r => r.text()).then(t => { console.log("got", t); }, e => { console.log("blocked", e.cause?.code ?? e.message); process.exit(9); })`,
];

test("network off (the default): a command cannot reach a server on the host's loopback", async (t) => {
  const server = await loopbackServer(t);
  const root = verifyRepo(t, [{ name: 'net', run: fetchCommand(server.port) }], { flake_reruns: 0 });
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(report.isolation.network, 'off');
  assert.match(report.commands[0]?.tail ?? '', /blocked/);
  assert.equal(server.hits(), 0);
});

test('allow_network: true lets the same command reach it', async (t) => {
  const server = await loopbackServer(t);
  const root = verifyRepo(t, [{ name: 'net', run: fetchCommand(server.port) }], {
    allow_network: true,
    flake_reruns: 0,
  });
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(report.isolation.network, 'allowed');
  assert.match(report.commands[0]?.tail ?? '', /got reached/);
  assert.equal(server.hits(), 1);
});

test('commands see AIDE_SANDBOX_NETWORK_DISABLED=1 when network is off, and can still use their own loopback', async (t) => {
  const script = `const s = require("http").createServer((q, r) => r.end("inside")).listen(0, "127.0.0.1", () => fetch("http://127.0.0.1:" + s.address().port).then(r => r.text()).then(x => { console.log(x, process.env.AIDE_SANDBOX_NETWORK_DISABLED); s.close(); }))`;
  const root = verifyRepo(t, [{ name: 'local', run: ['node', '-e', script] }], { flake_reruns: 0 });
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  assert.match(report.commands[0]?.tail ?? '', /inside 1/);
});

test('a command that writes into the workspace path cannot change the real workspace', async (t) => {
  const root = verifyRepo(t, [], {}, { 'src/app.js': 'export const answer = 42;\n' });
  const target = join(root, 'src/app.js');
  const sandbox = {
    commands: [
      {
        name: 'sabotage',
        run: `echo 'export const answer = 0;' > ${target}; echo written >> ${join(root, 'planted.txt')}; exit 0`,
      },
    ],
  };
  // The sandbox file is part of the workspace: rewrite it, then compare everything else after the run.
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(root, '.aide/sandbox.json'), JSON.stringify(sandbox));
  const before = fingerprint(root);
  const { result, report } = await verifyJson(root);
  assert.equal(report.isolation.workspaceReadOnly, true);
  assert.equal(result.code, 0, 'the shell line exits 0 even though its writes failed');
  assert.match(report.commands[0]?.tail ?? '', /Read-only file system/);
  assert.equal(readFileSync(target, 'utf8'), 'export const answer = 42;\n');
  const after = fingerprint(root);
  assert.deepEqual(withoutState(after), withoutState(before));
});

test('credentials in the environment are withheld, unless env_allow names them', async (t) => {
  const probe = [
    'node',
    '-e',
    'for (const k of ["SERVICE_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "ALLOWED_KEY", "PLAIN"]) console.log(k + "=" + (process.env[k] ?? "<unset>"))',
  ];
  const root = verifyRepo(t, [{ name: 'env', run: probe }], { env_allow: ['ALLOWED_KEY'] });
  const env = {
    SERVICE_TOKEN: 'tok-canary-1',
    AWS_SECRET_ACCESS_KEY: 'aws-canary-2',
    DB_PASSWORD: 'pw-canary-3',
    ALLOWED_KEY: 'allowed-4',
    PLAIN: 'plain-5',
  };
  const { result, report } = await verifyJson(root, [], env);
  assert.equal(result.code, 0, result.stderr);
  const tail = report.commands[0]?.tail ?? '';
  assert.match(tail, /SERVICE_TOKEN=<unset>/);
  assert.match(tail, /AWS_SECRET_ACCESS_KEY=<unset>/);
  assert.match(tail, /DB_PASSWORD=<unset>/);
  assert.match(tail, /ALLOWED_KEY=allowed-4/);
  // Not on the allow-list: withheld too, though it looks harmless (test/e2e/verify-env.test.ts).
  assert.match(tail, /PLAIN=<unset>/);
  for (const name of ['AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'PLAIN', 'SERVICE_TOKEN'])
    assert.ok(report.withheldEnv.includes(name), name);
  assert.ok(!report.withheldEnv.includes('ALLOWED_KEY'));
  for (const canary of ['tok-canary-1', 'aws-canary-2', 'pw-canary-3']) {
    assert.ok(
      !result.stdout.includes(canary) && !result.stderr.includes(canary),
      `${canary} leaked into aide's output`,
    );
  }
});

test('no isolation mechanism and network not allowed: refused, saying why and what to do', async (t) => {
  const root = verifyRepo(t, [{ name: 'test', run: 'echo hi' }]);
  const result = await runAide(['verify'], { cwd: root, env: { AIDE_ISOLATION: 'none' } });
  assert.equal(result.code, 2, result.stdout);
  assert.match(result.stderr, /network isolation: unavailable because/);
  assert.match(result.stderr, /allow_network|--no-isolation/);
});

test('--no-isolation runs unconfined and the report says so, never claiming isolation', async (t) => {
  const root = verifyRepo(t, [{ name: 'test', run: 'echo hi' }]);
  const { result, report } = await verifyJson(root, ['--no-isolation']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(report.isolation.mechanism, 'none');
  assert.equal(report.isolation.network, 'allowed');
  assert.equal(report.isolation.workspaceReadOnly, false);
  const text = await runAide(['verify', '--no-isolation'], { cwd: root });
  assert.match(text.stdout, /isolation: none \(--no-isolation\)/);
});

test('no mechanism but allow_network: runs, and the verdict says network isolation is unavailable', async (t) => {
  const root = verifyRepo(t, [{ name: 'test', run: 'echo hi' }], { allow_network: true });
  const { result, report } = await verifyJson(root, [], { AIDE_ISOLATION: 'none' });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(report.isolation.mechanism, 'none');
  assert.equal(report.isolation.workspaceReadOnly, false);
  assert.match(
    report.isolation.detail ?? '',
    /isolation: unavailable because it was turned off \(AIDE_ISOLATION=none\)/,
  );
  assert.match(result.stderr, /^isolation: unavailable because it was turned off/m);
});
