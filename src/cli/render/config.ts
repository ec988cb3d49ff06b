/** Text and JSON renderings of the effective configuration (`aide config`). */
import type { LoadedFile } from '../../config/load.js';
import type { WorkspaceConfig } from '../../config/load-workspace.js';
import type { EffectiveEntry, Source } from '../../config/provenance.js';
import type { Style } from './style.js';

/** Values longer than this go on lines of their own under the setting. */
const VALUE_WIDTH = 44;
const WRAP_WIDTH = 96;

function sourceText(source: Source): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'file':
      return `${source.file}:${source.line}`;
    case 'env':
      return `env ${source.variable}`;
    case 'flag':
      return source.flag;
  }
}

/** A long list, a few items per line. */
function wrapItems(items: readonly unknown[], indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items.map((i) => JSON.stringify(i))) {
    if (line !== '' && indent.length + line.length + item.length + 2 > WRAP_WIDTH) {
      lines.push(`${indent}${line},`);
      line = '';
    }
    line = line === '' ? item : `${line}, ${item}`;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines;
}

function entryLines(entry: EffectiveEntry, pathWidth: number, valueWidth: number, style: Style): string[] {
  const label = `  ${entry.path.padEnd(pathWidth)}  `;
  const source =
    entry.source.kind === 'default'
      ? style.dim(sourceText(entry.source))
      : style.cyan(sourceText(entry.source));
  if (entry.value === undefined) return [`${label}${style.dim('(not set)'.padEnd(valueWidth))}  ${source}`];
  const json = JSON.stringify(entry.value);
  if (json.length <= VALUE_WIDTH || !Array.isArray(entry.value))
    return [`${label}${json.padEnd(valueWidth)}  ${source}`];
  const summary = `${entry.value.length} items:`.padEnd(valueWidth);
  return [`${label}${summary}  ${source}`, ...wrapItems(entry.value, '      ')];
}

function fileLines(loaded: LoadedFile<unknown>, style: Style): string[] {
  const status = loaded.exists ? '' : style.dim(' (no such file: defaults apply)');
  const pathWidth = Math.max(...loaded.entries.map((e) => e.path.length));
  const shown = loaded.entries
    .map((e) => (e.value === undefined ? '(not set)' : JSON.stringify(e.value)).length)
    .filter((n) => n <= VALUE_WIDTH);
  const valueWidth = Math.max(9, ...shown);
  return [
    `${style.bold(loaded.file)}${status}`,
    ...loaded.entries.flatMap((entry) => entryLines(entry, pathWidth, valueWidth, style)),
  ];
}

export function renderConfigText(root: string, loaded: WorkspaceConfig, style: Style): string {
  const out = [
    `aide config: ${root}`,
    '',
    ...fileLines(loaded.config, style),
    '',
    ...fileLines(loaded.sandbox, style),
  ];
  if (loaded.sandbox.value.commands.length === 0) {
    out.push(
      '',
      `${style.yellow('note:')} no verify commands, so aide cannot verify a change; \`aide init\` detects them.`,
    );
  }
  return `${out.join('\n')}\n`;
}

function fileJson(loaded: LoadedFile<unknown>) {
  return {
    file: loaded.file,
    exists: loaded.exists,
    value: loaded.value,
    sources: loaded.entries.map((e) => ({ path: e.path, value: e.value ?? null, source: e.source })),
  };
}

/** The --json shape of `aide config` (versioned: consumers check `schema`). */
export function configJson(root: string, loaded: WorkspaceConfig): string {
  return `${JSON.stringify({ schema: 'aide.config/1', ok: true, root, config: fileJson(loaded.config), sandbox: fileJson(loaded.sandbox) }, null, 2)}\n`;
}
