// `npm run check`'s build and lint in one process, sharing one TypeScript program.
//
// Type-aware lint builds and checks the whole program again after tsc has done it: on 2 cores that
// was ~70 s of CPU for lint beside ~20 s for tsc, most of it the same type checking. Here the
// program tsc emits from is handed to ESLint (typescript-eslint's `parserOptions.programs`), so its
// checker's work is reused: ~63 CPU-s for both instead of ~90.
//
// The steps are the same as `npm run build` then `npm run lint`: clean dist/, emit with the
// project's tsconfig.json (any diagnostic fails the build, as tsc's exit code does), bundle, then
// ESLint with the project's config and no warning allowed. Run under `scripts/check.mjs` (an IPC
// channel), it reports each step as a message, so the tests start as soon as the build is done
// while lint goes on; run alone, it prints and sets the exit code.
import ts from 'typescript';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

/** Messages still on their way to the parent: the process must not end before they arrive. */
const sending = [];

function finish(step, ok, output) {
  if (process.send) sending.push(new Promise((resolve) => process.send({ step, ok, output }, resolve)));
  else if (output !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  return ok;
}

function build() {
  rmSync('dist', { recursive: true, force: true });
  const configPath = ts.findConfigFile('.', ts.sys.fileExists, 'tsconfig.json');
  if (configPath === undefined) return { ok: finish('build', false, 'tsconfig.json not found\n') };
  const problems = [];
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => problems.push(diagnostic) },
  );
  if (config === undefined || problems.length > 0)
    return { ok: finish('build', false, ts.formatDiagnostics(problems, host)) };
  problems.push(...config.errors);
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
  });
  problems.push(...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics);
  if (problems.length > 0) {
    // tsc's own choice: colours and source lines on a terminal, plain lines in a log.
    const pretty = process.stdout.isTTY || process.env.FORCE_COLOR === '1';
    const text = (pretty ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics)(problems, host);
    return { ok: finish('build', false, `${text}\nFound ${problems.length} error(s).\n`) };
  }
  const bundle = spawnSync(process.execPath, ['scripts/bundle.mjs'], { encoding: 'utf8' });
  const output = `${bundle.stdout ?? ''}${bundle.stderr ?? ''}${bundle.error ? `${bundle.error.message}\n` : ''}`;
  return { ok: finish('build', bundle.status === 0, output), program };
}

const host = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => '\n',
};

async function lint(program) {
  // Loaded after the build, so a build that fails never pays for ESLint.
  const { ESLint } = await import('eslint');
  // Only the TypeScript files are in the program; the config's own settings (JS files without
  // types) apply to the rest.
  const eslint = new ESLint({
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parserOptions: { projectService: false, project: false, programs: [program] } },
      },
    ],
  });
  const results = await eslint.lintFiles(['.']);
  const problems = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
  const output = problems === 0 ? '' : await (await eslint.loadFormatter('stylish')).format(results);
  return finish('lint', problems === 0, output);
}

const built = build();
const ok = built.ok && built.program !== undefined && (await lint(built.program));
await Promise.all(sending);
process.exitCode = ok ? 0 : 1;
