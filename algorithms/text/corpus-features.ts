/**
 * The corpus as sets of fingerprint ids (`features.ts`), computed on the kernel's worker threads
 * and kept for the run and across runs (`KernelContext.stored`): every detector that starts from
 * the same shingling and fingerprint (Broder's ground truth and samplings, MinHash, PPJoin)
 * shares one computation in a run, and a later run over the same documents replays it.
 */
import { lengthOf, type KernelContext, type StoreCodec } from '../../contract/index.ts';
import { balancedRanges } from './chunks.ts';
import { codeDigest } from './code-digest.ts';
import { mergeOnThreads, mergeSlices, type DocumentFeatures } from './features.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as Features from './features.ts';

/** This folder, whose code the stored values' keys digest (made once: a key is asked for each explanation too). */
const THIS_FOLDER = new URL('./', import.meta.url);

export const featureTasks = workerModule<typeof Features>(new URL('./features.ts', import.meta.url).href);

/** The cache key of the features of one shingling and fingerprint. */
export function featuresKey(shingle: ShingleSpec, kind: FingerprintKind): string {
  return `fingerprint-features:${JSON.stringify(shingle)}:${kind}`;
}

export function corpusFeatures(k: KernelContext, shingle: ShingleSpec, kind: FingerprintKind): Promise<DocumentFeatures> {
  return k.stored(featuresCodec(shingle, kind), () => computeFeatures(k, shingle, kind));
}

const ARRAYS = ['words', 'postStart', 'postDocs', 'docStart', 'ids', 'entryPos'] as const;

/** Features as the store keeps them: their six arrays, and the three counts. */
export function featuresCodec(shingle: ShingleSpec, kind: FingerprintKind): StoreCodec<DocumentFeatures> {
  return {
    // This folder's code computes them (shingles, normalization, fingerprints, the merge).
    key: `${featuresKey(shingle, kind)}:${codeDigest(THIS_FOLDER)}`,
    describe: `fingerprint features (${shingle.unit}-${shingle.size} shingles, ${kind})`,
    encode: (f) => ({ meta: { width: f.width, docs: f.docs, fingerprints: f.fingerprints }, arrays: ARRAYS.map((name) => f[name]) }),
    decode: ({ meta, arrays }) => {
      const [words, postStart, postDocs, docStart, ids, entryPos] = arrays as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];
      return { width: meta['width'] as 2 | 4, docs: meta['docs'] as number, fingerprints: meta['fingerprints'] as number, words, postStart, postDocs, docStart, ids, entryPos };
    },
  };
}

async function computeFeatures(k: KernelContext, shingle: ShingleSpec, kind: FingerprintKind): Promise<DocumentFeatures> {
  const texts = k.docs.texts;
  // One slice a thread: the merge costs a comparison per slice per entry.
  const slices = balancedRanges(texts.length, (i) => lengthOf(texts, i), Math.max(1, k.parallelism));
  // Sliced for several threads, the slices are shared: the threads merge them too.
  const shared = slices.length > 1;
  let done = 0;
  k.progress('fingerprinting', 0, texts.length);
  const results = await Promise.all(
    slices.map(async ([from, to]) => {
      const r = await k.runInWorker(featureTasks.task('fingerprintSlice'), {
        texts: texts.slice(from, to),
        firstDoc: from,
        shingle,
        kind,
        shared,
      });
      done += to - from;
      k.progress('fingerprinting', done, texts.length);
      return r;
    }),
  );
  k.progress('merging fingerprints');
  const entries = results.reduce((n, r) => n + r.owners.length, 0);
  if (!shared || entries < THREADED_MERGE_ENTRIES) return mergeSlices(results);
  return mergeOnThreads(results, k.parallelism, (name, payload) => k.runInWorker(featureTasks.task(name), payload as never) as Promise<never>);
}

/**
 * Fewer entries than this merge on the calling thread, where they take under about 45 ms on this
 * project's 2-core machine (the bundled corpus's 1.3 M: 165 to 230 ms): not worth two rounds of
 * tasks to the threads. The bundled corpus's ground truth with its fingerprints computed went
 * from 1.78 to 1.68 s (medians of 8); 100,000 synthetic documents from 19.5 to 17.1 s.
 */
export const THREADED_MERGE_ENTRIES = 1 << 18;
