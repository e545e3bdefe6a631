/**
 * The local kernel: the three jobs of `jobs.ts` over typed arrays on worker threads, with the
 * same pairs, scores, signatures and counters.
 *
 *   1. document frequencies: each worker counts a slice's distinct feature hashes; the main
 *      thread adds the slices up into one table on SharedArrayBuffers (or reads the df file);
 *   2. fingerprints: each worker weighs and sums a slice's documents against that table;
 *   3. Hamming search: documents grouped by fingerprint, then one task per Manku table;
 *   4. cluster sizes from the pairs.
 *
 * Steps 1 and 2 are cached per run (`ctx.cached`), so a sweep over k fingerprints once.
 *
 * The kernel keeps document frequencies by 64-bit feature hash where the job keeps them by
 * feature text: the two differ only if two distinct features of the corpus collide in 64 bits.
 */
import type { KernelContext, KernelResult, LocalKernel } from '../../contract/plan.ts';
import { lengthOf } from '../../contract/documents.ts';
import type { SideRecord } from '../../contract/jobs.ts';
import { concatPairs } from '../../contract/pairs.ts';
import { balancedRanges, sharedU32 } from '../text/chunks.ts';
import { fingerprintToHex } from './fingerprint.ts';
import { HashCounts, type HashCountArrays } from './hash-counts.ts';
import { clusterSizes } from './clusters.ts';
import { CLUSTERS, CLUSTERS_JOB, DF_JOB, dfFromRecords, dfKey, FINGERPRINT_JOB, HAMMING_JOB, SIGNATURES } from './jobs.ts';
import { readDfFile } from './df-file.ts';
import { groupFingerprints, identicalPairs, type SearchResult } from './search.ts';
import { MAX_DIGIT_BITS } from '../../kernels/sort/digit-plan.ts';
import { stableOrder } from '../../kernels/sort/stable-order.ts';
import type { TableLayout } from './tables.ts';
import { metaFieldsUsed, type WeightingOptions } from './weights.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as Tasks from './kernel-tasks.ts';
import type * as Search from './search.ts';

const tasks = workerModule<typeof Tasks>(new URL('./kernel-tasks.ts', import.meta.url).href);
const searchTasks = workerModule<typeof Search>(new URL('./search.ts', import.meta.url).href);

interface FrozenDf {
  readonly arrays: HashCountArrays;
  readonly documents: number;
  /** distinct features counted (the df job's `terms` counter); null when read from a file */
  readonly terms: number | null;
}

interface Fingerprints {
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  /** documents with a fingerprint, ascending */
  readonly docs: Uint32Array;
}

export function simhashKernel(o: WeightingOptions, dfFile: string | null, k: number, layout: TableLayout): LocalKernel {
  return {
    workerModules: [tasks, searchTasks],
    memoryBytes: (shape) => memoryEstimate(o, shape.documents, shape.chars),
    async run(ctx) {
      const dfCacheKey = `simhash-df:${dfFile ?? dfKey(o)}:${o.seeds.pc}:${o.seeds.pb}`;
      const df = await ctx.cached(dfCacheKey, () => frozenDf(ctx, o, dfFile));
      if (df.terms !== null && df.terms > 0) ctx.count(DF_JOB, 'terms', df.terms);
      const fps = await ctx.cached(`simhash-fingerprints:${JSON.stringify(o)}:${dfFile ?? ''}`, () => fingerprints(ctx, o, df));
      const n = ctx.docs.texts.length;
      const without = n - fps.docs.length;
      if (n > 0) ctx.count(FINGERPRINT_JOB, 'documents', n);
      if (without > 0) ctx.count(FINGERPRINT_JOB, 'documents_without_features', without);
      if (fps.docs.length > 0) ctx.count(FINGERPRINT_JOB, 'fingerprints', fps.docs.length);
      const signatures: SideRecord[] = [];
      for (let i = 0; i < fps.docs.length; i++) signatures.push([String(fps.docs[i]), fingerprintToHex(fps.hi[i] as number, fps.lo[i] as number)]);
      const pairs = await search(ctx, fps, k, layout);
      const sizes = clusterSizes(ctx.docs.texts.length, pairs);
      const clusters: SideRecord[] = [];
      for (let d = 0; d < sizes.length; d++) if ((sizes[d] as number) > 1) clusters.push([String(d), String(sizes[d])]);
      if (clusters.length > 0) ctx.count(CLUSTERS_JOB, 'documents_with_duplicates', clusters.length);
      return { pairs, tables: { [SIGNATURES]: signatures, [CLUSTERS]: clusters } };
    },
  };
}

async function frozenDf(ctx: KernelContext, o: WeightingOptions, dfFile: string | null): Promise<FrozenDf> {
  if (dfFile !== null) {
    const df = dfFromRecords(readDfFile(dfFile), o.seeds);
    return { arrays: df.table.shared(), documents: df.documents, terms: null };
  }
  const texts = ctx.docs.texts;
  const ranges = balancedRanges(texts.length, (i) => lengthOf(texts, i), Math.max(1, ctx.parallelism));
  ctx.progress('document frequencies', 0, texts.length);
  let done = 0;
  const parts = await Promise.all(
    ranges.map(async ([from, to]) => {
      const r = await ctx.runInWorker(tasks.task('sliceDocumentFrequencies'), { texts: texts.slice(from, to), options: o });
      done += to - from;
      ctx.progress('document frequencies', done, texts.length);
      return r;
    }),
  );
  const table = new HashCounts(parts.reduce((s, p) => Math.max(s, p.length / 3), 0));
  for (const p of parts) for (let i = 0; i < p.length; i += 3) table.add(p[i] as number, p[i + 1] as number, p[i + 2] as number);
  return { arrays: table.shared(), documents: texts.length, terms: table.size };
}

async function fingerprints(ctx: KernelContext, o: WeightingOptions, df: FrozenDf): Promise<Fingerprints> {
  const texts = ctx.docs.texts;
  const metas = metaFieldsUsed(o).length > 0 ? (ctx.docs.meta ?? null) : null;
  const ranges = balancedRanges(texts.length, (i) => lengthOf(texts, i), Math.max(1, ctx.parallelism * 2));
  ctx.progress('fingerprints', 0, texts.length);
  let done = 0;
  const parts = await Promise.all(
    ranges.map(async ([from, to]) => {
      const r = await ctx.runInWorker(tasks.task('sliceFingerprints'), {
        texts: texts.slice(from, to),
        metas: metas ? metas.slice(from, to) : null,
        options: o,
        df: df.arrays,
        documents: df.documents,
      });
      done += to - from;
      ctx.progress('fingerprints', done, texts.length);
      return { from, r };
    }),
  );
  let count = 0;
  for (const { r } of parts) for (const x of r.has) count += x;
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  const docs = new Uint32Array(count);
  let at = 0;
  for (const { from, r } of parts) {
    for (let i = 0; i < r.has.length; i++) {
      if (r.has[i] === 0) continue;
      hi[at] = r.words[2 * i] as number;
      lo[at] = r.words[2 * i + 1] as number;
      docs[at++] = from + i;
    }
  }
  return { hi, lo, docs };
}

async function search(ctx: KernelContext, fps: Fingerprints, k: number, layout: TableLayout): Promise<KernelResult['pairs']> {
  if (fps.docs.length === 0) return { a: new Uint32Array(0), b: new Uint32Array(0), score: new Float64Array(0) };
  ctx.progress('grouping fingerprints');
  const groups = groupFingerprints(fps.hi, fps.lo, fps.docs);
  const parts: SearchResult[] = [identicalPairs(groups)];
  const tables = layout.tables.length;
  // On shared memory: the pool transfers (detaches) plain typed arrays of a payload, and every
  // task gets the same masks.
  const maskHi = sharedU32(tables);
  const maskLo = sharedU32(tables);
  maskHi.set(layout.maskHi);
  maskLo.set(layout.maskLo);
  let done = 0;
  ctx.progress('hamming search', 0, tables);
  parts.push(
    ...(await Promise.all(
      Array.from({ length: tables }, async (_, t) => {
        const r = await ctx.runInWorker(searchTasks.task('searchTables'), {
          groups,
          maskHi,
          maskLo,
          k,
          tables: [t],
        });
        ctx.progress('hamming search', ++done, tables);
        return r;
      }),
    )),
  );
  let comparisons = 0;
  let candidates = 0;
  for (const p of parts) {
    comparisons += p.fingerprintComparisons;
    candidates += p.candidatePairs;
  }
  const pairs = sortedPairs(parts);
  ctx.count(HAMMING_JOB, 'fingerprint_comparisons', comparisons);
  ctx.count(HAMMING_JOB, 'candidate_pairs', candidates);
  ctx.count(HAMMING_JOB, 'output_pairs', pairs.a.length);
  return pairs;
}

/** The parts' pairs in one list ordered by (a, b). */
function sortedPairs(parts: readonly SearchResult[]): KernelResult['pairs'] {
  const { a, b, score } = concatPairs(parts);
  const order = stableOrder([a, b], { digitBits: MAX_DIGIT_BITS });
  return {
    a: Uint32Array.from(order, (i) => a[i] as number),
    b: Uint32Array.from(order, (i) => b[i] as number),
    score: Float64Array.from(order, (i) => score[i] as number),
  };
}

/**
 * Bytes at the peak, roughly: the texts copied to the workers (2 bytes a char), the df table
 * (12 bytes a slot, half full, twice: built and shared; features estimated by Heaps' law for
 * words, one per word start for shingles) and about 96 bytes a document for fingerprints,
 * groups, sort orders and pairs.
 */
function memoryEstimate(o: WeightingOptions, documents: number, chars: number): number {
  const words = chars / 6;
  const features = o.features.unit === 'word' && o.features.size === 1 ? Math.min(words, 40 * words ** 0.6) : words;
  return 2 * chars + 48 * features + 96 * documents;
}
