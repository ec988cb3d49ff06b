/**
 * Python projects: ruff and mypy where they are configured, pytest where it is set up or
 * depended on, and tox / nox as optional commands (they build their own environments, which
 * usually needs the network that verify commands do not have).
 */
import type { Candidate, ProjectFiles } from './detect-types.js';

/** The body of each `[section]` of an INI or TOML file, by its header. Multi-line strings are not special. */
function sections(text: string): Map<string, string> {
  const found = new Map<string, string>();
  let current: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*(?:#.*)?$/.exec(line)?.[1];
    if (header !== undefined) {
      current = header;
      if (!found.has(header)) found.set(header, '');
    } else if (current !== null) {
      found.set(current, `${found.get(current) ?? ''}${line}\n`);
    }
  }
  return found;
}

function hasSection(found: ReadonlyMap<string, string>, name: string): boolean {
  return [...found.keys()].some((header) => header === name || header.startsWith(`${name}.`));
}

/** Where ruff is configured: ruff.toml, .ruff.toml, or a [tool.ruff] table in pyproject.toml. */
function ruffConfig(files: ProjectFiles, pyproject: ReadonlyMap<string, string>): string | undefined {
  if (files['ruff.toml'] !== undefined) return 'ruff.toml';
  if (files['.ruff.toml'] !== undefined) return '.ruff.toml';
  return hasSection(pyproject, 'tool.ruff') ? 'pyproject.toml [tool.ruff]' : undefined;
}

/**
 * Where mypy is configured, and whether the config names what to check: without `files`,
 * `packages` or `modules`, a bare `mypy` stops with "Missing target module, package, files, or
 * command", so `mypy .` is proposed instead.
 */
function mypyConfig(
  files: ProjectFiles,
  pyproject: ReadonlyMap<string, string>,
): { where: string; targets: boolean } | undefined {
  const named = (body: string | undefined) =>
    body !== undefined && /^\s*(?:files|packages|modules)\s*=/m.test(body);
  for (const file of ['mypy.ini', '.mypy.ini'] as const) {
    const text = files[file];
    if (text !== undefined) return { where: file, targets: named(sections(text).get('mypy')) };
  }
  if (pyproject.has('tool.mypy'))
    return { where: 'pyproject.toml [tool.mypy]', targets: named(pyproject.get('tool.mypy')) };
  const setup = files['setup.cfg'] === undefined ? undefined : sections(files['setup.cfg']);
  if (setup?.has('mypy')) return { where: 'setup.cfg [mypy]', targets: named(setup.get('mypy')) };
  return undefined;
}

/** pytest is in use when it has a config section, a pytest.ini, or is named as a dependency. */
function pytestConfig(files: ProjectFiles, pyproject: ReadonlyMap<string, string>): string | undefined {
  if (files['pytest.ini'] !== undefined) return 'pytest.ini';
  if (pyproject.has('tool.pytest.ini_options')) return 'pyproject.toml [tool.pytest.ini_options]';
  if (files['tox.ini'] !== undefined && sections(files['tox.ini']).has('pytest')) return 'tox.ini [pytest]';
  if (files['setup.cfg'] !== undefined && sections(files['setup.cfg']).has('tool:pytest'))
    return 'setup.cfg [tool:pytest]';
  if (files['pyproject.toml'] !== undefined && /["'\s]pytest\b/.test(files['pyproject.toml']))
    return 'pyproject.toml (a pytest dependency)';
  if (files['setup.cfg'] !== undefined && /\bpytest\b/.test(files['setup.cfg']))
    return 'setup.cfg (a pytest dependency)';
  // tox runs pytest (its testenv names it in deps or commands) but tox itself is optional: it
  // builds environments, which needs the network. Seen on cachetools: only tox.ini knew of pytest.
  if (files['tox.ini'] !== undefined && toxRunsPytest(files['tox.ini'])) return 'tox.ini (tox runs pytest)';
  return undefined;
}

/** Whether a tox.ini's [testenv] sections install or run pytest (`py.test` is its old name). */
function toxRunsPytest(tox: string): boolean {
  for (const [name, body] of sections(tox)) {
    if (name.startsWith('testenv') && /(?:^|[\s=])(?:pytest|py\.test)\b/m.test(body)) return true;
  }
  return false;
}

function toxConfig(files: ProjectFiles, pyproject: ReadonlyMap<string, string>): string | undefined {
  if (files['tox.ini'] !== undefined && sections(files['tox.ini']).has('tox')) return 'tox.ini';
  if (hasSection(pyproject, 'tool.tox')) return 'pyproject.toml [tool.tox]';
  if (files['setup.cfg'] !== undefined && sections(files['setup.cfg']).has('tox:tox'))
    return 'setup.cfg [tox:tox]';
  // A tox.ini with only tool sections ([pytest], [flake8]) configures those tools, not tox.
  if (files['tox.ini'] !== undefined && /^\s*\[testenv/m.test(files['tox.ini'])) return 'tox.ini';
  return undefined;
}

/**
 * ruff runs as itself: it is one binary, often installed outside the project's Python (pipx,
 * uv tool, brew), and a pip-installed one sits next to that Python anyway. mypy and pytest run
 * through `python -m`, so they see the project's environment: mypy checks imports against the
 * installed packages, and pytest puts the project folder on sys.path.
 */
export function pythonCommands(files: ProjectFiles): Candidate[] {
  const pyproject =
    files['pyproject.toml'] === undefined ? new Map<string, string>() : sections(files['pyproject.toml']);
  const found: Candidate[] = [];
  const ruff = ruffConfig(files, pyproject);
  if (ruff !== undefined)
    found.push({ stage: 'check', command: { name: 'ruff', run: ['ruff', 'check', '.'], because: ruff } });
  const mypy = mypyConfig(files, pyproject);
  if (mypy !== undefined) {
    const run = mypy.targets ? ['python', '-m', 'mypy'] : ['python', '-m', 'mypy', '.'];
    found.push({ stage: 'check', command: { name: 'mypy', run, because: mypy.where } });
  }
  const pytest = pytestConfig(files, pyproject);
  if (pytest !== undefined)
    found.push({
      stage: 'test',
      command: { name: 'pytest', run: ['python', '-m', 'pytest'], because: pytest },
    });
  const tox = toxConfig(files, pyproject);
  if (tox !== undefined)
    found.push({ stage: 'extra', command: { name: 'tox', run: ['tox'], because: tox, optional: true } });
  if (files['noxfile.py'] !== undefined)
    found.push({
      stage: 'extra',
      command: { name: 'nox', run: ['nox'], because: 'noxfile.py', optional: true },
    });
  return found;
}

/**
 * A virtualenv in the project (`.venv` or `venv`, found by its pyvenv.cfg) holds the project's
 * packages; the python commands run whatever `python` is on PATH, so without the virtualenv
 * activated they run the system's Python and the project does not import (seen on cachetools:
 * 13 collection errors). Said once, where a python command was proposed.
 */
export function virtualenvNote(
  files: ProjectFiles,
  commands: readonly { run: readonly string[] }[],
): string | null {
  if (!commands.some((c) => c.run[0] === 'python')) return null;
  const dir =
    files['.venv/pyvenv.cfg'] !== undefined
      ? '.venv'
      : files['venv/pyvenv.cfg'] !== undefined
        ? 'venv'
        : null;
  if (dir === null) return null;
  return `a virtualenv is in ${dir}/: run aide with it activated (\`source ${dir}/bin/activate\`), or the python commands run the system's Python, without the project's packages; if git does not ignore ${dir}/, add it to .gitignore, or aide copies it into every scratch.`;
}
