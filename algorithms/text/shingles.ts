/**
 * Shingles of a normalized text as strings: the readable reference that the tests and the
 * text-record MapReduce jobs use. The fast path for the algorithms is `fingerprint.ts`, which
 * gives the fingerprints of exactly these shingles without building the strings.
 *
 * Both keep duplicates and text order; a document's shingle *set* is for the caller to make.
 */
import { wordStarts, words } from './tokens.ts';

/**
 * Character shingles (Nikkhoo 2010, 3.1.1): one at the first character of each word, spanning
 * `n` UTF-16 code units of the normalized text across word boundaries. A shingle that would run
 * past the end is dropped; a non-empty text shorter than `n` is one shingle, the whole text.
 * Lengths count code units, so a shingle may end inside a surrogate pair (rare, and harmless for
 * fingerprints: the same text always cuts the same way).
 */
export function charShingles(normalized: string, n: number): string[] {
  assertSize(n, 'n');
  const len = normalized.length;
  if (len === 0) return [];
  if (len < n) return [normalized];
  const result: string[] = [];
  for (const start of wordStarts(normalized)) {
    if (start + n > len) break;
    result.push(normalized.slice(start, start + n));
  }
  return result;
}

/**
 * Word shingles (Broder; Ye et al.): every `w` consecutive words joined by one space. A
 * non-empty text with fewer than `w` words is one shingle, all its words.
 */
export function wordShingles(normalized: string, w: number): string[] {
  assertSize(w, 'w');
  const all = words(normalized);
  if (all.length === 0) return [];
  if (all.length < w) return [all.join(' ')];
  const result: string[] = [];
  for (let k = 0; k + w <= all.length; k++) result.push(all.slice(k, k + w).join(' '));
  return result;
}

/** Shingle sizes come from validated parameters; anything else is a programming error. */
export function assertSize(size: number, name: string): void {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`shingle size ${name} must be a positive integer, got ${size}`);
}
