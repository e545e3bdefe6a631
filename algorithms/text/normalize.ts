/**
 * Text normalization (Nikkhoo 2010, 3.1.1; docs/design.md §4.1), for plain text whose HTML
 * the readers have already removed: lower-case, then every maximal run of characters that are
 * not letters (\p{L}), combining marks (\p{M}) or digits (\p{N}) becomes one space, then trim.
 * The result is words separated by single spaces, or "" when the text has no word.
 *
 * Choices where the definition is silent:
 * - Characters are classified by code point after `toLowerCase()` (which may lengthen the text,
 *   e.g. "İ" becomes "i" + U+0307, a mark that stays in the word).
 * - A surrogate pair is one code point and is classified as such; a lone surrogate is not a
 *   letter, so it is a separator.
 *
 * Speed: this runs over every document of a collection (~30 MB per experiment). Regexes and
 * string building cost ~60 MB/s; this walks char codes against a 64 KiB class table and writes
 * into a reused byte buffer decoded once as latin1 (~200 MB/s on the SpamAssassin corpus). The
 * first word character above U+00FF moves the work to a 16-bit buffer.
 */

const SEPARATOR = 0;
const WORD = 1;
/** A high surrogate: the class depends on the code point it forms with the next unit. */
const HIGH_SURROGATE = 2;

const SPACE = 0x20;
const wordChar = /^[\p{L}\p{M}\p{N}]$/u;

/**
 * Class of every UTF-16 code unit: ~63k regex tests, 10 to 15 ms, made when first needed, not
 * at load (a run that replays its fingerprints normalizes nothing, nor do most worker threads).
 */
let classTable: Uint8Array | undefined;
const classes = (): Uint8Array => (classTable ??= buildClassTable());

function buildClassTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdbff) table[c] = HIGH_SURROGATE;
    else if (c >= 0xdc00 && c <= 0xdfff) table[c] = SEPARATOR;
    else table[c] = wordChar.test(String.fromCharCode(c)) ? WORD : SEPARATOR;
  }
  return table;
}

/**
 * Output buffers reused across calls (the output is never longer than the lower-cased input).
 * Documents above the cap get buffers of their own so that one huge document does not pin
 * its memory for the rest of the run.
 */
const REUSE_CAP = 1 << 23;
let narrowBuffer = Buffer.alloc(1 << 16);
let wideBuffer = new Uint16Array(1 << 16);
const utf16 = new TextDecoder('utf-16le');

function narrowFor(len: number): Buffer {
  if (len <= narrowBuffer.length) return narrowBuffer;
  if (len > REUSE_CAP) return Buffer.allocUnsafe(len);
  narrowBuffer = Buffer.alloc(Math.max(len, narrowBuffer.length * 2));
  return narrowBuffer;
}

function wideFor(len: number): Uint16Array {
  if (len <= wideBuffer.length) return wideBuffer;
  if (len > REUSE_CAP) return new Uint16Array(len);
  wideBuffer = new Uint16Array(Math.max(len, wideBuffer.length * 2));
  return wideBuffer;
}

/** Lower-cases `text` and reduces it to its words separated by single spaces. */
export function normalize(text: string): string {
  const s = text.toLowerCase();
  const len = s.length;
  const out = narrowFor(len);
  const CLASS = classes();
  let o = 0;
  let previousWord = 1;
  // Branch-free: a word boundary comes every few characters, too irregularly for the branch
  // predictor; always storing and advancing by 0 or 1 halved this loop's time on English text.
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    const cls = CLASS[c] as number;
    if (c > 0xff && cls !== SEPARATOR) return normalizeWide(s, i, out, o, previousWord === 0);
    // a space before a word that follows a separator, unless nothing has been written yet
    out[o] = SPACE;
    o += cls & (previousWord ^ 1) & (-o >>> 31);
    out[o] = c;
    o += cls;
    previousWord = cls;
  }
  return out.toString('latin1', 0, o);
}

/** Continues `normalize` from position `i` once the output needs 16-bit code units. */
function normalizeWide(s: string, i: number, narrow: Buffer, narrowLength: number, pendingSpace: boolean): string {
  const len = s.length;
  const out = wideFor(len);
  const CLASS = classes();
  let o = narrowLength;
  for (let k = 0; k < narrowLength; k++) out[k] = narrow[k]!;
  for (; i < len; i++) {
    const c = s.charCodeAt(i);
    const cls = CLASS[c];
    const units = cls === WORD ? 1 : cls === HIGH_SURROGATE && isWordPair(s, i) ? 2 : 0;
    if (units === 0) {
      pendingSpace = true;
      continue;
    }
    if (pendingSpace) {
      if (o > 0) out[o++] = SPACE;
      pendingSpace = false;
    }
    out[o++] = c;
    if (units === 2) out[o++] = s.charCodeAt(++i);
  }
  return utf16.decode(out.subarray(0, o));
}

/** Whether the high surrogate at `i` and the unit after it form a letter, mark or digit. */
function isWordPair(s: string, i: number): boolean {
  if (i + 1 >= s.length) return false;
  const low = s.charCodeAt(i + 1);
  return low >= 0xdc00 && low <= 0xdfff && wordChar.test(s.slice(i, i + 2));
}

/**
 * The number of words `normalize(text)` has, without building it: its words are the maximal
 * runs of word characters of the lower-cased text. A run over the corpus for the evaluation's
 * size groups, at twice the speed of normalizing and counting.
 */
export function normalizedWordCount(text: string): number {
  const s = text.toLowerCase();
  const len = s.length;
  const CLASS = classes();
  let words = 0;
  let inWord = 0;
  // Branch-free as in `normalize`: a word starts where a word unit follows a separator.
  for (let i = 0; i < len; i++) {
    let word = CLASS[s.charCodeAt(i)] as number;
    if (word === HIGH_SURROGATE) {
      word = isWordPair(s, i) ? WORD : SEPARATOR;
      i += word;
    }
    words += word & (inWord ^ 1);
    inWord = word;
  }
  return words;
}
