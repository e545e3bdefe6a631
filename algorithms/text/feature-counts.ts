/**
 * How many documents of a collection hold given fingerprints (distinct, as hex or by number):
 * Broder's SCT and PPJoin's token order, for explanations (contract/explain.ts) of one pair.
 */
import { lengthOf, type DocumentSet, type ExplainContext } from '../../contract/index.ts';
import { featuresCodec } from './corpus-features.ts';
import type { DocumentFeatures } from './features.ts';
import { documentFrequencies, fingerprintRunsKey, type FingerprintRuns, type HeldFingerprintRuns } from './fingerprint-runs.ts';
import { fingerprintHex, shingleFingerprints } from './fingerprint.ts';
import { normalize } from './normalize.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';

type CountsContext = Pick<ExplainContext, 'docs' | 'storedIfAny' | 'computedIfAny' | 'cached' | 'signal'>;

/**
 * Where the counts come from: the fingerprint features an earlier run kept (corpus-features.ts)
 * or this run's kernels computed in memory, by their posting lists' lengths; else the
 * fingerprint runs this run's kernels wrote out of core (fingerprint-runs.ts), by a search in
 * their files; else none (a run without either, `bench explain`): a pass over the collection.
 */
type CountSource = { readonly features: DocumentFeatures } | { readonly runs: FingerprintRuns } | undefined;

async function countSource(ctx: CountsContext, shingle: ShingleSpec, kind: FingerprintKind): Promise<CountSource> {
  const codec = featuresCodec(shingle, kind);
  // What this run holds in memory first: the store's copy is read from disk and its digest checked
  // (a tenth of a second on the bundled mail), and a run that kept it computed or replayed it too.
  const kept = (await ctx.computedIfAny?.(codec)) ?? ctx.storedIfAny?.(codec);
  if (kept) return { features: kept };
  const runs = await ctx.computedIfAny?.<HeldFingerprintRuns>(fingerprintRunsKey(shingle, kind));
  // An interrupt removed them: the run is ending, and the pass stops at the same interrupt.
  return runs && !runs.removed ? { runs } : undefined;
}

/** Keys a search of the fingerprint runs takes between two turns of the event loop. */
const SEARCH_KEYS = 1 << 12;

/** documentFrequencies of `keys` (`width` words each) in pieces, yielding between them and stopping at `signal`. */
async function countsFromRuns(runs: FingerprintRuns, keys: Uint32Array, signal: AbortSignal | undefined): Promise<Uint32Array> {
  const w = runs.width;
  const counts = new Uint32Array(keys.length / w);
  for (let from = 0; from < counts.length; from += SEARCH_KEYS) {
    signal?.throwIfAborted();
    if (from > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const to = Math.min(counts.length, from + SEARCH_KEYS);
    counts.set(documentFrequencies(runs, keys.subarray(from * w, to * w)), from);
  }
  return counts;
}

/** A fingerprint's hex as its 32-bit words, most significant first. */
function hexWords(key: string, width: number, into: Uint32Array, at: number): void {
  for (let k = 0; k < width; k++) into[at + k] = parseInt(key.slice(8 * k, 8 * k + 8), 16);
}

/**
 * How many documents of the collection hold each of `keys` (distinct fingerprints): from what
 * an earlier run kept or this run computed (countSource), else a pass that fingerprints every
 * document (PassCounts): one pass for the keys of every explanation started together, shared
 * through `ctx.cached`.
 */
export async function documentCounts(ctx: CountsContext, shingle: ShingleSpec, kind: FingerprintKind, keys: readonly string[]): Promise<Map<string, number>> {
  const codec = featuresCodec(shingle, kind);
  const source = await countSource(ctx, shingle, kind);
  if (!source) {
    const make = (): PassCounts => new PassCounts(ctx.docs, shingle, kind, { signal: ctx.signal });
    return (ctx.cached ? ctx.cached(`document-counts-pass:${codec.key}`, make) : make()).counts(keys);
  }
  // Counts already looked up for an earlier pair of the same run are reused.
  const known = ctx.cached ? ctx.cached(`document-counts:${codec.key}`, () => new Map<string, number>()) : new Map<string, number>();
  const missing = [...new Set(keys.filter((k) => !known.has(k)))];
  if ('features' in source) {
    for (const [k, n] of countsFromFeatures(source.features, missing)) known.set(k, n);
  } else {
    const w = source.runs.width;
    const words = new Uint32Array(missing.length * w);
    missing.forEach((k, i) => hexWords(k, w, words, i * w));
    const counts = await countsFromRuns(source.runs, words, ctx.signal);
    missing.forEach((k, i) => known.set(k, counts[i] as number));
  }
  return new Map(keys.map((k) => [k, known.get(k) as number]));
}

/** Fingerprints by number (offsets.ts ShingleOccurrences): their words, `width` a fingerprint by id, and each in hex. */
export interface NumberedFingerprints {
  readonly numbering: { readonly width: number; keys(): Uint32Array };
  hexOf(id: number): string;
}

/**
 * Document counts by fingerprint number, −1 where not looked up yet: numbers are dense
 * (offsets.ts numbers them), and an SCT variant's evidence asks for the hundreds or thousands a
 * pair shares, where Sets and Maps of them cost more than the look-ups.
 */
class CountsById {
  private counts = new Int32Array(0);

  /** The count of `id`, or −1. */
  get(id: number): number {
    return id < this.counts.length ? (this.counts[id] as number) : -1;
  }

  set(id: number, n: number): void {
    if (id >= this.counts.length) {
      const grown = new Int32Array(Math.max(2 * this.counts.length, id + 1, 1024)).fill(-1);
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[id] = n;
  }
}

/**
 * documentCounts for fingerprints given by number, in the order of `ids`: from the features or
 * the fingerprint runs (countSource) by their words (no hex made or parsed), counts kept by id
 * for the run through `ctx.cached`; without either, documentCounts' pass over their hex.
 */
export async function documentCountsById(ctx: CountsContext, shingle: ShingleSpec, kind: FingerprintKind, fps: NumberedFingerprints, ids: readonly number[]): Promise<Uint32Array> {
  const codec = featuresCodec(shingle, kind);
  const source = await countSource(ctx, shingle, kind);
  if (!source) {
    const byKey = await documentCounts(ctx, shingle, kind, ids.map((id) => fps.hexOf(id)));
    return Uint32Array.from(ids, (id) => byKey.get(fps.hexOf(id)) as number);
  }
  const known = ctx.cached ? ctx.cached(`document-counts-by-id:${codec.key}`, () => new CountsById()) : new CountsById();
  const words = fps.numbering.keys();
  const w = fps.numbering.width;
  const width = 'features' in source ? source.features.width : source.runs.width;
  if (w !== width) throw new Error(`feature counts: fingerprints of ${w} words, the run's of ${width}`);
  if ('features' in source) return idCountsFromFeatures(source.features, { known, words, ids });
  const missing = [...new Set(ids.filter((id) => known.get(id) < 0))];
  const asked = new Uint32Array(missing.length * w);
  missing.forEach((id, i) => asked.set(words.subarray(id * w, id * w + w), i * w));
  const counts = await countsFromRuns(source.runs, asked, ctx.signal);
  missing.forEach((id, i) => known.set(id, counts[i] as number));
  return Uint32Array.from(ids, (id) => known.get(id));
}

/**
 * The counts of `ids` (fingerprints `words` holds by id) from the features, those not known yet
 * looked up and kept. A loop alone: V8 compiles it without the async function around it, which
 * the error step runs cold (docs/performance.md).
 */
function idCountsFromFeatures(f: DocumentFeatures, o: { readonly known: CountsById; readonly words: Uint32Array; readonly ids: readonly number[] }): Uint32Array {
  const { known, words, ids } = o;
  const w = f.width;
  const out = new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    let n = known.get(id);
    if (n < 0) known.set(id, (n = postingLength(f, words, id * w)));
    out[i] = n;
  }
  return out;
}

/**
 * The length of the posting list of the fingerprint at `words[at ..]` in `f` (0: no document
 * holds it). The fingerprints are sorted and near uniform (hashes): a few steps of interpolation
 * on their first word narrow the search to a few entries, then a binary search. A binary search
 * alone read about ten cache lines of megabytes of fingerprints for each of the thousands an
 * error sample's SCT evidence counts (docs/performance.md, the error step, a fifteenth time).
 */
function postingLength(f: DocumentFeatures, words: Uint32Array, at: number): number {
  const w = f.width;
  const fw = f.words;
  const key = words[at] as number;
  let lo = 0;
  let hi = f.fingerprints;
  // At most INTERPOLATIONS steps: a skewed set cannot make the search linear.
  for (let step = 0; step < INTERPOLATIONS && hi - lo > 8; step++) {
    const first = fw[lo * w] as number;
    const last = fw[(hi - 1) * w] as number;
    if (key < first || key > last) return 0;
    if (first === last) break;
    const mid = lo + Math.floor(((key - first) / (last - first)) * (hi - 1 - lo));
    const c = compareAt(fw, mid * w, words, at, w);
    if (c === 0) return postingAt(f, mid);
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareAt(fw, mid * w, words, at, w);
    if (c === 0) return postingAt(f, mid);
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

const INTERPOLATIONS = 6;

/** The sign of the `w`-word key at `x[i ..]` against the one at `y[j ..]`. */
function compareAt(x: Uint32Array, i: number, y: Uint32Array, j: number, w: number): number {
  for (let k = 0; k < w; k++) {
    const c = (x[i + k] as number) - (y[j + k] as number);
    if (c !== 0) return c;
  }
  return 0;
}

function postingAt(f: DocumentFeatures, i: number): number {
  return (f.postStart[i + 1] as number) - (f.postStart[i] as number);
}

/** Characters a pass fingerprints between two turns of the event loop (a few milliseconds). */
const PIECE_CHARS = 1 << 20;

/**
 * Document counts by passes over the collection, batched: the keys asked for before the next
 * turn of the event loop are counted in one pass (a run's error sample explains its pairs
 * together: errors.ts), keys counted once are kept. A pass per pair cost the sample of an SCT
 * variant one pass of the whole collection per error, minutes of the main thread at 300,000
 * documents, deaf to Ctrl-C. A pass yields to the event loop every PIECE_CHARS characters and
 * stops there once `signal` is aborted.
 */
export class PassCounts {
  private readonly known = new Map<string, number>();
  /** keys waiting for the next pass, and the pass each key waits for */
  private pending = new Set<string>();
  private readonly passOf = new Map<string, Promise<void>>();
  private next: Promise<void> | undefined;
  /** the last pass started: the next one starts after it, so passes never overlap */
  private last: Promise<void> = Promise.resolve();
  /** passes made, for tests */
  passes = 0;

  constructor(
    private readonly docs: DocumentSet,
    private readonly shingle: ShingleSpec,
    private readonly kind: FingerprintKind,
    private readonly o: { readonly signal?: AbortSignal | undefined; readonly pieceChars?: number } = {},
  ) {}

  async counts(keys: readonly string[]): Promise<Map<string, number>> {
    const waits = new Set<Promise<void>>();
    for (const k of keys) {
      if (this.known.has(k)) continue;
      let pass = this.passOf.get(k);
      if (!pass) {
        pass = this.scheduled();
        this.pending.add(k);
        this.passOf.set(k, pass);
      }
      waits.add(pass);
    }
    await Promise.all(waits);
    return new Map(keys.map((k) => [k, this.known.get(k) as number]));
  }

  private scheduled(): Promise<void> {
    if (this.next) return this.next;
    const pass = this.last
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(async () => {
        const keys = [...this.pending];
        this.pending = new Set();
        this.next = undefined;
        this.passes++;
        const counts = await countsInPieces(this.docs, this.shingle, this.kind, keys, { pieceChars: PIECE_CHARS, ...this.o });
        for (const k of keys) {
          this.known.set(k, counts.get(k) as number);
          this.passOf.delete(k);
        }
      });
    this.next = pass;
    this.last = pass.catch(() => undefined);
    return pass;
  }
}

/** countsByPass over the whole collection in pieces of about `pieceChars` characters, yielding between them. */
async function countsInPieces(
  docs: DocumentSet,
  shingle: ShingleSpec,
  kind: FingerprintKind,
  keys: readonly string[],
  o: { readonly signal?: AbortSignal | undefined; readonly pieceChars: number },
): Promise<Map<string, number>> {
  const { signal } = o;
  const counts = new Map(keys.map((k) => [k, 0]));
  const n = docs.texts.length;
  let from = 0;
  while (from < n) {
    signal?.throwIfAborted();
    let to = from;
    let chars = 0;
    while (to < n && chars < o.pieceChars) chars += lengthOf(docs.texts, to++);
    for (const [k, c] of countsByPass(docs, shingle, kind, keys, { from, to })) counts.set(k, (counts.get(k) as number) + c);
    from = to;
    if (from < n) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  signal?.throwIfAborted();
  return counts;
}

/** The length of each key's posting list, found by binary search over the ids' words (ascending fingerprint order). */
export function countsFromFeatures(f: DocumentFeatures, keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const w = f.width;
  for (const key of keys) {
    const words = Uint32Array.from({ length: w }, (_, k) => parseInt(key.slice(8 * k, 8 * k + 8), 16));
    counts.set(key, postingLength(f, words, 0));
  }
  return counts;
}

/**
 * One pass that fingerprints every document (of `range`, [from, to)), turning into hex only
 * fingerprints whose first word is that of a key.
 */
export function countsByPass(docs: DocumentSet, shingle: ShingleSpec, kind: FingerprintKind, keys: readonly string[], range?: { readonly from: number; readonly to: number }): Map<string, number> {
  const counts = new Map(keys.map((k) => [k, 0]));
  const firstWords = new Set(keys.map((k) => parseInt(k.slice(0, 8), 16)));
  // The top 16 bits of the keys' first words: nearly every fingerprint is turned away by one
  // load from 64 KiB instead of a lookup in the set.
  const tops = new Uint8Array(1 << 16);
  for (const w of firstWords) tops[w >>> 16] = 1;
  const to = range?.to ?? docs.texts.length;
  for (let d = range?.from ?? 0; d < to; d++) {
    const text = docs.texts.at(d) as string;
    const fps = shingleFingerprints(normalize(text), shingle, kind);
    const data = fps.data;
    const width = fps.width;
    let seen: Set<string> | undefined;
    for (let k = 0; k < fps.count; k++) {
      const first = data[k * width] as number;
      if (tops[first >>> 16] === 0 || !firstWords.has(first)) continue;
      const key = fingerprintHex(data, k, width);
      if (counts.has(key)) (seen ??= new Set()).add(key);
    }
    if (seen) for (const key of seen) counts.set(key, (counts.get(key) as number) + 1);
  }
  return counts;
}

