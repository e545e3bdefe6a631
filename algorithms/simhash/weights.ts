/**
 * A document's weighted features (Seshasai 2009, chapters 3 to 5): the feature vector F, the
 * hash vector H and the weight vector W that the fingerprint sums.
 *
 *   1. The text is normalized (`text/normalize.ts`); with `strip` its numbers and dates go (§4.2).
 *   2. Features are its words or shingles, occurrences in text order at positions x = 0..L-1.
 *   3. A feature's term frequency is the sum over its occurrences of f(x): f = 1 (plain tf),
 *      ln(x + e)/(x + e) (§5.2: log(x)/x shifted so that the first position scores highest,
 *      1/e, and later ones less) or cos(2πx/L) + 1 (§5.3). With f = 1 this is tf.
 *   4. weight = tf × idf, idf = 1/df (§3.3) or log(N/df); a feature missing from a df table
 *      loaded from a file counts as df = 1 (seen once: the rarest).
 *   5. Tag boosting (§5.4): features that also occur in the document's tagged text (title,
 *      h1-h3, b, i, a; the reader's `tagged` meta field, one element per line) are multiplied
 *      by the boost.
 *   6. Thresholds (§5.1) against the largest weight m: low c sets weights under c·m to 0; high c
 *      keeps only weights over c·m; top n keeps the n largest (ties: the earlier feature).
 *   7. Metadata (§4.1): each configured meta field present is one more feature, its normalized
 *      value prefixed by the field name (`subject:cheap meds`), weighted share × m.
 *
 * Features are kept in order of first occurrence, metadata last, so the fingerprint's sums add
 * the same numbers in the same order on every backend: the jobs and the kernel call this code.
 */
import { normalize } from '../text/normalize.ts';
import { shingleRanges } from '../text/fingerprint.ts';
import { stripNumbersDates } from './clean.ts';
import { hashFeature, hashSeeds, type HashSeeds } from './feature-hash.ts';
import type { FeatureSpec, SimhashParams } from './params.ts';

/** The thesis' constants: low threshold 0.01, high threshold 0.5 (§6.4.3, §6.4.4), tag boost 1.5 (§6.4.7). */
export const THESIS_LOW_THRESHOLD = 0.01;
export const THESIS_HIGH_THRESHOLD = 0.5;
export const THESIS_TAG_BOOST = 1.5;
/** The meta field carrying a document's tagged text, one tagged element per line. */
export const TAGGED_META = 'tagged';

/** Everything that decides a document's weighted features: plain data, sent to worker threads. */
export interface WeightingOptions {
  readonly features: FeatureSpec;
  readonly strip: boolean;
  readonly idf: 'inverse' | 'log';
  readonly position: 'none' | 'log' | 'cosine';
  readonly lowThreshold: number | null;
  readonly highThreshold: number | null;
  readonly topFeatures: number | null;
  readonly tagBoost: number | null;
  readonly metadata: { readonly fields: readonly string[]; readonly share: number } | null;
  readonly seeds: HashSeeds;
}

function onOff(v: boolean | number, thesis: number): number | null {
  return v === false ? null : v === true ? thesis : v;
}

export function weightingOptions(p: SimhashParams, seed: number): WeightingOptions {
  return {
    features: p.features,
    strip: p.strip_numbers_dates,
    idf: p.idf,
    position: p.position,
    lowThreshold: onOff(p.low_threshold, THESIS_LOW_THRESHOLD),
    highThreshold: onOff(p.high_threshold, THESIS_HIGH_THRESHOLD),
    topFeatures: p.top_features === false ? null : p.top_features,
    tagBoost: onOff(p.tag_boost, THESIS_TAG_BOOST),
    metadata: p.metadata ? { fields: p.metadata.fields, share: p.metadata.share } : null,
    seeds: hashSeeds(seed),
  };
}

/** The meta fields a document must carry for these options (metadata features, tagged text). */
export function metaFieldsUsed(o: WeightingOptions): string[] {
  return [...(o.metadata?.fields ?? []), ...(o.tagBoost !== null ? [TAGGED_META] : [])];
}

/** What text the features are cut from: the normalized text, without numbers and dates if asked. */
export function cleanText(text: string, strip: boolean): string {
  const n = normalize(text);
  return strip ? stripNumbersDates(n) : n;
}

/** Document frequencies by feature hash, and the corpus size N. */
export interface DfLookup {
  readonly documents: number;
  get(hi: number, lo: number): number;
}

/** Position factor f(x) of occurrence x of L. */
function positionFactor(kind: WeightingOptions['position'], x: number, L: number): number {
  if (kind === 'log') return Math.log(x + Math.E) / (x + Math.E);
  if (kind === 'cosine') return Math.cos((2 * Math.PI * x) / L) + 1;
  return 1;
}

/** A document's features: views valid until the next call on the same weigher. */
export interface WeightedFeatures {
  readonly count: number;
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  readonly weight: Float64Array;
}

/**
 * Weighs documents one after another, reusing its buffers (one per task or worker thread).
 * `df` may be null for `distinct`, which needs no weights.
 */
export class FeatureWeigher {
  private hi = new Uint32Array(1024);
  private lo = new Uint32Array(1024);
  private raw = new Float64Array(1024);
  private weight = new Float64Array(1024);
  private count = 0;
  private slots = new Int32Array(2048);
  private readonly h = new Uint32Array(2);

  constructor(
    private readonly o: WeightingOptions,
    private readonly df: DfLookup | null,
  ) {}

  /** The distinct feature hashes of `text` (what a document adds to document frequencies). */
  distinct(text: string): WeightedFeatures {
    this.collect(cleanText(text, this.o.strip));
    return { count: this.count, hi: this.hi, lo: this.lo, weight: this.raw };
  }

  /** The weighted features of a document. */
  weigh(text: string, meta?: Readonly<Record<string, string>>): WeightedFeatures {
    return this.weighClean(cleanText(text, this.o.strip), meta);
  }

  /** The weighted features of a document already through `cleanText`. */
  weighClean(clean: string, meta?: Readonly<Record<string, string>>): WeightedFeatures {
    const o = this.o;
    this.collect(clean);
    const n = this.count;
    const df = this.df;
    if (!df) throw new Error('FeatureWeigher.weigh needs document frequencies');
    const N = df.documents;
    let max = 0;
    for (let i = 0; i < n; i++) {
      const d = Math.max(1, df.get(this.hi[i] as number, this.lo[i] as number));
      // log(N/df) <= 0 for a feature in every document (or a file's df above our N): no weight
      const idf = o.idf === 'inverse' ? 1 / d : Math.max(0, Math.log(N / d));
      const w = (this.raw[i] as number) * idf;
      this.weight[i] = w;
      if (w > max) max = w;
    }
    const tagged = meta?.[TAGGED_META];
    if (o.tagBoost !== null && tagged) max = this.boost(tagged, o.tagBoost);
    if (o.lowThreshold !== null) {
      const cut = o.lowThreshold * max;
      for (let i = 0; i < n; i++) if ((this.weight[i] as number) < cut) this.weight[i] = 0;
    }
    if (o.highThreshold !== null) {
      const cut = o.highThreshold * max;
      for (let i = 0; i < n; i++) if (!((this.weight[i] as number) > cut)) this.weight[i] = 0;
    }
    if (o.topFeatures !== null && n > o.topFeatures) this.keepTop(o.topFeatures);
    if (o.metadata && max > 0) {
      for (const field of o.metadata.fields) {
        const value = meta?.[field];
        const v = value === undefined ? '' : normalize(value);
        if (v === '') continue;
        const feature = `${field}:${v}`;
        this.ensure(this.count + 1);
        hashFeature(feature, 0, feature.length, o.seeds, this.h, 0);
        this.hi[this.count] = this.h[0] as number;
        this.lo[this.count] = this.h[1] as number;
        this.weight[this.count] = o.metadata.share * max;
        this.count++;
      }
    }
    return { count: this.count, hi: this.hi, lo: this.lo, weight: this.weight };
  }

  /** Fills hi, lo and raw (position-weighted tf) with the distinct features of `clean`. */
  private collect(clean: string): void {
    this.count = 0;
    const f = this.o.features;
    if (f.unit === 'word' && f.size === 1) {
      this.collectWords(clean);
      return;
    }
    const { starts, ends } = shingleRanges(clean, f);
    const L = starts.length;
    const mask = this.reset(L);
    for (let x = 0; x < L; x++) {
      const weight = this.o.position === 'none' ? 1 : positionFactor(this.o.position, x, L);
      this.addOccurrence(clean, starts[x] as number, ends[x] as number, weight, mask);
    }
  }

  /**
   * Single words, the default and the hot path: one pass over the text finds each word and
   * hashes it in place (no arrays of word offsets). Same features, in the same order, as the
   * ranges of `shingleRanges` with w = 1: normalized text has single spaces between words.
   */
  private collectWords(clean: string): void {
    const len = clean.length;
    if (len === 0) {
      this.reset(0);
      return;
    }
    // Normalized text: words separated by single spaces, so the words are the spaces plus one
    // (`indexOf` scans natively, several times faster than a charCodeAt loop).
    let L = 1;
    for (let i = clean.indexOf(' '); i >= 0; i = clean.indexOf(' ', i + 1)) L++;
    const mask = this.reset(L);
    const position = this.o.position;
    let x = 0;
    let start = 0;
    while (start < len) {
      let end = clean.indexOf(' ', start);
      if (end < 0) end = len;
      if (end > start) {
        this.addOccurrence(clean, start, end, position === 'none' ? 1 : positionFactor(position, x, L), mask);
        x++;
      }
      start = end + 1;
    }
  }

  /** Readies the per-document table for at most `occurrences` features; returns its mask. */
  private reset(occurrences: number): number {
    this.ensure(occurrences);
    let cap = 2048;
    while (cap < occurrences * 2) cap *= 2;
    if (this.slots.length < cap) this.slots = new Int32Array(cap);
    this.slots.fill(-1, 0, cap);
    return cap - 1;
  }

  /** Adds one occurrence of the feature `clean[start, end)` with position factor f. */
  private addOccurrence(clean: string, start: number, end: number, f: number, mask: number): void {
    const h = this.h;
    hashFeature(clean, start, end, this.o.seeds, h, 0);
    const hi = h[0] as number;
    const lo = h[1] as number;
    const slots = this.slots;
    let slot = (hi ^ Math.imul(lo, 0x9e3779b1)) & mask;
    for (;;) {
      const at = slots[slot] as number;
      if (at < 0) {
        const i = this.count++;
        slots[slot] = i;
        this.hi[i] = hi;
        this.lo[i] = lo;
        this.raw[i] = f;
        return;
      }
      if (this.hi[at] === hi && this.lo[at] === lo) {
        this.raw[at] = (this.raw[at] as number) + f;
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Multiplies features found in the tagged text by `factor`; returns the new largest weight. */
  private boost(tagged: string, factor: number): number {
    const marked = new Set<string>();
    const h = new Uint32Array(2);
    for (const line of tagged.split('\n')) {
      const clean = cleanText(line, this.o.strip);
      const { starts, ends } = shingleRanges(clean, this.o.features);
      for (let x = 0; x < starts.length; x++) {
        hashFeature(clean, starts[x] as number, ends[x] as number, this.o.seeds, h, 0);
        marked.add(`${h[0]}:${h[1]}`);
      }
    }
    let max = 0;
    for (let i = 0; i < this.count; i++) {
      if (marked.has(`${this.hi[i]}:${this.lo[i]}`)) this.weight[i] = (this.weight[i] as number) * factor;
      if ((this.weight[i] as number) > max) max = this.weight[i] as number;
    }
    return max;
  }

  /** Sets all but the n largest weights to 0; among equal weights the earlier feature stays. */
  private keepTop(n: number): void {
    const order = Array.from({ length: this.count }, (_, i) => i);
    order.sort((a, b) => (this.weight[b] as number) - (this.weight[a] as number) || a - b);
    for (let r = n; r < order.length; r++) this.weight[order[r] as number] = 0;
  }

  private ensure(n: number): void {
    if (n <= this.hi.length) return;
    let cap = this.hi.length;
    while (cap < n) cap *= 2;
    const grow = <T extends Uint32Array | Float64Array>(a: T, make: (c: number) => T): T => {
      const b = make(cap);
      b.set(a.subarray(0, this.count) as never);
      return b;
    };
    this.hi = grow(this.hi, (c) => new Uint32Array(c));
    this.lo = grow(this.lo, (c) => new Uint32Array(c));
    this.raw = grow(this.raw, (c) => new Float64Array(c));
    this.weight = grow(this.weight, (c) => new Float64Array(c));
  }
}
