/**
 * Invisible and direction-changing Unicode (threat T8): characters a reviewer cannot see in a
 * diff but a compiler or a model reads, used to hide code ("Trojan Source") or instructions.
 */

const NAMES: Readonly<Record<number, string>> = {
  0x00ad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (BOM)',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
};

// The class deliberately lists joiners and combining marks on their own.
// Braced astral escapes with the u flag: `\ue0000` would be U+E000 followed by "0" (LESSONS.md).
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class
  /[\u00AD\u034F\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0\u{E0000}-\u{E007F}]/gu;
/** The same class without g: a test that keeps no lastIndex between lines. */
// eslint-disable-next-line no-misleading-character-class
const HAS_INVISIBLE = new RegExp(INVISIBLE.source, 'u');

export interface InvisibleChar {
  /** 1-based column (in code points) within the line. */
  column: number;
  codePoint: number;
  /** "U+202E RIGHT-TO-LEFT OVERRIDE" */
  label: string;
}

export function describeCodePoint(codePoint: number): string {
  const hex = codePoint.toString(16).toUpperCase().padStart(4, '0');
  const name =
    NAMES[codePoint] ??
    (codePoint >= 0xe0000 && codePoint <= 0xe007f ? 'TAG CHARACTER' : 'INVISIBLE CHARACTER');
  return `U+${hex} ${name}`;
}

/**
 * Emoji sequences use two of these characters visibly: U+200D joins emoji into one glyph
 * (👨‍👩‍👧), and tag characters spell a subdivision flag after U+1F3F4 (🏴 for Scotland).
 * Those uses render as a picture a reviewer can see; anywhere else they hide text.
 */
const EMOJI_ZWJ =
  /(?<=[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}]\uFE0F?)\u200D(?=\p{Extended_Pictographic})/u;
const FLAG_TAGS = /\u{1F3F4}[\u{E0061}-\u{E007A}]{2,6}\u{E007F}/gu;

function emojiSpans(line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of line.matchAll(FLAG_TAGS)) spans.push([match.index, match.index + match[0].length]);
  return spans;
}

/** Every invisible or bidi-control character in one line of text. */
export function findInvisible(line: string): InvisibleChar[] {
  // Most lines have none: a test first, since matchAll copies its regex and makes an iterator per
  // call (two a line with emojiSpans: hundreds of MB of garbage for the 385,000 lines of 20 MB).
  if (!HAS_INVISIBLE.test(line)) return [];
  const found: InvisibleChar[] = [];
  const flags = emojiSpans(line);
  for (const match of line.matchAll(INVISIBLE)) {
    const codePoint = match[0].codePointAt(0) ?? 0;
    if (codePoint === 0x200d && EMOJI_ZWJ.test(line.slice(Math.max(0, match.index - 3), match.index + 3)))
      continue;
    if (flags.some(([from, to]) => match.index >= from && match.index < to)) continue;
    const column = Array.from(line.slice(0, match.index)).length + 1;
    found.push({ column, codePoint, label: describeCodePoint(codePoint) });
  }
  return found;
}

/**
 * `text` without its invisible and bidi-control characters: for text aide shows but did not write
 * (a model's message), where a right-to-left override could make a line read other than it is.
 */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}
