/**
 * The corpus's fingerprint features (`features.ts`) as a kernel computes them: fingerprinted on
 * the worker threads slice by slice, merged on the calling thread, and memoized per shingling and
 * fingerprint kind for the run, so that every detector joining the same sets (Broder's ground
 * truth, its sampling variants, PPJoin at every threshold) fingerprints the corpus once.
 */
import type { KernelContext } from '../../contract/index.ts';
import { balancedRanges } from './chunks.ts';
import { mergeSlices, type DocumentFeatures, type SortedSlice } from './features.ts';
import type { FingerprintKind, ShingleSpec } from './params.ts';

/** The module the worker threads fingerprint with. */
export const FEATURES_MODULE = new URL('./features.ts', import.meta.url).href;

type FeaturesContext = Pick<KernelContext, 'docs' | 'runInWorker' | 'parallelism' | 'progress' | 'cached'>;

/** The features of the run's documents under this shingling, computed once per run. */
export function corpusFeatures(k: FeaturesContext, shingle: ShingleSpec, kind: FingerprintKind): Promise<DocumentFeatures> {
  return k.cached(`text-features:${JSON.stringify(shingle)}:${kind}`, () => computeFeatures(k, shingle, kind));
}

async function computeFeatures(k: FeaturesContext, shingle: ShingleSpec, kind: FingerprintKind): Promise<DocumentFeatures> {
  const texts = k.docs.texts;
  // One slice a thread: the merge costs a comparison per slice per entry.
  const slices = balancedRanges(texts.length, (i) => (texts[i] as string).length, Math.max(1, k.parallelism));
  let done = 0;
  k.progress('fingerprinting', 0, texts.length);
  const results = await Promise.all(
    slices.map(async ([from, to]) => {
      const r = await k.runInWorker<SortedSlice>(FEATURES_MODULE, 'fingerprintSlice', {
        texts: texts.slice(from, to),
        firstDoc: from,
        shingle,
        kind,
      });
      done += to - from;
      k.progress('fingerprinting', done, texts.length);
      return r;
    }),
  );
  k.progress('merging fingerprints');
  return mergeSlices(results);
}
