/**
 * The local backend's form of the plan: the same join as the six text jobs, over typed arrays.
 * The corpus's fingerprint features come from the run's cache (`corpus-features.ts`: a run with
 * Broder's ground truth at the same shingling fingerprints the corpus once); the ranks and the
 * signatures are cached for the run too, so the variants of a filter table pay only for their own
 * prefix index (built on the calling thread) and join (on the worker threads).
 */
import { concatPairs, countIfAny, type CorpusShape, type KernelContext, type LocalKernel } from '../../contract/index.ts';
import { balancedRanges } from '../text/chunks.ts';
import { corpusFeatures, featureTasks } from '../text/corpus-features.ts';
import type { DocumentFeatures } from '../text/features.ts';
import type { TokenSpec } from './jobs.ts';
import type { JoinResult } from './join.ts';
import { buildIndex, processingOrder } from './order.ts';
import { C, GROUP, type JoinSettings } from './settings.ts';
import { rankTokens, signatures } from './tokens.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as Join from './join.ts';

const join = workerModule<typeof Join>(new URL('./join.ts', import.meta.url).href);

export function ppjoinKernel(spec: TokenSpec, s: JoinSettings): LocalKernel {
  return {
    workerModules: [featureTasks, join],
    memoryBytes: kernelBytes,
    async run(k: KernelContext) {
      const features = await corpusFeatures(k, spec.shingle, spec.fingerprint);
      const key = `ppjoin:${JSON.stringify(spec.shingle)}:${spec.fingerprint}`;
      const sets = await k.cached(`${key}:ranks`, async () => {
        k.progress('ordering tokens');
        return rankTokens(features);
      });
      const order = await k.cached(`${key}:order`, async () => processingOrder(sets));
      const sigs = s.signature
        ? await k.cached(`${key}:signatures:${s.signatureWords}`, async () => signatures(features, s.signatureWords))
        : new Uint32Array(0);
      k.progress('indexing prefixes');
      const { index, prefixTokens, work } = buildIndex(sets, order, sigs, s);
      countCorpus(k, features);
      countIfAny(k, GROUP, C.prefixTokens, prefixTokens);

      const ranges = balancedRanges(sets.docs, (o) => work[o] as number, Math.max(1, k.parallelism * 4));
      let done = 0;
      k.progress('join', 0, ranges.length);
      const parts = await Promise.all(
        ranges.map(async ([from, to]) => {
          const r = await k.runInWorker(join.task('joinRange'), { ...index, settings: s, from, to });
          k.progress('join', ++done, ranges.length);
          return r;
        }),
      );
      const sum = (f: (r: JoinResult) => number): number => parts.reduce((t, r) => t + f(r), 0);
      countIfAny(k, GROUP, C.prefixMatches, sum((r) => r.counts.prefixMatches));
      countIfAny(k, GROUP, C.afterPrefix, sum((r) => r.counts.afterPrefix));
      countIfAny(k, GROUP, C.afterPosition, sum((r) => r.counts.afterPosition));
      countIfAny(k, GROUP, C.afterSuffix, sum((r) => r.counts.afterSuffix));
      countIfAny(k, GROUP, C.afterSignature, sum((r) => r.counts.afterSignature));
      const pairs = concatPairs(parts);
      countIfAny(k, GROUP, C.outputPairs, pairs.a.length);
      return { pairs };
    },
  };
}

function countCorpus(k: KernelContext, f: DocumentFeatures): void {
  let empty = 0;
  for (let d = 0; d < f.docs; d++) if (f.docStart[d + 1] === f.docStart[d]) empty++;
  countIfAny(k, GROUP, C.documents, f.docs);
  countIfAny(k, GROUP, C.documentsWithoutTokens, empty);
  countIfAny(k, GROUP, C.tokens, f.ids.length);
  countIfAny(k, GROUP, C.distinctTokens, f.fingerprints);
}

/**
 * The kernel's peak, from a corpus of about one token per 7 characters (one shingle a word): the
 * fingerprint features as Broder's kernel holds them (8 bytes a character), the ranks and the
 * prefix index (12 bytes an entry at most, under 2 a character), per document the order and the
 * signatures, per worker thread eight arrays over the documents.
 */
function kernelBytes(shape: CorpusShape): number {
  return 10 * shape.chars + 64 * shape.documents + 2 * 32 * shape.documents + (1 << 20);
}
