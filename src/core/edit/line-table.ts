/**
 * A reply's lines by offset, and the REPLACE text of a block that creates a file, read from
 * them when asked for.
 *
 * Why not `text.split('\n')`: a reply of 2,000 blocks that each create a 10 KB file is 380,000
 * lines. As strings they cost ~40 bytes each beyond the reply itself, and because they all live
 * until the files are written, V8 grew its young generation to its maximum (32 MB) while the
 * parse copied them from one half to the other. Here the reply stays one string, each line is a
 * slice made on demand and dropped soon after, and a created file's content stays a range of the
 * reply until a check or the write reads it (text-file.ts `rangeTextFile`).
 */

/** What the parsers read: a line by its index, undefined outside `0 … length - 1`. */
export interface Lines {
  readonly length: number;
  at(index: number): string | undefined;
}

/** The lines of `text` split at `\n` (exactly as `split('\n')` splits), made one at a time. */
export class LineTable implements Lines {
  readonly length: number;
  /** Where line i starts; entry `length` is text.length + 1, one past the last line's end. */
  private readonly starts: Uint32Array;

  constructor(readonly text: string) {
    let breaks = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) breaks++;
    this.length = breaks + 1;
    this.starts = new Uint32Array(breaks + 2);
    let line = 1;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1))
      this.starts[line++] = at + 1;
    this.starts[line] = text.length + 1;
  }

  at(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    return this.text.slice(this.starts[index], (this.starts[index + 1] ?? 0) - 1);
  }

  /** Lines `from` up to `to` (excluded) as an array, as `Array.prototype.slice` would give them. */
  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) out.push(this.at(i) ?? '');
    return out;
  }

  /** Lines `from` up to `to` (excluded), kept as a range of this text instead of strings. */
  range(from: number, to: number): LineRange {
    const first = Math.max(0, from);
    const end = Math.max(first, Math.min(to, this.length));
    return new LineRange(
      this.text,
      this.starts[first] ?? 0,
      first === end ? -1 : (this.starts[end] ?? 0) - 1,
    );
  }
}

/**
 * Whole lines of a text, every one ending with `\n` in the text: a range holds only the text
 * and two offsets, and makes its lines when read. Each read makes new strings, so a reader
 * takes `lines()` once and keeps the array for as long as it needs it.
 */
export class LineRange {
  readonly count: number;

  /** `end` is the offset of the last line's `\n`, or -1 for no lines. */
  constructor(
    private readonly text: string,
    private readonly start: number,
    private readonly end: number,
  ) {
    let count = 0;
    if (end !== -1) {
      count = 1;
      for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1))
        count++;
    }
    this.count = count;
  }

  /** The lines, frozen: an edit of them would be lost at the next read, so it throws instead. */
  lines(): string[] {
    if (this.end === -1) return Object.freeze([]) as unknown as string[];
    return Object.freeze(this.text.slice(this.start, this.end).split('\n')) as unknown as string[];
  }

  /** The text of the lines, each with its `\n`. */
  content(): string {
    return this.end === -1 ? '' : this.text.slice(this.start, this.end + 1);
  }

  /**
   * The text in pieces of whole lines, each of at least `size` units but the last: cut only after
   * a `\n`, never inside a character (a piece must encode on its own).
   */
  *pieces(size: number): Generator<string, void, undefined> {
    const stop = this.end + 1;
    for (let from = this.start; from < stop;) {
      const cut = from + size >= stop ? stop : this.text.indexOf('\n', from + size - 1) + 1;
      const to = cut === 0 || cut > stop ? stop : cut;
      yield this.text.slice(from, to);
      from = to;
    }
  }

  /**
   * Line `index` for a reader that goes forward: each line read after the one before costs only
   * its own slice, with no array of the lines; a read out of order takes the lines once.
   */
  reader(): (index: number) => string | undefined {
    let next = 0;
    let offset = this.start;
    let all: string[] | undefined;
    return (index) => {
      if (index < 0 || index >= this.count) return undefined;
      if (all === undefined && index === next) {
        const nl = this.text.indexOf('\n', offset);
        const line = this.text.slice(offset, nl);
        next++;
        offset = nl + 1;
        return line;
      }
      all ??= this.lines();
      return all[index];
    };
  }
}
