// `npm run check`: the format check, the build, the typecheck, lint and the tests, all of them.
// Prettier, tsc, ESLint and the tests each fill one core at most, except the tests: run one after
// the other they left the second core of a 2-core CI machine idle for minutes (issue 12's 3-minute
// ceiling). So the tests start as soon as the build (esbuild's emit and the bundle: seconds) is done,
// and the format check, tsc's typecheck and lint run beside them. Build, typecheck and lint share one process and one
// TypeScript program (scripts/build-and-lint.mjs): ESLint's type-aware rules reuse tsc's checking. Output of the
// side jobs is held and printed whole when they end, so it never interleaves with the tests'
// report; the exit code is 1 if any of them failed.
import { Buffer } from 'node:buffer';
import { fork, spawn } from 'node:child_process';

/** Runs `npm run <script>`; its output is held (`held`) or goes straight to ours. */
function npmRun(script, held) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const output = [];
    if (held) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('error', (error) => resolve({ script, code: 1, output: [Buffer.from(`${error.message}\n`)] }));
    child.on('close', (code, signal) =>
      resolve({ script, code: code ?? (signal === null ? 1 : 128), output }),
    );
  });
}

/**
 * Starts build-and-lint.mjs: `build` settles when the build is done (tests may start), `typecheck`
 * and `lint` when they are. Each gives `{ script, code, output }`; a step the process never reported failed.
 */
function buildAndLint() {
  const child = fork(new URL('./build-and-lint.mjs', import.meta.url), [], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // Its output is held in a pipe but printed to our terminal: keep tsc's colours there.
    env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
  });
  const stray = [];
  child.stdout.on('data', (chunk) => stray.push(chunk));
  child.stderr.on('data', (chunk) => stray.push(chunk));
  const steps = {};
  const settled = {};
  for (const step of ['build', 'typecheck', 'lint'])
    steps[step] = new Promise((resolve) => (settled[step] = resolve));
  child.on('message', ({ step, ok, output }) =>
    settled[step]?.({ script: step, code: ok ? 0 : 1, output: [Buffer.from(output)] }),
  );
  const failed = (reason) => {
    for (const step of ['build', 'typecheck', 'lint'])
      settled[step]({ script: step, code: 1, output: [...stray, Buffer.from(reason)] });
  };
  child.on('error', (error) => failed(`${error.message}\n`));
  child.on('close', (code, signal) => failed(`build-and-lint.mjs ended (${signal ?? `exit ${code}`})\n`));
  return { ...steps, stop: () => child.kill() };
}

function report(result) {
  const text = Buffer.concat(result.output).toString('utf8');
  process.stdout.write(
    `\n> npm run ${result.script}: ${result.code === 0 ? 'ok' : `failed (exit ${result.code})`}\n`,
  );
  if (text !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  return result.code === 0;
}

const side = buildAndLint();
const format = npmRun('format:check', true);
// The tests need only the build; the format check (Prettier: ~20 CPU-s, longer than the build)
// goes on beside them, as the typecheck and lint do, so the second core is never idle waiting for it.
if (!report(await side.build)) {
  side.stop();
  process.exit(1);
}

const [formatted, typecheck, lint, tests] = await Promise.all([
  format,
  side.typecheck,
  side.lint,
  npmRun('test:run', false),
]);
const results = [report(formatted), report(typecheck), report(lint)];
process.stdout.write(`\n> npm run test:run: ${tests.code === 0 ? 'ok' : `failed (exit ${tests.code})`}\n`);
process.exit(results.every(Boolean) && tests.code === 0 ? 0 : 1);
