import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { configSchema } from '../../config/config-schema.js';
import { probeModelServer } from './probe.js';

function modelAt(endpoint: string) {
  return configSchema.parse({ model: { endpoint, name: 'qwen2.5-coder:7b' } }).model;
}

function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      resolve((server.address() as AddressInfo).port);
    }),
  );
}

test('a closed port is no server, named by its error code, without waiting for the deadline', async () => {
  const server = createTcpServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  const started = performance.now();
  const outcome = await probeModelServer(modelAt(`http://127.0.0.1:${port}/v1`), {}, 5_000);
  assert.ok(performance.now() - started < 2_000);
  assert.deepEqual(outcome, {
    ok: false,
    failure: { kind: 'no_server', endpoint: `http://127.0.0.1:${port}/v1`, detail: 'ECONNREFUSED' },
  });
});

test('a server that answers anything is reachable; one that accepts and never answers runs into the deadline', async (t) => {
  const paths: string[] = [];
  const answering = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.writeHead(404).end('{}');
  });
  const hung = createTcpServer(() => undefined);
  t.after(() => {
    answering.close();
    hung.close();
  });
  const up = await listen(answering);
  assert.deepEqual(await probeModelServer(modelAt(`http://127.0.0.1:${up}/v1`), {}, 5_000), {
    ok: true,
    value: null,
  });
  assert.deepEqual(paths, ['/v1/models']);
  const silent = await listen(hung);
  const outcome = await probeModelServer(modelAt(`http://127.0.0.1:${silent}/v1`), {}, 300);
  assert.equal(outcome.ok, false);
  assert.notEqual(!outcome.ok && outcome.failure.kind, 'no_server');
});

/**
 * A port whose handshakes never complete: a listener in another process, its accept queue
 * (backlog 1) filled and its event loop blocked, so the kernel drops further connection
 * attempts as it does for a host behind a firewall that drops packets.
 */
async function unansweredPort(t: { after(fn: () => void): void }): Promise<number> {
  const listener = spawn(
    process.execPath,
    [
      '-e',
      "const s = require('net').createServer(); s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => { process.stdout.write(s.address().port + '\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20000); });",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const fillers: Socket[] = [];
  t.after(() => {
    for (const f of fillers) f.destroy();
    listener.kill('SIGKILL');
  });
  const port = await new Promise<number>((resolve, reject) => {
    listener.stdout.once('data', (d: Buffer) => {
      resolve(Number(d.toString().trim()));
    });
    listener.once('exit', () => {
      reject(new Error('the listener exited'));
    });
  });
  for (let i = 0; i < 4; i++) fillers.push(connect({ host: '127.0.0.1', port }).on('error', () => undefined));
  await new Promise((resolve) => setTimeout(resolve, 200));
  return port;
}

test('a host that never completes the handshake times out at the deadline, once (no second wait for the GET)', async (t) => {
  const port = await unansweredPort(t);
  const started = performance.now();
  const outcome = await probeModelServer(modelAt(`http://127.0.0.1:${port}/v1`), {}, 1000);
  const took = performance.now() - started;
  assert.deepEqual(outcome, { ok: false, failure: { kind: 'timeout', which: 'total', ms: 1000 } });
  // One deadline, not two: a second wait for the GET would make it 2 s.
  assert.ok(took >= 900 && took < 1800, `took ${took.toFixed(0)} ms`);
});
