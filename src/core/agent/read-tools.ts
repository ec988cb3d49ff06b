/**
 * Plan mode's tools: read_file, list_files and search_files over one snapshot (a RepoReader).
 * Read-only by type: the reader has no method that writes, and any other tool called here is an
 * error result for the model. The finishing call (submit_plan) is the loop's, not this executor's.
 *
 * What the model sees is the snapshot, never the disk: files the user's .gitignore leaves out
 * (node_modules/, build output, local logs) and files over the snapshot's size limit are simply
 * not there, and a symlink is reported as a link, never followed.
 *
 * Decisions on what is readable:
 * - outside the workspace (`../x`, `/etc/passwd`), inside `.git/` or `.aide/state/`: refused as
 *   a security denial (never retried);
 * - `.aide/config.json`, `.aide/sandbox.json` and `.aide/plans/`: readable. They are the user's
 *   committed project files; a model planning a change may need to know the verify commands.
 *   (Writing them is what is guarded: protected-paths.ts.)
 * - secret files (security/secret-files.ts, `.env`, keys, token files): named in listings with a
 *   "secret" mark, so the model knows they exist; their content is never shown, read_file refuses
 *   them as a denial, search_files leaves them out of its results.
 *
 * Errors of the reader itself (git failing) are not the model's doing: they are thrown, and the
 * loop's caller reports them as the failures they are.
 */
import type { RepoReader } from '../ports/repo-reader.js';
import { findInvisible } from '../security/invisible.js';
import { secretFileReason } from '../security/secret-files.js';
import { formatBytes } from '../../shared/units.js';
import { plural } from '../../shared/text.js';
import type { ToolExecutor, ToolResult } from './loop-types.js';
import { viewFile, type WindowLimits } from './read-file-view.js';
import { literalHint, scopeOf, viewHits } from './search-view.js';
import { normalizeReadPath, SnapshotIndex, type FolderEntry } from './read-paths.js';
import type { ToolCall, ToolInput } from './tools.js';

/** The tools' limits; every field has a default. */
export interface ReadToolsOptions extends Partial<WindowLimits> {
  /**
   * The workspace's absolute path ('/'-separated): a model that writes it in front of a path is
   * understood. Any other absolute path is refused.
   */
  workspaceRoot?: string;
  /** Entries one list_files call shows at most (200); a line says how many more there are. */
  maxListEntries?: number;
  /** Files one search_files call shows at most (50). */
  maxSearchFiles?: number;
  /** Matching lines shown per file (3); the count still says how many there are. */
  searchLinesPerFile?: number;
}

const DEFAULTS: Required<Omit<ReadToolsOptions, 'workspaceRoot'>> = {
  readLines: 100,
  maxReadLines: 400,
  maxLineChars: 500,
  maxListEntries: 200,
  maxSearchFiles: 50,
  searchLinesPerFile: 3,
};

/** Extra files asked of the search, so that leaving out secret files still fills the list. */
const SEARCH_SPARE_FILES = 10;

type Limits = typeof DEFAULTS;

function mistake(forModel: string, forUser: string): ToolResult {
  return { ok: false, mistake: true, forModel, forUser };
}

function denial(forModel: string, forUser: string): ToolResult {
  return { ok: false, denied: true, forModel, forUser };
}

/** "no such file or folder: src/utils.ts" with up to three close names of the snapshot. */
function missing(index: SnapshotIndex, path: string, tool: string): ToolResult {
  const link = linkOnTheWay(index, path);
  if (link !== undefined)
    return mistake(
      `${link} is a symbolic link, and aide does not follow links: nothing is at ${path} in the repository. Name the real folder instead.`,
      `${tool}: ${link} is a symlink`,
    );
  const close = index.closeNames(path);
  const hint =
    close.length === 0 ? ' Use list_files to see what exists.' : ` Did you mean: ${close.join(', ')}?`;
  return mistake(
    `No such file or folder in the repository: ${path}.${hint}`,
    `${tool}: no such path ${path}`,
  );
}

/** The folder of `path` that is a symlink in the snapshot (`lib` of `lib/a.ts`), if one is. */
function linkOnTheWay(index: SnapshotIndex, path: string): string | undefined {
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    const folder = path.slice(0, slash);
    if (index.file(folder)?.kind === 'symlink') return folder;
  }
  return undefined;
}

/**
 * The executor of Plan mode's read tools over `reader`. The snapshot's file list is read once,
 * on the first call, and kept: a snapshot never changes.
 */
export function readTools(reader: RepoReader, options: ReadToolsOptions = {}): ToolExecutor {
  const { workspaceRoot, ...given } = options;
  const limits: Limits = { ...DEFAULTS, ...withoutUndefined(given) };
  let index: Promise<SnapshotIndex> | undefined;
  const snapshot = () => (index ??= reader.listFiles().then((files) => new SnapshotIndex(files)));
  const resolve = (written: string) => normalizeReadPath(written, workspaceRoot);

  return {
    async run(call: ToolCall): Promise<ToolResult> {
      switch (call.tool) {
        case 'read_file':
          return readFile(reader, await snapshot(), resolve, call.input, limits);
        case 'list_files':
          return listFiles(await snapshot(), resolve, call.input, limits);
        case 'search_files':
          return searchFiles(reader, await snapshot(), resolve, call.input, limits);
        case 'submit_plan':
          // The loop judges the finishing call itself; reaching here is the caller's slip, not the model's.
          return {
            ok: false,
            forModel: 'submit_plan ends Plan mode: it is not a read tool.',
            forUser: 'submit_plan is not a read tool',
          };
        default:
          return mistake(
            `${call.tool} is not a tool of Plan mode. Plan mode only reads the repository ` +
              '(read_file, list_files, search_files) and ends with submit_plan; changes are made later by `aide act`.',
            `refused ${call.tool}: Plan mode only reads`,
          );
      }
    },
  };
}

function withoutUndefined(given: Partial<Limits>): Partial<Limits> {
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
}

type Resolve = (written: string) => ReturnType<typeof normalizeReadPath>;

async function readFile(
  reader: RepoReader,
  index: SnapshotIndex,
  resolve: Resolve,
  input: ToolInput<'read_file'>,
  limits: Limits,
): Promise<ToolResult> {
  const target = resolve(input.path);
  if (!target.ok)
    return target.denied
      ? denial(`Refused: ${target.reason}.`, `refused ${input.path}`)
      : mistake(`${target.reason}.`, 'read_file: bad path');
  const { path } = target;
  const secret = secretFileReason(path);
  if (secret !== undefined && index.kindOf(path) !== 'folder')
    return denial(
      `Refused: ${path} is ${secret}; aide never shows secret files to the model. Plan without its content (a sample such as .env.example may exist).`,
      `refused ${path}: secret file`,
    );
  if (path === '' || index.kindOf(path) === 'folder') {
    const listing = listFolder(index, path, false, limits);
    return {
      ok: false,
      forModel: `${path === '' ? 'The repository root' : path} is a folder, not a file.\n${listing}`,
      forUser: `read_file: ${path || '.'} is a folder`,
    };
  }
  if (index.kindOf(path) === 'missing') return missing(index, path, 'read_file');
  const read = await reader.readFile(path);
  if (read.ok) return viewFile(path, read.bytes, input, limits);
  switch (read.reason) {
    case 'symlink':
      return mistake(symlinkAdvice(index, path, read.target), `not read ${path}: symlink`);
    case 'directory':
      return {
        ok: false,
        forModel: `${path} is a folder, not a file.\n${listFolder(index, path, false, limits)}`,
        forUser: `read_file: ${path} is a folder`,
      };
    case 'missing':
      return missing(index, path, 'read_file');
  }
}

/** What to say about a symlink: aide does not follow it; name the file it leads to when that is in the snapshot. */
function symlinkAdvice(index: SnapshotIndex, path: string, target: string): string {
  const said = `${path} is a symbolic link to "${target}"; aide does not follow links.`;
  if (target.startsWith('/')) return `${said} It points outside the repository.`;
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const resolved = normalizeReadPath(`${folder}${target}`);
  if (!resolved.ok) return `${said} It points outside the repository, or somewhere aide does not read.`;
  return index.kindOf(resolved.path) === 'missing'
    ? `${said} Nothing in the repository is at ${resolved.path}.`
    : `${said} Read ${resolved.path} instead.`;
}

function entryLine(entry: FolderEntry): string {
  if (entry.kind === 'folder') return `${entry.path}/ (${plural(entry.files, 'file')})`;
  return fileLine(entry.file.path, entry.file.bytes, entry.file.kind);
}

/** A file's line of a listing; a name holding invisible characters says so (it may pose as another name). */
function fileLine(path: string, bytes: number, kind: 'file' | 'executable' | 'symlink'): string {
  const invisible = findInvisible(path);
  const warning =
    invisible.length === 0 ? '' : ` [the name holds ${invisible.map((found) => found.label).join(', ')}]`;
  if (secretFileReason(path) !== undefined) return `${path} (secret: not readable)${warning}`;
  if (kind === 'symlink') return `${path} (symlink)${warning}`;
  return `${path} (${formatBytes(bytes)}${kind === 'executable' ? ', executable' : ''})${warning}`;
}

/** A folder's listing: a header, then up to maxListEntries lines, then how many more. */
function listFolder(index: SnapshotIndex, folder: string, recursive: boolean, limits: Limits): string {
  const name = folder === '' ? 'The repository root' : `${folder}/`;
  const total = index.fileCount(folder);
  if (total === 0) return 'The repository has no files (ignored files are not part of the snapshot).';
  let header: string;
  let lines: string[];
  if (recursive) {
    header = `${name}: ${plural(total, 'file')}`;
    lines = index.filesUnder(folder).map((file) => fileLine(file.path, file.bytes, file.kind));
  } else {
    const entries = index.entries(folder);
    const folders = entries.filter((entry) => entry.kind === 'folder').length;
    header = `${name}: ${plural(folders, 'folder')}, ${plural(entries.length - folders, 'file')} (${plural(total, 'file')} in all)`;
    lines = entries.map(entryLine);
  }
  const shown = lines.slice(0, limits.maxListEntries);
  if (lines.length > shown.length) {
    const sub = index.entries(folder).find((entry) => entry.kind === 'folder');
    const example = sub === undefined ? '' : ` (e.g. path=${sub.kind === 'folder' ? sub.path : ''})`;
    shown.push(
      `… ${lines.length - shown.length} more: list a subfolder${example} or search_files to narrow it.`,
    );
  }
  const footer =
    folder === ''
      ? ['(Files ignored by .gitignore, such as node_modules/, are not part of the snapshot.)']
      : [];
  return [header, ...shown, ...footer].join('\n');
}

function listFiles(
  index: SnapshotIndex,
  resolve: Resolve,
  input: ToolInput<'list_files'>,
  limits: Limits,
): ToolResult {
  const written = input.path ?? '.';
  const target = resolve(written);
  if (!target.ok)
    return target.denied
      ? denial(`Refused: ${target.reason}.`, `refused ${written}`)
      : mistake(`${target.reason}.`, 'list_files: bad path');
  const { path } = target;
  const kind = index.kindOf(path);
  if (kind === 'missing' && path !== '') return missing(index, path, 'list_files');
  if (kind === 'file') {
    const file = index.file(path);
    return {
      ok: true,
      forModel: `${file === undefined ? path : fileLine(path, file.bytes, file.kind)} is a file, not a folder. Read it with read_file.`,
      forUser: `listed ${path}: a file`,
    };
  }
  const recursive = input.recursive ?? false;
  return {
    ok: true,
    forModel: listFolder(index, path, recursive, limits),
    forUser: `listed ${path === '' ? 'the root' : `${path}/`}${recursive ? ' recursively' : ''}`,
  };
}

async function searchFiles(
  reader: RepoReader,
  index: SnapshotIndex,
  resolve: Resolve,
  input: ToolInput<'search_files'>,
  limits: Limits,
): Promise<ToolResult> {
  const written = input.path ?? '.';
  const target = resolve(written);
  if (!target.ok)
    return target.denied
      ? denial(`Refused: ${target.reason}.`, `refused ${written}`)
      : mistake(`${target.reason}.`, 'search_files: bad path');
  const { path } = target;
  if (path !== '' && index.kindOf(path) === 'missing') return missing(index, path, 'search_files');
  if (path !== '' && index.kindOf(path) === 'file' && secretFileReason(path) !== undefined)
    return denial(
      `Refused: ${path} is ${secretFileReason(path) ?? 'a secret file'}; aide never shows secret files.`,
      `refused ${path}: secret file`,
    );
  const { pattern, glob } = input;
  // Only the snapshot is searched, so '..' cannot escape; git would quietly read it from the root.
  if (glob !== undefined && glob.replace(/\\/g, '/').split('/').includes('..'))
    return mistake(
      `The glob ${glob} has a '..': a glob names files under the searched folder (path), such as *.ts or src/**/*.py.`,
      `search_files: bad glob ${glob}`,
    );
  const outcome = await reader.search({
    pattern,
    ...(path === '' ? {} : { path }),
    ...(glob === undefined ? {} : { glob }),
    maxFiles: limits.maxSearchFiles + SEARCH_SPARE_FILES,
    maxLinesPerFile: limits.searchLinesPerFile,
  });
  const shownPattern = `/${pattern}/`;
  if (!outcome.ok)
    return mistake(
      `The pattern ${shownPattern} is not a valid regular expression (POSIX extended, as git grep -E reads it): ${outcome.detail}. Escape special characters with a backslash.`,
      `search_files: bad pattern ${shownPattern}`,
    );
  const hits = outcome.hits.filter((hit) => secretFileReason(hit.path) === undefined);
  const secrets = outcome.hits.length - hits.length;
  const scope = scopeOf(path, glob);
  if (hits.length === 0)
    return {
      ok: true,
      forModel: `No matches for ${shownPattern}${scope}.${secrets > 0 ? ' (Secret files are not searched.)' : literalHint(pattern)}`,
      forUser: `searched ${shownPattern}${scope}: no matches`,
    };
  const more = outcome.truncated || hits.length > limits.maxSearchFiles;
  return viewHits(hits, { more, secrets, pattern: shownPattern, scope }, limits);
}
