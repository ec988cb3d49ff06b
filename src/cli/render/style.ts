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
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };
}

/** Colors a unified diff line by line. */
export function colorDiff(diff: string, style: Style): string {
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++ ') || line.startsWith('--- ')) return style.bold(line);
      if (line.startsWith('@@')) return style.cyan(line);
      if (line.startsWith('+')) return style.green(line);
      if (line.startsWith('-')) return style.red(line);
      return line;
    })
    .join('\n');
}
