/** Text and JSON renderings of `aide doctor`. */
import type { CheckStatus, DoctorFacts, DoctorReport } from '../../core/doctor/assess.js';
import type { Style } from './style.js';

function statusText(status: CheckStatus, style: Style): string {
  switch (status) {
    case 'ok':
      return style.green('ok  ');
    case 'warn':
      return style.yellow('warn');
    case 'fail':
      return style.red('FAIL');
  }
}

const WIDTH = 100;

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

export function renderDoctorText(root: string, report: DoctorReport, style: Style): string {
  const width = Math.max(...report.checks.map((c) => c.id.length));
  const out = [`aide doctor: ${root}`, ''];
  for (const check of report.checks) {
    out.push(`  ${statusText(check.status, style)}  ${style.bold(check.id.padEnd(width))}  ${check.summary}`);
    const indent = ' '.repeat(width + 10);
    for (const detail of check.details)
      out.push(
        ...wrap(detail, WIDTH - indent.length).map(
          (line, i) => `${indent}${i === 0 ? '' : '  '}${style.dim(line)}`,
        ),
      );
    if (check.fix !== null)
      out.push(
        ...wrap(`fix: ${check.fix}`, WIDTH - indent.length).map(
          (line, i) => `${indent}${i === 0 ? '' : '     '}${line}`,
        ),
      );
  }
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const warned = report.checks.filter((c) => c.status === 'warn').length;
  out.push('');
  if (failed > 0)
    out.push(
      style.red(
        `${failed} problem${failed === 1 ? '' : 's'} to fix before aide can work here (see "fix:" above).`,
      ),
    );
  else
    out.push(
      `Everything aide needs is here${warned > 0 ? ` (${warned} warning${warned === 1 ? '' : 's'})` : ''}.`,
    );
  return `${out.join('\n')}\n`;
}

/** The --json shape of `aide doctor` (versioned: consumers check `schema`). */
export function doctorJson(report: DoctorReport, facts: DoctorFacts): string {
  return `${JSON.stringify({ schema: 'aide.doctor/1', ok: report.ok, root: facts.workspace.root, checks: report.checks, scratch: report.scratch, facts }, null, 2)}\n`;
}
