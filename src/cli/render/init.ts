/** Text and JSON renderings of an `aide init` report. */
import type { InitReport } from '../../core/init/init-workspace.js';
import { plural } from '../../shared/text.js';
import type { Style } from './style.js';

/** An argv as a person would type it: plain words bare, anything else in single quotes. */
export function shellLine(argv: readonly string[]): string {
  return argv
    .map((arg) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

const ACTION_TEXT = {
  created: 'created',
  overwritten: 'replaced',
  appended: 'added "state/" to',
  unchanged: 'kept',
} as const;

function commandLines(report: InitReport, style: Style): string[] {
  const { commands, packageManager } = report.detection;
  if (commands.length === 0) {
    return [
      `${style.yellow('No verify commands detected')} (looked for package.json scripts, a Makefile "test" or "check" target, go.mod, Cargo.toml, ruff, mypy, pytest, tox, nox and pre-commit settings).`,
      '  Until there is one, aide cannot verify a change.',
      `  fix: add your checks to "commands" in .aide/sandbox.json, e.g. { "name": "test", "run": ["make", "check"] }`,
    ];
  }
  const via =
    packageManager === null
      ? ''
      : ` (package manager: ${packageManager.name}, from ${packageManager.because})`;
  const nameWidth = Math.max(...commands.map((c) => c.name.length));
  const runWidth = Math.max(...commands.map((c) => shellLine(c.run).length));
  const optional = commands.filter((c) => c.optional === true).map((c) => c.name);
  const lines = [
    `Detected ${plural(commands.length, 'verify command')}${via}, run in this order:`,
    ...commands.map((c) => {
      const where = `${style.dim(c.because)}${c.optional === true ? ` ${style.yellow('(optional)')}` : ''}`;
      return `  ${style.bold(c.name.padEnd(nameWidth))}  ${shellLine(c.run).padEnd(runWidth)}  ${where}`;
    }),
  ];
  if (optional.length > 0) {
    lines.push(
      `Optional commands run only when asked for: \`aide verify --commands ${optional.join(',')}\` or a plan step's Verify: line.`,
    );
  }
  return lines;
}

export function renderInitText(report: InitReport, style: Style): string {
  const out = [`aide init: ${report.root}`];
  for (const file of report.files) out.push(`  ${style.green(ACTION_TEXT[file.action])} ${file.path}`);
  out.push('', ...commandLines(report, style));
  for (const note of report.detection.notes) out.push(`${style.yellow('note:')} ${note}`);
  out.push(
    '',
    'Next: check the settings with `aide config`; edit .aide/sandbox.json to change the verify commands.',
  );
  return `${out.join('\n')}\n`;
}

/** The --json shape of `aide init` (versioned: consumers check `schema`). */
export function initJson(report: InitReport): string {
  return `${JSON.stringify(
    {
      schema: 'aide.init/1',
      ok: true,
      root: report.root,
      files: report.files,
      packageManager: report.detection.packageManager,
      commands: report.detection.commands,
      notes: report.detection.notes,
      schemaDir: report.schemaDir,
    },
    null,
    2,
  )}\n`;
}
