// `npm run check`: the format check, the build (its tsc is the typecheck), lint and the tests, all
// of them, each as its own npm script. Prettier, tsc and ESLint each use one core: run one after
// the other they left the second core of a 2-core CI machine idle for over a minute (issue 12's
// 3-minute ceiling). So they run in two pairs: the format check beside the build, then lint beside
// the tests (which need the build). Output of the side jobs is held and printed whole when they end,
// so it never interleaves with the tests' report; the exit code is 1 if any of them failed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

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

function report(result) {
  const text = Buffer.concat(result.output).toString('utf8');
  process.stdout.write(
    `\n> npm run ${result.script}: ${result.code === 0 ? 'ok' : `failed (exit ${result.code})`}\n`,
  );
  if (text !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  return result.code === 0;
}

const first = await Promise.all([npmRun('format:check', true), npmRun('build', true)]);
const firstOk = first.map(report).every(Boolean);
if (!firstOk) process.exit(1);

const [lint, tests] = await Promise.all([npmRun('lint', true), npmRun('test:run', false)]);
const lintOk = report(lint);
process.stdout.write(`\n> npm run test:run: ${tests.code === 0 ? 'ok' : `failed (exit ${tests.code})`}\n`);
process.exit(lintOk && tests.code === 0 ? 0 : 1);
