/**
 * Elision lines: models abbreviate unchanged code with `...` or a comment such as
 * `// ... existing code ...`. In SEARCH such a line may stand for any run of lines; in
 * REPLACE it must stand for the same run, or the model is asking aide to write a literal
 * "... existing code ..." into the file and delete the real code (a known lazy-model failure).
 */

const ELLIPSIS_LINE = /^(?:\/\/+|#+|--|;+|\/\*+|<!--|\{\/\*|\*)?\s*(?:\.{3}|…)(?:\s.*|\.*)?$/;
const LAZY_WORDS =
  /(?:existing|rest|remaining|unchanged|same|other|previous|omitted|more|code|lines?|here)\b/i;

/** A line that abbreviates other lines: `...`, `…`, `// ...`, `# ... rest of the file`, `/* ... *\/`. */
export function isElisionLine(line: string): boolean {
  return ELLIPSIS_LINE.test(line.trim());
}

/**
 * A comment that can only mean "the code I did not write out" (`// ... existing code ...`).
 * Unlike a bare `...` (a valid Python body), it is never real content to write.
 */
export function isLazyMarker(line: string): boolean {
  const text = line.trim();
  if (!isElisionLine(text) || text === '...' || text === '…') return false;
  return (
    /^(?:\/\/|#|--|;|\/\*|<!--|\{\/\*)/.test(text) &&
    (LAZY_WORDS.test(text) || /^\S+\s*(?:\.{3}|…)\s*(?:\*\/|-->|\*\/\})?$/.test(text))
  );
}
