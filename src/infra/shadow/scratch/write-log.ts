/**
 * What was written into a scratch since its last capture, as far as aide was told
 * (tracking.ts): the paths aide wrote itself, and whether anything it does not control ran
 * there. Only while every write and command is told (`tracked`) and nothing foreign ran may a
 * capture read just the written paths; otherwise it walks every file.
 */
export class WriteLog {
  /**
   * Whether every write and command in the scratch is told (noteWritten, noteForeign). Off by
   * default: every capture walks every file, whoever wrote them.
   */
  tracked = false;
  /**
   * Something aide does not control may have written here since the last full scan (a Run: or
   * verify command, a write outside the paths aide was told of). Starts false: a scratch is
   * opened at a known tree with nothing run in it yet.
   */
  foreign = false;
  /** Paths aide itself wrote since the last capture (scratch-relative). */
  private readonly written = new Set<string>();

  /** aide wrote these paths itself; one that is not plainly inside the scratch counts as foreign. */
  noteWritten(paths: readonly string[]): void {
    for (const path of paths) {
      const segments = path.split('/');
      if (segments.some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git'))
        this.foreign = true;
      else this.written.add(path);
    }
  }

  /** The paths a capture may read alone, or null when it must walk every file. */
  writtenOnly(): string[] | null {
    return this.tracked && !this.foreign ? [...this.written] : null;
  }

  /** After a capture: nothing is written since. */
  clear(): void {
    this.foreign = false;
    this.written.clear();
  }
}
