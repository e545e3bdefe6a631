/**
 * I-Match lexicons and signatures (Chowdhury et al. 2002; Kołcz, Chowdhury and Alspector 2004;
 * simhash thesis §2.4.3; Zhang et al. 2010 §4.1.2), for any unit of text: a document, a sentence.
 *
 * - The lexicon keeps the terms whose normalized idf, log(N/df)/log(N), lies in a closed range
 *   [min, max] (Zhang's Figure 7 sweeps it; [0.1, 1.0] was best there). N and df count whatever
 *   units the table was built over (documents for I-Match, sentences for PDC-MR).
 * - A unit's signature is SHA-1 over its sorted unique lexicon terms; a unit with no lexicon term
 *   has none (null). Equal signatures are duplicates.
 * - Randomized lexicons (Kołcz et al.): K extra lexicons, each the base lexicon less a random
 *   fraction p of its terms, give K+1 signatures per unit.
 *
 * Exact byte string signed: the terms in JavaScript string order (UTF-16 code units), joined by
 * "\n", encoded as UTF-8. A separator keeps {"ab", "c"} apart from {"a", "bc"}; "\n" never occurs
 * in a normalized term (normalize.ts turns every non-word character into a space), so word
 * shingles ("a b") are safe terms too.
 *
 * This module has no zod: the Hadoop job script bundles it (algorithms/<name>/plan.ts imports it).
 */
import * as crypto from 'node:crypto';
import { normalizedIdf, type DocumentFrequencies } from './document-frequencies.ts';

export const TERM_SEPARATOR = '\n';

/** A closed range of normalized idf, 0 <= min <= max <= 1. */
export interface IdfRange {
  readonly min: number;
  readonly max: number;
}

/** Whether a term held by `df` of `units` units has its normalized idf in `range`. */
export function inIdfRange(df: number, units: number, range: IdfRange): boolean {
  const idf = normalizedIdf(df, units);
  return idf >= range.min && idf <= range.max;
}

/** The lexicon: the table's terms whose normalized idf lies in `range`, in string order. */
export function lexiconTerms(table: DocumentFrequencies, range: IdfRange): string[] {
  const terms: string[] = [];
  for (const [t, df] of table.df) if (inIdfRange(df, table.documents, range)) terms.push(t);
  return terms.sort();
}

/** The distinct terms, in the order signatures use. */
export function sortedUnique(terms: Iterable<string>): string[] {
  return [...new Set(terms)].sort();
}

/** SHA-1 (hex) of sorted unique terms; the caller sorts and de-duplicates (`sortedUnique`). */
export function termSignature(sortedUniqueTerms: readonly string[]): string {
  return sha1Hex(sortedUniqueTerms.join(TERM_SEPARATOR));
}

/**
 * One-shot `crypto.hash` (Node >= 20.12) is twice as fast as a Hash object on short inputs; an
 * older Node on a cluster node falls back to the Hash object (same bytes).
 */
const sha1Hex: (s: string) => string =
  typeof crypto.hash === 'function'
    ? (s) => crypto.hash('sha1', s, 'hex')
    : (s) => crypto.createHash('sha1').update(s, 'utf8').digest('hex');

/** Kołcz et al.'s randomization: `extra` lexicons (K), each dropping a fraction `drop` (p) of the terms. */
export interface LexiconRandomization {
  readonly extra: number;
  readonly drop: number;
  /** every random choice derives from it (the experiment's seed) */
  readonly seed: number;
}

/** How many of `size` lexicon terms an extra lexicon drops: round(p·size). */
export function droppedCount(size: number, drop: number): number {
  return Math.round(drop * size);
}

/**
 * Which of `terms` extra lexicon `j` (1..K) drops: 1 at the index of each dropped term.
 *
 * Each term gets a pseudo-random 53-bit rank from (seed, j, term) alone, and the lexicon drops
 * the round(p·L) terms of lowest rank (ties, which need equal 53-bit ranks, by string order).
 * So the dropped set is a uniformly random subset of exactly that size, it depends on the terms
 * and not on the order they are given in (map tasks read the frequency table in any order), and
 * the lexicons of a smaller K are the first lexicons of a larger one.
 */
export function dropMask(terms: readonly string[], j: number, drop: number, seed: number): Uint8Array {
  const n = terms.length;
  const mask = new Uint8Array(n);
  const m = droppedCount(n, drop);
  if (m === 0) return mask;
  const s1 = lexiconSeed(seed, j, 1);
  const s2 = lexiconSeed(seed, j, 2);
  const ranks = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = terms[i] as string;
    ranks[i] = hashString(t, s1) * 2 ** 21 + (hashString(t, s2) >>> 11);
  }
  const threshold = ranks.slice().sort()[m - 1] as number;
  const ties: number[] = [];
  let dropped = 0;
  for (let i = 0; i < n; i++) {
    const r = ranks[i] as number;
    if (r < threshold) {
      mask[i] = 1;
      dropped++;
    } else if (r === threshold) ties.push(i);
  }
  ties.sort((x, y) => ((terms[x] as string) < (terms[y] as string) ? -1 : 1));
  for (let k = 0; dropped < m; k++, dropped++) mask[ties[k] as number] = 1;
  return mask;
}

/**
 * The base lexicon and K randomized ones. Lexicon 0 is the base; lexicon j >= 1 is the base less
 * `dropMask(terms, j, …)`. Terms have an index, their rank in string order, so that a unit given
 * as ascending term indexes (`signaturesOfIndexes`, what a kernel holding term ids has) is signed
 * exactly as the same unit given as its sorted terms (`signatures`).
 */
export class Lexicons {
  /** K + 1 */
  readonly count: number;
  /** the base lexicon in string order: a term's index is its position here */
  readonly terms: readonly string[];
  private lookup: Map<string, number> | undefined;
  private readonly dropped: Uint8Array[];

  /**
   * `terms`: the base lexicon (`lexiconTerms`), distinct; given in string order they are kept as
   * they are (so their positions are their indexes), else sorted. No randomization: K = 0.
   */
  constructor(terms: readonly string[], randomization?: LexiconRandomization) {
    if (isStrictlySorted(terms)) this.terms = terms;
    else {
      this.terms = [...terms].sort();
      if (!isStrictlySorted(this.terms)) throw new Error('lexicon terms must be distinct');
    }
    const r = randomization ?? { extra: 0, drop: 0, seed: 0 };
    this.count = r.extra + 1;
    this.dropped = [];
    for (let j = 1; j <= r.extra; j++) this.dropped.push(dropMask(this.terms, j, r.drop, r.seed));
  }

  private get index(): Map<string, number> {
    if (!this.lookup) {
      this.lookup = new Map();
      this.terms.forEach((t, i) => (this.lookup as Map<string, number>).set(t, i));
    }
    return this.lookup;
  }

  /** Whether lexicon `j` holds `term`. */
  has(j: number, term: string): boolean {
    const i = this.index.get(term);
    return i !== undefined && (j === 0 || this.dropped[j - 1]?.[i] === 0);
  }

  /** The term's index in the base lexicon, -1 when the base lexicon does not hold it. */
  indexOf(term: string): number {
    return this.index.get(term) ?? -1;
  }

  /**
   * The K+1 signatures of a unit given as its sorted unique terms (`sortedUnique`): signature j
   * signs the terms lexicon j holds, null when it holds none.
   */
  signatures(sortedUniqueTerms: readonly string[]): (string | null)[] {
    const held: number[] = [];
    for (const t of sortedUniqueTerms) {
      const i = this.index.get(t);
      if (i !== undefined) held.push(i);
    }
    return this.signaturesOfIndexes(held);
  }

  /** The K+1 signatures of a unit given as the ascending indexes of the base-lexicon terms it holds. */
  signaturesOfIndexes(held: ArrayLike<number>): (string | null)[] {
    const n = held.length;
    const parts: string[] = [];
    for (let k = 0; k < n; k++) parts.push(this.terms[held[k] as number] as string);
    const out: (string | null)[] = [n === 0 ? null : termSignature(parts)];
    for (const mask of this.dropped) {
      parts.length = 0;
      for (let k = 0; k < n; k++) {
        const i = held[k] as number;
        if (mask[i] === 0) parts.push(this.terms[i] as string);
      }
      out.push(parts.length === 0 ? null : termSignature(parts));
    }
    return out;
  }
}

function isStrictlySorted(terms: readonly string[]): boolean {
  for (let i = 1; i < terms.length; i++) if ((terms[i - 1] as string) >= (terms[i] as string)) return false;
  return true;
}

/** A 32-bit seed for lexicon j's rank hash number `which`, from the experiment's seed. */
function lexiconSeed(seed: number, j: number, which: number): number {
  const lo = seed % 2 ** 32 >>> 0;
  const hi = Math.floor(seed / 2 ** 32) >>> 0;
  return fmix32(fmix32(fmix32(lo ^ 0x9e3779b9) ^ hi) + Math.imul(j, 0x85ebca6b) + which);
}

/** MurmurHash3 (x86, 32-bit) over the string's UTF-16 code units, two units a block. */
function hashString(s: string, seed: number): number {
  let h = seed >>> 0;
  const len = s.length;
  let i = 0;
  for (; i + 1 < len; i += 2) h = murmurStep(h, s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16));
  if (i < len) {
    let k = Math.imul(s.charCodeAt(i), 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
  }
  return fmix32(h ^ (len * 2));
}

function murmurStep(h: number, block: number): number {
  let k = Math.imul(block, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** murmur3's 32-bit finalizer: every input bit reaches every output bit. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
