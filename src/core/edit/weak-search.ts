/**
 * A SEARCH too small to say where it belongs. `exact` takes the first of several occurrences
 * (the aider convention), which is a fair reading of `retries: 3,` but a guess for a lone `}`,
 * `end` or `});`: a model that shortens SEARCH to the closing line of "the function" ends up
 * editing the first function of the file. Such a SEARCH must match exactly one place.
 *
 * The rule (README "How edits are matched"): a SEARCH is weak when, leaving out punctuation,
 * block-closing and other bare keywords, its lines have fewer than MIN_SIGNIFICANT letters and
 * digits in all: `}`, `end`, `  });`, `fi`, `</div>`, `return x;`, `break;`.
 */

/** Letters and digits, outside keywords, a SEARCH needs before its first occurrence may stand for it. */
export const MIN_SIGNIFICANT = 4;

/** Words that end a block or stand alone in every language and so name no place. */
const KEYWORDS = new Set([
  'end',
  'fi',
  'done',
  'esac',
  'endif',
  'endfor',
  'endforeach',
  'endwhile',
  'endfunction',
  'endmodule',
  'endclass',
  'else',
  'elif',
  'then',
  'do',
  'begin',
  'try',
  'finally',
  'pass',
  'return',
  'break',
  'continue',
  'true',
  'false',
  'null',
  'nil',
  'none',
  'undefined',
  'this',
  'self',
]);

/** Letters and digits of a line outside keywords (an HTML closing tag counts as none). */
function significantLength(line: string): number {
  const text = line.trim();
  if (/^<\/[\w.:-]+>$/.test(text)) return 0;
  let length = 0;
  for (const token of text.split(/[^\p{L}\p{N}_]+/u)) {
    if (token !== '' && !KEYWORDS.has(token.toLowerCase())) length += token.length;
  }
  return length;
}

/** Whether a SEARCH is too small for "the first of several occurrences" to be anything but a guess. */
export function isWeakSearch(search: readonly string[]): boolean {
  let total = 0;
  for (const line of search) total += significantLength(line);
  return total < MIN_SIGNIFICANT;
}
