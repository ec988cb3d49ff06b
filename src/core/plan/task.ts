/**
 * The task a user writes for `aide plan`: markdown, free-form. aide reads three things out of
 * it: a title (its first `# ` heading), the files it names to focus on (a `Files:` line, a
 * `## Files` list, or paths in backticks) and the text itself, which goes to the model as the
 * user wrote it. Named files that are not in the repository are dropped by the caller.
 */

export interface Task {
  /** The first `# ` heading, else the first line of text, else the file's name. */
  title: string;
  /** The task as written (a byte-order mark and trailing blank lines removed). */
  text: string;
  /** Paths the task names, in order, without duplicates ('/'-separated, no leading `./`). */
  focus: string[];
}

const HEADING = /^#\s+(.+?)\s*#*\s*$/;
const FILES_LINE = /^\s*(?:[-*]\s+)?files\s*:\s*(.*)$/i;
const FILES_SECTION = /^#{2,6}\s+(?:focus\s+)?files\s*$/i;
const LIST_ITEM = /^\s*[-*+]\s+`?([^`\s]+)`?/;
const BACKTICKED = /`([^`\s]+)`/g;
/** Looks like a path: a folder separator or a file extension, and no URL scheme or spaces. */
const PATH_LIKE = /^(?![a-z]+:\/\/)[\w@.\-/]*(?:\/[\w@.-]+|\.[A-Za-z0-9]{1,10})$/;

function tidyPath(written: string): string | null {
  const path = written.replace(/^\.\//, '').replace(/[,;:.)]+$/, '');
  if (path === '' || path.startsWith('/') || path.split('/').includes('..')) return null;
  return PATH_LIKE.test(path) ? path : null;
}

/** The title for a task file named `file` with no heading and no text: `fix-login.md` → "fix login". */
function titleFromFile(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  const name = base
    .replace(/\.(md|markdown|txt)$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return name === '' || name === '-' ? 'Task' : name;
}

export function readTask(written: string, file: string): Task {
  const text = written.replace(/^\uFEFF/, '').replace(/\s+$/, '');
  const lines = text.split(/\r?\n/);
  const heading = lines.map((line) => HEADING.exec(line)?.[1]).find((title) => title !== undefined);
  const firstText = lines.find((line) => line.trim() !== '')?.trim();
  const title = (heading ?? firstText?.slice(0, 100) ?? titleFromFile(file)).trim();
  const focus: string[] = [];
  const add = (written: string) => {
    const path = tidyPath(written);
    if (path !== null && !focus.includes(path)) focus.push(path);
  };
  let inFilesSection = false;
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    if (/^#{1,6}\s/.test(line)) inFilesSection = FILES_SECTION.test(line);
    const filesLine = FILES_LINE.exec(line);
    if (filesLine !== null)
      for (const part of (filesLine[1] ?? '').split(/[\s,]+/)) add(part.replace(/`/g, ''));
    else if (inFilesSection) {
      const item = LIST_ITEM.exec(line);
      if (item?.[1] !== undefined) add(item[1]);
    }
    for (const match of line.matchAll(BACKTICKED)) add(match[1] ?? '');
  }
  return { title: title === '' ? titleFromFile(file) : title, text, focus };
}

/** A file name for the plan: lower case letters, digits and dashes, at most 60 characters. */
export function planSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'plan' : slug;
}
