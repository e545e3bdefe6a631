/**
 * The local backend's form of the plan: the same join as the six text jobs, over typed arrays.
 * Fingerprints come from the run's shared feature cache (the ground truth's, when it uses the same
 * shingling); the token order and the signatures are cached for the run too, so the variants of
 * a filter table pay only for their own index and join.
 */
import { concatPairs, type CorpusShape, type KernelContext, type LocalKernel } from '../../contract/index.ts';
import { balancedRanges } from '../text/chunks.ts';
import { corpusFeatures, FEATURES_MODULE } from '../text/corpus-features.ts';
import type { JoinResult } from './join.ts';
import { buildIndex, processingOrder, rankTokens, signatures, type RankedSets } from './order.ts';
import { C, GROUP, type JoinSettings } from './settings.ts';
import type { TokenSpec } from './jobs.ts';

export const JOIN_MODULE = new URL('./join.ts', import.meta.url).href;

export function ppjoinKernel(spec: TokenSpec, s: JoinSettings): LocalKernel {
  return {
    workerModules: [FEATURES_MODULE, JOIN_MODULE],
    memoryBytes: kernelBytes,
    async run(k: KernelContext) {
      const features = await corpusFeatures(k, spec.shingle, spec.fingerprint);
      const key = `ppjoin:${JSON.stringify(spec.shingle)}:${spec.fingerprint}`;
      k.progress('ordering tokens');
      const sets = await k.cached(`${key}:ranks`, async () => rankTokens(features));
      const order = await k.cached(`${key}:order`, async () => processingOrder(sets));
      const sigs = s.signature
        ? await k.cached(`${key}:signatures:${s.signatureWords}`, async () => signatures(features, s.signatureWords))
        : new Uint32Array(0);
      k.progress('indexing prefixes');
      const { index, prefixTokens, work } = buildIndex(sets, order, sigs, s);
      countCorpus(k, sets);
      k.count(GROUP, C.prefixTokens, prefixTokens);

      const ranges = balancedRanges(sets.docs, (o) => work[o] as number, Math.max(1, k.parallelism * 4));
      let done = 0;
      k.progress('join', 0, ranges.length);
      const parts = await Promise.all(
        ranges.map(async ([from, to]) => {
          const r = await k.runInWorker<JoinResult>(JOIN_MODULE, 'joinRange', { ...index, settings: s, from, to });
          k.progress('join', ++done, ranges.length);
          return r;
        }),
      );
      const sum = (f: (r: JoinResult) => number): number => parts.reduce((t, r) => t + f(r), 0);
      k.count(GROUP, C.prefixMatches, sum((r) => r.counts.prefixMatches));
      k.count(GROUP, C.afterPrefix, sum((r) => r.counts.afterPrefix));
      k.count(GROUP, C.afterPosition, sum((r) => r.counts.afterPosition));
      k.count(GROUP, C.afterSuffix, sum((r) => r.counts.afterSuffix));
      k.count(GROUP, C.afterSignature, sum((r) => r.counts.afterSignature));
      const pairs = concatPairs(parts);
      k.count(GROUP, C.outputPairs, pairs.a.length);
      return { pairs };
    },
  };
}

function countCorpus(k: KernelContext, sets: RankedSets): void {
  let empty = 0;
  for (let d = 0; d < sets.docs; d++) if (sets.docStart[d + 1] === sets.docStart[d]) empty++;
  k.count(GROUP, C.documents, sets.docs);
  k.count(GROUP, C.documentsWithoutTokens, empty);
  k.count(GROUP, C.tokens, sets.ranks.length);
  k.count(GROUP, C.distinctTokens, sets.distinct);
}

/**
 * The kernel's peak: the shared fingerprint features (about 50 bytes per document-token entry
 * while they are built, as Broder's), the ranks and the prefix index (12 bytes per entry at
 * most), and per worker thread seven 4-byte arrays over the documents. A corpus has about one
 * entry per 7 characters (one shingle per word).
 */
function kernelBytes(shape: CorpusShape): number {
  const entries = shape.chars / 7;
  return 62 * entries + 2 * 28 * shape.documents + (1 << 20);
}
