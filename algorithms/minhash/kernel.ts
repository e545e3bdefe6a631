/**
 * The local backend's fast path for the MinHash plan: the jobs of `jobs.ts` over typed arrays.
 * Worker threads compute the signatures of slices of the corpus straight from the texts (one
 * pass: normalize, fingerprint, distinct, hash; no corpus-wide fingerprint table is needed) and
 * the LSH buckets of ranges of bands. Signatures are kept for the run (`ctx.cached`), so the
 * variants of one sketch (a sweep of thresholds, bands or verification) hash once.
 *
 * It reports exactly the jobs' pairs, scores, counters and clusters table: the slots are the
 * same (`sketch.ts` over each document's fingerprints either way), a bucket is a run of equal
 * slots here where it is a key there, and the scores come from the same functions over the
 * same integers.
 */
import { lengthOf, type CorpusShape, type KernelContext, type KernelResult, type LocalKernel, type PairList } from '../../contract/index.ts';
import { listOffsets } from '../../kernels/list-offsets.ts';
import { balancedRanges, settleLimited, sharedU32 } from '../text/chunks.ts';
import { intersectionSize } from '../text/distinct.ts';
import { fingerprintWidth } from '../text/fingerprint.ts';
import { estimateResemblance, matchingSlots } from './estimate.ts';
import { BANDS_JOB, CANDIDATES_JOB, CLUSTERS, CLUSTERS_JOB, SIGNATURES_JOB, VERIFY_JOB } from './jobs.ts';
import type { BandSlice } from './kernel-worker.ts';
import { signatureKey, type MinhashSettings } from './settings.ts';
import { clustersOf } from './union-find.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as Worker from './kernel-worker.ts';

const worker = workerModule<typeof Worker>(new URL('./kernel-worker.ts', import.meta.url).href);

/**
 * Characters of text the worker threads hash at once, in all: the signatures are computed in
 * slices of about this divided by the threads, so what a slice holds while it is hashed (its
 * texts, fingerprints, residues and the hash kernel's memory) is bounded whatever the corpus'
 * size. A slice for each thread's share of the whole corpus made the kernel's peak grow with
 * the corpus, so that at a million documents its cost model sent the plan to its text jobs,
 * several times slower.
 */
export const IN_FLIGHT_CHARS = 2 ** 27;

/**
 * Bytes a character of a slice in flight holds, generously: the texts copied to the thread
 * (two bytes a character at most) and their normalized form, and the slice's distinct
 * fingerprints (about one per 6 characters, 8 bytes each: 1.4 bytes a character) three times
 * over, as sets, as residues and in the hash kernel's memory.
 */
const SLICE_BYTES_PER_CHAR = 10;

/**
 * The kernel's cost model: the signatures (8 bytes a slot, once: each slice's are copied in as
 * it arrives), as much again for the LSH buckets' pairs and the candidates, 16 bytes a
 * document for the sizes and the buckets' order, the slices in flight, and for exact
 * verification every document's distinct fingerprints (8 bytes each, under 2 bytes a character).
 */
export function minhashKernelBytes(shape: CorpusShape, k: number, o: { readonly exact: boolean; readonly inFlightChars?: number }): number {
  const inFlight = Math.min(shape.chars, o.inFlightChars ?? IN_FLIGHT_CHARS);
  return 16 * k * shape.documents + 16 * shape.documents + SLICE_BYTES_PER_CHAR * inFlight + (o.exact ? 2 * shape.chars : 0);
}

/**
 * The slices of the signatures: at most `inFlightChars / threads` characters each (a longer
 * document alone), and at least two a thread so that the last ones even out.
 */
export function signatureRanges(lengths: (d: number) => number, n: number, o: { readonly threads: number; readonly inFlightChars: number }): [number, number][] {
  const threads = Math.max(1, o.threads);
  const sliceChars = Math.max(1, Math.floor(o.inFlightChars / threads));
  const ranges: [number, number][] = [];
  let chars = 0;
  for (let d = 0; d < n; d++) chars += lengths(d);
  const slices = Math.max(threads * 2, Math.ceil(chars / sliceChars));
  // Work per document grows with its length: balanced by it, then split where a slice is still too long.
  for (const [from, to] of balancedRanges(n, lengths, slices)) {
    let start = from;
    let acc = 0;
    for (let d = from; d < to; d++) {
      const len = lengths(d);
      if (d > start && acc + len > sliceChars) {
        ranges.push([start, d]);
        start = d;
        acc = 0;
      }
      acc += len;
    }
    ranges.push([start, to]);
  }
  return ranges;
}

export interface MinhashKernelOptions {
  /** IN_FLIGHT_CHARS, smaller in tests */
  readonly inFlightChars?: number;
}

export function minhashKernel(s: MinhashSettings, o: MinhashKernelOptions = {}): LocalKernel {
  const inFlightChars = o.inFlightChars ?? IN_FLIGHT_CHARS;
  return {
    run: (k) => runKernel(k, s, inFlightChars),
    memoryBytes: (shape) => minhashKernelBytes(shape, s.sketch.k, { exact: s.verify === 'exact', inFlightChars }),
    workerModules: [worker],
  };
}

interface KernelSignatures {
  /** 2 words a slot, k slots a document */
  readonly values: Uint32Array;
  /** distinct fingerprints per document */
  readonly sizes: Uint32Array;
  /** the documents with a signature, ascending */
  readonly signed: Uint32Array;
  readonly densified: number;
  /** for exact verification: each document's distinct fingerprints, from setStart[d] (in fingerprints) */
  readonly sets?: { readonly words: Uint32Array; readonly setStart: Float64Array; readonly width: 2 | 4 };
}

async function runKernel(k: KernelContext, s: MinhashSettings, inFlightChars: number): Promise<KernelResult> {
  // The jobs count only amounts above zero (jobs.ts `add`, and counts that cannot be zero): so here.
  const count = (group: string, name: string, amount: number): void => {
    if (amount !== 0) k.count(group, name, amount);
  };
  const exact = s.verify === 'exact';
  const sig = await k.cached(`minhash-signatures:${signatureKey(s)}${exact ? ':sets' : ''}`, () => computeSignatures(k, s, { keepSets: exact, inFlightChars }));
  const docs = k.docs.texts.length;
  count(SIGNATURES_JOB, 'documents', docs);
  count(SIGNATURES_JOB, 'fingerprints', sig.sizes.reduce((t, x) => t + x, 0));
  count(SIGNATURES_JOB, 'documents_without_fingerprints', docs - sig.signed.length);
  count(SIGNATURES_JOB, 'densified_bins', sig.densified);

  const { bands, rows } = s.lsh();
  const parts = await bucketPairs(k, sig, s.sketch.k, bands, rows);
  let bucketCount = 0;
  let collisions = 0;
  for (const p of parts) {
    bucketCount += p.buckets;
    collisions += p.a.length;
  }
  count(BANDS_JOB, 'buckets', bucketCount);
  count(BANDS_JOB, 'bucket_pairs', collisions);

  k.progress('verifying candidates');
  const candidates = distinctPairs(parts, docs);
  count(CANDIDATES_JOB, 'candidate_pairs', candidates.a.length);
  const pairs = decide(s, candidates, sig, bands);
  if (s.verify === 'none') count(CANDIDATES_JOB, 'output_pairs', pairs.a.length);
  else {
    count(VERIFY_JOB, 'verified_pairs', candidates.a.length);
    count(VERIFY_JOB, 'output_pairs', pairs.a.length);
  }

  const c = clustersOf(docs, pairs.a, pairs.b);
  const records: [string, string][] = [];
  let clusters = 0;
  let clustered = 0;
  for (let d = 0; d < docs; d++) {
    const size = c.size[d] as number;
    if (size > 1) {
      clustered++;
      if (c.cluster[d] === d) clusters++;
    }
    records.push([String(d), `${c.cluster[d]} ${size}`]);
  }
  count(CLUSTERS_JOB, 'clusters', clusters);
  count(CLUSTERS_JOB, 'clustered_documents', clustered);
  return { pairs, tables: { [CLUSTERS]: records } };
}

async function computeSignatures(k: KernelContext, s: MinhashSettings, o: { readonly keepSets: boolean; readonly inFlightChars: number }): Promise<KernelSignatures> {
  const kk = s.sketch.k;
  const texts = k.docs.texts;
  const n = texts.length;
  const ranges = signatureRanges((d) => lengthOf(texts, d), n, { threads: k.parallelism, inFlightChars: o.inFlightChars });
  const values = sharedU32(2 * kk * n);
  const sizes = new Uint32Array(n);
  let densified = 0;
  // Only exact verification keeps the slices' sets until all sizes are known.
  const setWords: Uint32Array[] = [];
  let done = 0;
  k.progress('signatures', 0, n);
  // Slices are read back (texts a file holds) only as threads take them: two a thread in flight.
  await settleLimited(ranges, 2 * Math.max(1, k.parallelism), async ([from, to], i) => {
    const p = await k.runInWorker(worker.task('signatureSlice'), {
      texts: texts.slice(from, to),
      shingle: s.shingle,
      fingerprint: s.fingerprint,
      sketch: s.sketch,
      keepSets: o.keepSets,
    });
    // copied in as each slice arrives, so that no more than the slices in flight are held twice
    values.set(p.values, 2 * kk * from);
    sizes.set(p.sizes, from);
    densified += p.densified;
    if (p.setWords) setWords[i] = p.setWords;
    done += to - from;
    k.progress('signatures', done, n);
  });
  const signed: number[] = [];
  for (let d = 0; d < n; d++) if (sizes[d] !== 0) signed.push(d);
  const signedArr = sharedU32(signed.length);
  signedArr.set(signed);
  const result = { values, sizes, signed: signedArr.subarray(0, signed.length), densified };
  if (!o.keepSets) return result;
  const width = fingerprintWidth(s.fingerprint);
  // Float64: the offsets times the width index words, past 2^32 in a large corpus.
  const setStart = listOffsets(sizes, { into: new Float64Array(n + 1) });
  const words = new Uint32Array((setStart[n] as number) * width);
  ranges.forEach(([from], i) => words.set(setWords[i] as Uint32Array, (setStart[from] as number) * width));
  return { ...result, sets: { words, setStart, width } };
}

async function bucketPairs(k: KernelContext, sig: KernelSignatures, kk: number, bands: number, rows: number): Promise<BandSlice[]> {
  const chunks = Math.min(bands, Math.max(1, k.parallelism * 2));
  const ranges = balancedRanges(bands, () => 0, chunks);
  let done = 0;
  k.progress('LSH buckets', 0, ranges.length);
  return Promise.all(
    ranges.map(async ([fromBand, toBand]) => {
      const r = await k.runInWorker(worker.task('bandSlice'), {
        values: sig.values,
        signed: sig.signed,
        k: kk,
        rows,
        fromBand,
        toBand,
      });
      k.progress('LSH buckets', ++done, ranges.length);
      return r;
    }),
  );
}

interface CountedPairs {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  /** bands the pair collided in */
  readonly count: Uint32Array;
}

/** The distinct pairs of the buckets, ascending, with the number of bands each collided in. */
function distinctPairs(parts: readonly BandSlice[], docs: number): CountedPairs {
  const total = parts.reduce((t, p) => t + p.a.length, 0);
  // a·docs + b is below 2^53 for any corpus under 94 million documents.
  const keys = new Float64Array(total);
  let at = 0;
  for (const p of parts) for (let i = 0; i < p.a.length; i++) keys[at++] = (p.a[i] as number) * docs + (p.b[i] as number);
  keys.sort();
  let n = 0;
  for (let i = 0; i < total; i++) if (i === 0 || keys[i] !== keys[i - 1]) n++;
  const a = new Uint32Array(n);
  const b = new Uint32Array(n);
  const count = new Uint32Array(n);
  let j = -1;
  for (let i = 0; i < total; i++) {
    const key = keys[i] as number;
    if (i === 0 || key !== keys[i - 1]) {
      j++;
      a[j] = Math.floor(key / docs);
      b[j] = key - (a[j] as number) * docs;
    }
    count[j] = (count[j] as number) + 1;
  }
  return { a, b, count };
}

/** The pairs the detector reports: candidates verified at the floor, or every candidate. */
function decide(s: MinhashSettings, c: CountedPairs, sig: KernelSignatures, bands: number): PairList {
  const kk = s.sketch.k;
  const outA: number[] = [];
  const outB: number[] = [];
  const outS: number[] = [];
  for (let i = 0; i < c.a.length; i++) {
    const a = c.a[i] as number;
    const b = c.b[i] as number;
    let score: number;
    if (s.verify === 'none') score = (c.count[i] as number) / bands;
    else if (sig.sets) score = exactJaccardOfSets(sig.sets, a, b);
    else score = estimateResemblance(matchingSlots(sig.values, a * kk, sig.values, b * kk, kk), kk, s.sketch.bits, sig.sizes[a] as number, sig.sizes[b] as number);
    if (s.verify !== 'none' && score < s.floor) continue;
    outA.push(a);
    outB.push(b);
    outS.push(score);
  }
  return { a: Uint32Array.from(outA), b: Uint32Array.from(outB), score: Float64Array.from(outS) };
}

/** |A ∩ B| / |A ∪ B| of two documents' fingerprint sets. */
function exactJaccardOfSets(sets: NonNullable<KernelSignatures['sets']>, a: number, b: number): number {
  const { words, setStart, width } = sets;
  const from = (d: number): number => (setStart[d] as number) * width;
  const sizeA = (setStart[a + 1] as number) - (setStart[a] as number);
  const sizeB = (setStart[b + 1] as number) - (setStart[b] as number);
  const common = intersectionSize(words.subarray(from(a), from(a + 1)), sizeA, words.subarray(from(b), from(b + 1)), sizeB, width);
  return common / (sizeA + sizeB - common);
}
