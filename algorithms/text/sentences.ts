/**
 * Sentence splitting by rules, with character offsets into the original text (PDC-MR, Zhang et
 * al. 2010 §5.2: "around 50 rules"; the rules below are the ones mail and web text need).
 *
 * A sentence is a range [start, end) of UTF-16 code units of the text as the reader gave it,
 * from its first non-space character to its last (after its terminal punctuation and closing
 * quotes). Sentence ids are the 0-based positions in the returned list. A range with no letter
 * or digit is not a sentence (a lone "...", "!!!").
 *
 * Blocks (hard boundaries, decided line by line):
 *   B1  A line's quote prefix (runs of `>` with spaces, as mail readers write them) is not text;
 *       its number of `>` is the line's quote depth.
 *   B2  A line with no letter or digit after its prefix ends the block: blank lines, quote-only
 *       lines ("> "), signature and list-footer rules ("-- ", "____", "<-*- -*->").
 *   B3  A change of quote depth between two lines ends the block (a quotation never continues
 *       the sentence that introduces it, nor the reply that follows it).
 *   B4  Within a block, line breaks are spaces: mail wraps sentences at 72 columns.
 * Sentences within a block:
 *   S1  A run of terminal marks `.` `!` `?` `…`, then closing marks `)` `]` `}` `"` `'` `”` `’`
 *       `»`, then white space or the end of the block, is a candidate boundary; the sentence
 *       ends after the closing marks.
 *   S2  Terminal marks followed by anything but white space are no boundary ("3.14",
 *       "www.example.com", "x.0->x.y", "?!?foo").
 *   S3  No boundary when the next word starts with a lower-case letter ("e.g. this",
 *       "etc. and", an unknown abbreviation).
 *   S4  No boundary after a title that precedes a name ("Mr.", "Dr.", "Prof.", "St.", …) or after
 *       a Latin abbreviation that never ends a sentence ("e.g.", "i.e.", "cf.", "viz.", "vs.").
 *   S5  No boundary after a single letter and one dot (an initial: "J. Smith").
 *   S6  No boundary after a number of 1-3 digits that opens the sentence (a list item "1. ").
 *   S7  `。` `！` `？` (CJK) end a sentence wherever they stand, with their closing marks.
 *   S8  The end of a block ends its last sentence.
 * Every rule looks at the text of its own block only, so a run of sentences copied into another
 * document as a paragraph of its own is split the same way there.
 */

export interface SentenceSpan {
  /** offset of the first character (UTF-16 code units) */
  readonly start: number;
  /** offset just past the last character */
  readonly end: number;
}

const TITLES = new Set([
  'mr', 'mrs', 'ms', 'messrs', 'dr', 'prof', 'rev', 'fr', 'sr', 'jr', 'st', 'mt', 'gen', 'col', 'capt', 'lt', 'sgt', 'cpl',
  'gov', 'sen', 'rep', 'hon', 'pres', 'supt', 'insp',
]);
const NEVER_FINAL = new Set(['e.g', 'i.e', 'eg', 'ie', 'cf', 'viz', 'vs', 'approx', 'ca']);

const WORD_CHAR = /[\p{L}\p{N}]/u;
const LOWER = /\p{Ll}/u;

function isTerminal(c: number): boolean {
  return c === 0x2e || c === 0x21 || c === 0x3f || c === 0x2026;
}

function isCjkTerminal(c: number): boolean {
  return c === 0x3002 || c === 0xff01 || c === 0xff1f;
}

function isCloser(c: number): boolean {
  return c === 0x29 || c === 0x5d || c === 0x7d || c === 0x22 || c === 0x27 || c === 0x201d || c === 0x2019 || c === 0xbb;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c || c === 0x0b || c === 0xa0 || c === 0x3000;
}

/** Splits `text` into sentences (see the rules above), in text order. */
export function splitSentences(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  // A block is its lines' content ranges; it is split once it is complete.
  let segments: number[] = [];
  let depth = -1;
  const flush = (): void => {
    if (segments.length > 0) splitBlock(text, segments, out);
    segments = [];
    depth = -1;
  };
  let pos = 0;
  const len = text.length;
  while (pos <= len) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = len;
    const { contentStart, lineDepth } = quotePrefix(text, pos, nl);
    const hasWord = hasWordChar(text, contentStart, nl);
    if (!hasWord || lineDepth !== depth) flush();
    if (hasWord) {
      depth = lineDepth;
      segments.push(contentStart, nl);
    }
    pos = nl + 1;
  }
  flush();
  return out;
}

/** Where a line's text starts after its quote prefix, and how many `>` that prefix holds. */
function quotePrefix(text: string, from: number, to: number): { contentStart: number; lineDepth: number } {
  let i = from;
  let lineDepth = 0;
  let contentStart = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === 0x3e) {
      lineDepth++;
      contentStart = i + 1;
    } else if (c !== 0x20 && c !== 0x09) break;
    i++;
  }
  return { contentStart: lineDepth > 0 ? contentStart : from, lineDepth };
}

function hasWordChar(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30) continue;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return true;
    if (c >= 0x80 && WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i) as number))) return true;
  }
  return false;
}

/**
 * Splits one block. The block's lines are joined with "\n" into one string whose every position
 * maps back to an offset of the text (`at`), so the rules see the block as running text.
 */
function splitBlock(text: string, segments: readonly number[], out: SentenceSpan[]): void {
  const lines = segments.length / 2;
  // Line k starts at `from[k]` in the block and at segments[2k] in the text; the "\n" that
  // joins it to the next (or the block's end) maps to the line's end.
  const from = new Uint32Array(lines);
  const parts: string[] = [];
  let o = 0;
  for (let k = 0; k < lines; k++) {
    const s = segments[2 * k] as number;
    const e = segments[2 * k + 1] as number;
    from[k] = o;
    parts.push(text.slice(s, e));
    o += e - s + 1;
  }
  const at = (p: number): number => {
    let lo = 0;
    let hi = lines - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((from[mid] as number) <= p) lo = mid;
      else hi = mid - 1;
    }
    return (segments[2 * lo] as number) + p - (from[lo] as number);
  };
  const b = lines === 1 ? (parts[0] as string) : parts.join('\n');
  const n = b.length;
  const emit = (s: number, e: number): void => {
    while (e > s && isSpace(b.charCodeAt(e - 1))) e--;
    if (e > s && hasWordChar(b, s, e)) out.push({ start: at(s), end: at(e - 1) + 1 });
  };
  const skipSpace = (i: number): number => {
    while (i < n && isSpace(b.charCodeAt(i))) i++;
    return i;
  };
  let start = skipSpace(0);
  let i = start;
  while (i < n) {
    const c = b.charCodeAt(i);
    if (isCjkTerminal(c)) {
      let k = i + 1;
      while (k < n && (isCjkTerminal(b.charCodeAt(k)) || isCloser(b.charCodeAt(k)))) k++;
      emit(start, k);
      start = i = skipSpace(k);
      continue;
    }
    if (!isTerminal(c)) {
      i++;
      continue;
    }
    let j = i;
    while (j < n && isTerminal(b.charCodeAt(j))) j++;
    let k = j;
    while (k < n && isCloser(b.charCodeAt(k))) k++;
    if (k < n && !isSpace(b.charCodeAt(k))) {
      i = k; // S2
      continue;
    }
    const next = skipSpace(k);
    if (next >= n || breaksBefore(b, start, i, j, next)) {
      emit(start, k);
      start = next;
      i = next;
    } else {
      i = next;
    }
  }
  if (start < n) emit(start, n);
}

/** Rules S3-S6 for a candidate boundary: terminal marks [i, j), next word at `next`. */
function breaksBefore(b: string, sentenceStart: number, i: number, j: number, next: number): boolean {
  if (LOWER.test(String.fromCodePoint(b.codePointAt(next) as number))) return false; // S3
  if (j - i !== 1 || b.charCodeAt(i) !== 0x2e) return true;
  // The token before the dot: back over letters, digits and inner dots.
  let t = i;
  while (t > sentenceStart) {
    const c = b.charCodeAt(t - 1);
    if (isSpace(c) || c === 0x28 || c === 0x5b || c === 0x22 || c === 0x27 || c === 0x201c || c === 0x2018) break;
    t--;
  }
  const token = b.slice(t, i).toLowerCase();
  if (TITLES.has(token) || NEVER_FINAL.has(token)) return false; // S4
  if (token.length === 1 && /\p{L}/u.test(token)) return false; // S5
  if (t === sentenceStart && /^\d{1,3}$/.test(token)) return false; // S6
  return true;
}
