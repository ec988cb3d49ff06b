/** Minimal ANSI styling, off when output is not a color terminal. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export function makeStyle(color: boolean): Style {
  if (!color) {
    const plain = (text: string) => text;
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  }
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

/**
 * Colors a unified diff: file headers bold, hunk headers cyan, added lines green, removed red.
 * Lines are told apart by where they are (a hunk's header says how many lines it has), not by
 * their prefix alone: a removed line reading "-- x" starts with "--- " like a file header.
 */
export function colorDiff(diff: string, style: Style): string {
  // Lines of the current hunk still to come, old side and new side; none: between hunks.
  let old = 0;
  let added = 0;
  return diff
    .split('\n')
    .map((line) => {
      if (old > 0 || added > 0) {
        if (line.startsWith('\\')) return line;
        if (line.startsWith('+')) {
          added--;
          return style.green(line);
        }
        if (line.startsWith('-')) {
          old--;
          return style.red(line);
        }
        old--;
        added--;
        return line;
      }
      const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
      if (hunk !== null) {
        old = Number(hunk[1] ?? '1');
        added = Number(hunk[2] ?? '1');
        return style.cyan(line);
      }
      return line.startsWith('diff --git ') || line.startsWith('--- ') || line.startsWith('+++ ')
        ? style.bold(line)
        : line;
    })
    .join('\n');
}
