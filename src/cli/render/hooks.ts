/** `aide hooks`' text: what was installed or removed where, and whether each hook would run. */
import type { HooksStatus, HookStatus, InstallOutcome, UninstallOutcome } from '../wiring/hooks.js';

export function renderInstall(outcome: InstallOutcome): string {
  if (outcome.kind === 'manager') {
    const where = `core.hooksPath is ${outcome.manager.name}'s folder (${outcome.manager.folder})`;
    if (outcome.written) return `${where}: added to ${outcome.file}:\n  ${outcome.line}\n`;
    return (
      `${where}; aide wrote nothing. Add this line to ${outcome.file}:\n  ${outcome.line}\n` +
      `or run \`aide hooks install --hook ${outcome.hook} --force\` to add it.\n`
    );
  }
  const lines = [`${outcome.again ? 'Reinstalled' : 'Installed'} ${outcome.hook} hook: ${outcome.path}`];
  if (outcome.chained !== null)
    lines.push(`The hook that was there is kept and runs first: ${outcome.chained}`);
  lines.push('Skip it once with AIDE_SKIP=1; remove it with `aide hooks uninstall`.');
  return `${lines.join('\n')}\n`;
}

function uninstallLine(outcome: UninstallOutcome): string {
  switch (outcome.kind) {
    case 'removed':
      return outcome.restored === null
        ? `Removed ${outcome.hook} hook: ${outcome.path}`
        : `Removed ${outcome.hook} hook and put back the one it kept: ${outcome.restored}`;
    case 'foreign':
      return `${outcome.hook}: ${outcome.path} is not aide's; left alone`;
    case 'absent':
      return `${outcome.hook}: no hook at ${outcome.path}`;
    case 'manager':
      return outcome.removed
        ? `${outcome.hook}: removed aide's line from ${outcome.file}`
        : `${outcome.hook}: no aide line in ${outcome.file}`;
  }
}

export function renderUninstall(outcomes: readonly UninstallOutcome[]): string {
  return outcomes.map((outcome) => `${uninstallLine(outcome)}\n`).join('');
}

function hookLine(status: HookStatus): string {
  const head = `${status.hook}: `;
  if (status.state === 'absent') return `${head}not installed`;
  if (status.state === 'foreign')
    return `${head}another hook (${status.path}); \`aide hooks install\` keeps it and runs it first`;
  const problems: string[] = [];
  if (!status.executable) problems.push('not executable (git skips it): `aide hooks install` again');
  if (status.runner === 'none')
    problems.push(
      'cannot find aide (recorded node or entry gone, no aide on PATH): `aide hooks install` again',
    );
  const runs =
    status.runner === 'recorded'
      ? `runs aide with ${status.recorded?.node ?? ''} ${status.recorded?.entry ?? ''}`
      : 'runs `aide` from PATH';
  const chained = status.chained === null ? '' : `; runs ${status.chained} first`;
  return problems.length === 0
    ? `${head}installed, would run (${runs}${chained})`
    : `${head}installed, would NOT run: ${problems.join('; ')}`;
}

export function renderStatus(status: HooksStatus): string {
  const lines = [`Hooks folder: ${status.dir}`];
  if (status.manager !== null) {
    lines.push(`It is ${status.manager.name}'s folder: aide's line goes in ${status.manager.folder}/<hook>.`);
    for (const [hook, present] of Object.entries(status.managerLines))
      lines.push(
        `${hook}: ${present ? "aide's line present" : 'no aide line'} in ${status.manager.folder}/${hook}`,
      );
    return `${lines.join('\n')}\n`;
  }
  for (const hook of status.hooks) lines.push(hookLine(hook));
  return `${lines.join('\n')}\n`;
}
