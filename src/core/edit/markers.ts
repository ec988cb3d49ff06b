/**
 * The lines that open, split and close a SEARCH/REPLACE block, and the rule for the sloppy ones
 * models write (README "Edit format"). A marker is a run of at least five marker characters,
 * then its keyword:
 *
 * - `<<<<<<< SEARCH` (or `-------`), `=======`, `>>>>>>> REPLACE` (or `+++++++`), any case,
 *   indented by at most three spaces, trailing white space ignored;
 * - the run may be longer than seven (`<<<<<<<<<< SEARCH`, seen from models that lose count);
 *   a `=======` of 5 to 9 characters splits every block, a longer one only a block whose
 *   SEARCH marker is at least as long, so a Markdown underline stays content elsewhere;
 * - the space between run and keyword may be missing or doubled (`<<<<<<<SEARCH`,
 *   `>>>>>>>REPLACE`), and a run of angle brackets right after the keyword is decoration
 *   (`<<<<<<< SEARCH>>`, `>>>>>>> REPLACE<<<`): nothing in a file looks like that by chance;
 * - the keyword must end there: `<<<<<<< SEARCHING` or `>>>>>>> REPLACED` is not a marker.
 *
 * A line that is the keyword in capitals with a run of two to four angle brackets, or with the
 * run only after it (`<<< SEARCH`, `<<SEARCH>>`, `SEARCH>>>>>>>`, `>>> REPLACE`), is not a
 * marker either; outside a block it is reported as a problem, so the reply fails with a pointer
 * to that line instead of its block silently not being applied while the others are.
 */

/** The SEARCH marker; group 1 is its run of marker characters, group 2 what follows (an inline path). */
export const HEAD = /^ {0,3}(<{5,}|-{5,})[ \t]*SEARCH(?:>+|(?![\p{L}\p{N}_]))[ \t]*:?\s*(.*)$/iu;
export const TAIL = /^ {0,3}(?:>{5,}|\+{5,})[ \t]*REPLACE(?:<+|(?![\p{L}\p{N}_]))\s*$/iu;
const DIVIDER = /^ {0,3}(={5,})\s*$/;
/** The usual longest divider: longer runs are a heading underline unless the block's markers are long too. */
const MAX_PLAIN_DIVIDER = 9;

/**
 * Two to four angle brackets and the keyword in capitals: `- SEARCH` is a Markdown list item,
 * `> REPLACE` a quote, `<search>` an HTML element.
 */
const NEAR_MARKER =
  /^\s*(?:<{2,4}[ \t]*SEARCH|>{2,4}[ \t]*REPLACE|(?:SEARCH|REPLACE)[ \t]*[<>]{2,})[<>]*\s*$/;

/** Whether a line inside a block whose SEARCH marker has `headLength` characters splits it. */
export function isDivider(line: string, headLength: number): boolean {
  const run = DIVIDER.exec(line)?.[1];
  return run !== undefined && run.length <= Math.max(MAX_PLAIN_DIVIDER, headLength);
}

/** A line that looks meant as a SEARCH or REPLACE marker but is not one (see the rule above). */
export function isNearMarker(line: string): boolean {
  return NEAR_MARKER.test(line);
}
