import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assessDoctor, compareVersions, parseVersion, satisfies, type DoctorFacts } from './assess.js';
import type { ModelContact } from './model-check.js';

const READY: ModelContact = {
  state: 'ready',
  info: {
    server: 'ollama',
    model: 'qwen2.5-coder:14b',
    contextTokens: 16384,
    contextSource: '/api/ps context_length',
  },
  roundTrip: { ok: true, latencyMs: 42.4, evalTokens: 1, tokensPerSecond: 31.25 },
};

function facts(overrides: Partial<DoctorFacts> = {}): DoctorFacts {
  return {
    platform: 'linux',
    node: { version: 'v20.20.2', required: '>=20.19' },
    git: { version: '2.39.5' },
    workspace: {
      root: '/w',
      refused: null,
      gitRepo: true,
      shadow: { present: true, bytes: 3 * 1024 * 1024, sessions: 2 },
    },
    scratch: {
      home: '/tmp/aide-scratch/abc',
      active: 0,
      stale: 1,
      tempFree: { bytes: 2 * 1024 ** 3, tmpfs: true },
      overlay: { available: true, detail: 'mounted in 4 ms' },
    },
    isolation: {
      verify: {
        mechanism: 'unshare',
        network: 'off',
        workspaceReadOnly: true,
        writable: 'scratch',
        sockets: 'hidden',
        processTree: 'namespace',
        detail: null,
      },
      bubblewrap: { present: false, version: null },
    },
    model: { endpoint: 'http://127.0.0.1:11434/v1', loopback: true, allowRemote: false, contact: READY },
    ...overrides,
  };
}

const statuses = (f: DoctorFacts) => Object.fromEntries(assessDoctor(f).checks.map((c) => [c.id, c.status]));

test('versions: parse, compare and ">=" ranges', () => {
  assert.deepEqual(parseVersion('v20.20.2'), [20, 20, 2]);
  assert.deepEqual(parseVersion('2.39.5 (Apple Git-154)'), [2, 39, 5]);
  assert.deepEqual(parseVersion('2.28'), [2, 28, 0]);
  assert.equal(parseVersion('none'), null);
  assert.ok(compareVersions([2, 28, 0], [2, 27, 9]) > 0);
  assert.equal(satisfies('v20.19.0', '>=20.19'), true);
  assert.equal(satisfies('v20.18.3', '>=20.19'), false);
  assert.equal(satisfies('v22.1.0', '^20 || ^22'), null);
});

test('a machine with everything: ok, worktree scratch, overlay detected and used for verify commands', () => {
  const report = assessDoctor(facts());
  assert.equal(report.ok, true);
  assert.deepEqual(statuses(facts()), {
    node: 'ok',
    git: 'ok',
    workspace: 'ok',
    scratch: 'ok',
    network: 'ok',
    model: 'ok',
  });
  assert.equal(report.scratch.mechanism, 'worktree');
  assert.match(
    report.scratch.reason,
    /only inside its own mount namespace.*verify commands write to a throwaway one/,
  );
  const scratch = report.checks.find((c) => c.id === 'scratch');
  assert.ok(scratch?.details.some((d) => d.includes('1 stale') && d.includes('2.0 GiB free in RAM')));
});

test('what fails (exit 1) and what only warns', () => {
  const table: Array<[string, Partial<DoctorFacts>, Record<string, string>]> = [
    ['old node', { node: { version: 'v18.20.0', required: '>=20.19' } }, { node: 'fail' }],
    ['no git', { git: { version: null } }, { git: 'fail', scratch: 'fail' }],
    ['old git', { git: { version: '2.25.1' } }, { git: 'fail', scratch: 'fail' }],
    ['invalid config', { model: { error: '.aide/config.json is invalid (1 problem)' } }, { config: 'fail' }],
    [
      'remote model with consent',
      {
        model: { endpoint: 'https://gpu.example.com/v1', loopback: false, allowRemote: true, contact: READY },
      },
      { model: 'warn' },
    ],
    [
      'home folder',
      {
        workspace: {
          root: '/root',
          refused: 'aide will not keep checkpoints of your home directory',
          gitRepo: false,
          shadow: { present: false, bytes: 0, sessions: 0 },
        },
      },
      { workspace: 'warn' },
    ],
    [
      'no namespaces',
      {
        isolation: {
          verify: {
            mechanism: 'none',
            network: 'unavailable',
            workspaceReadOnly: false,
            writable: 'anywhere',
            sockets: 'reachable',
            processTree: 'process-group',
            detail: 'network isolation: unavailable because unshare: Operation not permitted',
          },
          bubblewrap: { present: true, version: '0.8.0' },
        },
      },
      { network: 'warn' },
    ],
  ];
  for (const [name, overrides, expected] of table) {
    const f = facts(overrides);
    const report = assessDoctor(f);
    const got = statuses(f);
    for (const [id, status] of Object.entries(expected)) assert.equal(got[id], status, `${name}: ${id}`);
    assert.equal(report.ok, !Object.values(expected).includes('fail'), `${name}: ok`);
    for (const check of report.checks)
      if (check.status !== 'ok' && check.id !== 'model')
        assert.notEqual(check.fix, null, `${name}: ${check.id} has a fix`);
  }
});

test('without git there is no scratch mechanism', () => {
  assert.equal(assessDoctor(facts({ git: { version: null } })).scratch.mechanism, 'none');
});

test('the network check says where verify commands can write and whether sockets outside the scratch are hidden, and why not', () => {
  const confined = assessDoctor(facts()).checks.find((c) => c.id === 'network');
  assert.ok(
    confined?.details.includes(
      'where verify commands can write: only the scratch and their own fresh HOME and temp folder',
    ),
  );
  assert.ok(
    confined?.details.includes(
      'UNIX sockets on disk outside the scratch (docker, ssh-agent): out of sight (private /tmp, /run, /dev/shm and $HOME)',
    ) === true,
  );
  const detail =
    '$HOME, /tmp and the rest of the file system outside the workspace are writable and UNIX sockets on disk (/tmp, /run, $HOME) are reachable because pivot_root: failed';
  const verify = {
    mechanism: 'unshare',
    network: 'off',
    workspaceReadOnly: true,
    writable: 'outside-workspace',
    sockets: 'reachable',
    processTree: 'namespace',
    detail,
  } as const;
  const partial = assessDoctor(
    facts({ isolation: { verify, bubblewrap: { present: false, version: null } } }),
  ).checks.find((c) => c.id === 'network');
  assert.ok(
    partial?.details.includes(
      'where verify commands can write: anywhere but the workspace and its git dirs ($HOME and /tmp included)',
    ),
  );
  assert.ok(
    partial?.details.includes('UNIX sockets on disk outside the scratch (docker, ssh-agent): reachable'),
  );
  assert.ok(partial?.details.includes(detail));
});

test('the kept scratch is shown with where it is and what removes it', () => {
  const kept = (value: DoctorFacts['scratch']['kept']) =>
    assessDoctor(facts({ scratch: { ...facts().scratch, kept: value } }))
      .checks.find((c) => c.id === 'scratch')
      ?.details.find((d) => d.startsWith('kept scratch:'));
  assert.match(
    kept({ path: '/tmp/aide-scratch/abc/kept-0a1b2c3d', inUse: false }) ?? '',
    /kept-0a1b2c3d; swept and moved by the next session, removed by `aide checkpoints prune`/,
  );
  assert.match(kept({ path: '/tmp/aide-scratch/abc/kept-0a1b2c3d', inUse: true }) ?? '', /\(in use\)/);
  assert.match(kept(null) ?? '', /none yet/);
});
