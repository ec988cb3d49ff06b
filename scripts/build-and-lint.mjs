// `npm run check`'s build, typecheck and lint in one process, sharing one TypeScript program.
//
// The build emits with esbuild (scripts/emit.mjs: one file per module, under a second) and
// bundles; the tests need nothing more, so they start then. tsc's type checking (~30 s on one
// core, which left the second core idle before the tests could start) runs after that, beside
// the tests, and its program is handed to ESLint (typescript-eslint's `parserOptions.programs`),
// so the type-aware rules reuse its checker's work: ~63 CPU-s for both instead of ~90.
//
// The steps are those of `npm run build` then `npm run lint`, but for the emitter: clean dist/,
// emit, bundle, type-check with the project's tsconfig.json (any diagnostic fails, as tsc's exit
// code does), then ESLint with the project's config and no warning allowed. Run under
// `scripts/check.mjs` (an IPC channel), it reports each step as a message; run alone, it prints
// and sets the exit code.
import ts from 'typescript';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { emit } from './emit.mjs';

/** Messages still on their way to the parent: the process must not end before they arrive. */
const sending = [];

function finish(step, ok, output) {
  if (process.send) sending.push(new Promise((resolve) => process.send({ step, ok, output }, resolve)));
  else if (output !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  return ok;
}

async function build() {
  rmSync('dist', { recursive: true, force: true });
  const configPath = ts.findConfigFile('.', ts.sys.fileExists, 'tsconfig.json');
  if (configPath === undefined) return { ok: finish('build', false, 'tsconfig.json not found\n') };
  const problems = [];
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => problems.push(diagnostic) },
  );
  if (config === undefined || problems.length > 0 || config.errors.length > 0)
    return {
      ok: finish('build', false, ts.formatDiagnostics([...problems, ...(config?.errors ?? [])], host)),
    };
  try {
    await emit(config.fileNames);
  } catch (error) {
    return { ok: finish('build', false, `${error instanceof Error ? error.message : String(error)}\n`) };
  }
  const bundle = spawnSync(process.execPath, ['scripts/bundle.mjs'], { encoding: 'utf8' });
  const output = `${bundle.stdout ?? ''}${bundle.stderr ?? ''}${bundle.error ? `${bundle.error.message}\n` : ''}`;
  return { ok: finish('build', bundle.status === 0, output), config };
}

/** tsc's type checking of the whole program; the program, for lint. */
function typecheck(config) {
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
  });
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length > 0) {
    // tsc's own choice: colours and source lines on a terminal, plain lines in a log.
    const pretty = process.stdout.isTTY || process.env.FORCE_COLOR === '1';
    const text = (pretty ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics)(problems, host);
    return { ok: finish('typecheck', false, `${text}\nFound ${problems.length} error(s).\n`), program };
  }
  return { ok: finish('typecheck', true, ''), program };
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

const built = await build();
let ok = built.ok && built.config !== undefined;
if (ok) {
  const checked = typecheck(built.config);
  // Lint even when the types are wrong: both reports are worth reading at once.
  ok = (await lint(checked.program)) && checked.ok;
}
await Promise.all(sending);
process.exitCode = ok ? 0 : 1;
