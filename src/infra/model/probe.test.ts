import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
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
