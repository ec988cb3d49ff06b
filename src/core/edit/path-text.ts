/**
 * Recognising a file path in a line of model output. Models decorate paths in many ways
 * (bold, backticks, quotes, a trailing colon, "File:", a heading), but a prose line must
 * never be taken for a path: a wrong file is worse than a refused block.
 */

/** Names that are paths even without an extension or a folder. */
const EXTENSIONLESS = new Set([
  'Makefile',
  'GNUmakefile',
  'Dockerfile',
  'Containerfile',
  'Jenkinsfile',
  'Vagrantfile',
  'Gemfile',
  'Rakefile',
  'Procfile',
  'Brewfile',
  'Justfile',
  'justfile',
  'LICENSE',
  'README',
  'CHANGELOG',
  'CODEOWNERS',
  'BUILD',
  'WORKSPACE',
]);

const WRAPPERS: ReadonlyArray<readonly [string, string]> = [
  ['**', '**'],
  ['__', '__'],
  ['`', '`'],
  ['"', '"'],
  ["'", "'"],
  ['*', '*'],
  ['_', '_'],
  ['<', '>'],
];

/** Peels decorations off a candidate line; `quoted` tells whether a wrapper enclosed it. */
function peel(line: string): { text: string; quoted: boolean } {
  let text = line.trim();
  let quoted = false;
  text = text.replace(/^#{1,6}\s+/, '').replace(/^(?:[-*+]|\d+[.)])\s+/, '');
  for (let changed = true; changed;) {
    changed = false;
    // Cline writes <path>src/a.ts</path>.
    const tagged = /^<path>(.+)<\/path>$/i.exec(text);
    if (tagged?.[1] !== undefined) {
      text = tagged[1].trim();
      changed = true;
    }
    for (const [open, close] of WRAPPERS) {
      if (text.length > open.length + close.length && text.startsWith(open) && text.endsWith(close)) {
        text = text.slice(open.length, text.length - close.length).trim();
        quoted ||= open === '`' || open === '"' || open === "'";
        changed = true;
      }
    }
    // After the wrappers, so "**File: a.ts**" loses its bold first.
    const labelled = /^(?:\*\*|__)?(?:file(?:name)?|path)\s*:\s*(?:\*\*|__)?\s*(.+)$/i.exec(text);
    if (labelled?.[1] !== undefined) {
      text = labelled[1].trim();
      changed = true;
    }
    if (text.endsWith(':')) {
      text = text.slice(0, -1).trimEnd();
      changed = true;
    }
  }
  return { text, quoted };
}

/** Cleans a path as written: Windows separators to '/', no leading './'. */
export function normalizeWrittenPath(path: string): string {
  let p = path.replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

/**
 * The path a line names, or undefined when it is not just a path. `strict` (used for fence
 * info strings) refuses bare extensionless names, which are usually language tags.
 */
export function pathFromLine(line: string, strict = false): string | undefined {
  if (line.length > 300) return undefined;
  const { text, quoted } = peel(line);
  if (text === '' || /^(?:<{3,}|={3,}|>{3,}|`{3,}|~{3,}|-{3,}|\+{3,}|@@)/.test(text)) return undefined;
  if (text.includes('://')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
  if (/[\u0000-\u001f<>|"*?]/.test(text)) return undefined;
  if (/\s/.test(text) && !quoted) return undefined;
  if (text.endsWith('.') || text.endsWith(',') || text.endsWith(';')) return undefined;
  const path = normalizeWrittenPath(text);
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === '') return undefined;
  const hasFolder = path.includes('/') && /[\w-]/.test(path);
  const extension = /\.([A-Za-z0-9_+-]{1,12})$/.exec(base)?.[1];
  const hasExtension =
    extension !== undefined && /[A-Za-z]/.test(extension) && base.length > extension.length + 1;
  const dotfile = /^\.[\w.-]+$/.test(base);
  if (hasExtension || dotfile) return path;
  if (hasFolder && /^[\w.@+-]+$/.test(base)) return path;
  if (!strict && EXTENSIONLESS.has(base)) return path;
  return undefined;
}

/** A path in a fence info string: "```python app.py", "```app.py", "```ts:src/a.ts", "```ts title=\"a.ts\"". */
export function pathFromFenceInfo(info: string): string | undefined {
  for (const rawToken of info.trim().split(/\s+/)) {
    let token = rawToken.replace(/^(?:title|file|filename|path)=/i, '');
    const colon = token.indexOf(':');
    if (colon > 0 && !/^[A-Za-z]:[\\/]/.test(token)) token = token.slice(colon + 1);
    const path = pathFromLine(token, true);
    if (path !== undefined) return path;
  }
  return undefined;
}

/**
 * Words models put alone on the line before a fence that name no file: a fence language written
 * out, or a connective between two blocks (`and`, `then`). Taking one for a path would only
 * turn a block that reuses the previous path into a refused one.
 */
const NOT_BARE_NAMES = new Set([
  ...['python', 'py', 'javascript', 'js', 'typescript', 'ts', 'tsx', 'jsx', 'bash', 'sh', 'shell', 'zsh'],
  ...['diff', 'patch', 'json', 'yaml', 'yml', 'toml', 'text', 'txt', 'markdown', 'md', 'html', 'css'],
  ...['go', 'rust', 'rs', 'java', 'c', 'cpp', 'ruby', 'rb', 'php', 'sql', 'xml', 'code', 'output'],
  ...['and', 'or', 'then', 'also', 'next', 'here', 'now', 'finally', 'first', 'second', 'last', 'done'],
]);

/**
 * A file name without an extension or a folder on a path line (`VERSION`, `NOTICE`, `configure`,
 * `Caddyfile`), other than the well-known ones pathFromLine takes. Such a word may be prose, so
 * it is a path only for a file that exists (plan-edits.ts refuses it otherwise), and not at all
 * when it reads like a word of prose: a capitalised word (`Changes`, `Done`), or a line ending
 * in a colon (`Next:` introduces the code below), or a word of NOT_BARE_NAMES. A capitalised
 * word ending in `file` is a file (`Caddyfile`, `Tiltfile`).
 */
export function bareNameFromLine(line: string): string | undefined {
  if (line.length > 100 || line.trimEnd().endsWith(':')) return undefined;
  const { text } = peel(line);
  if (NOT_BARE_NAMES.has(text.toLowerCase())) return undefined;
  if (!/^[A-Za-z0-9_][\w.+-]*$/.test(text)) return undefined;
  if (/^[A-Z][a-z]+$/.test(text) && !text.endsWith('file')) return undefined;
  if (text.endsWith('.') || !/[A-Za-z]/.test(text)) return undefined;
  return text;
}

/** Whether a path is only a bare name (bareNameFromLine), which names an existing file or nothing. */
export function isBareName(path: string): boolean {
  return pathFromLine(path) === undefined && bareNameFromLine(path) === path;
}
