/**
 * The local backend's fast path for the Broder plan: the same computation as the two text jobs
 * in `jobs.ts`, over typed arrays, on all worker threads. Fingerprinting is shared by every
 * variant of a run that uses the same shingling (`ctx.cached`), which is what makes a sweep of
 * twenty samplings cost little more than one.
 */
import { concatPairs, type CorpusShape, type KernelContext, type KernelResult, type LocalKernel } from '../../contract/index.ts';
import { balancedRanges } from '../text/chunks.ts';
import { corpusFeatures, FEATURES_MODULE } from '../text/corpus-features.ts';
import { sampleFeatures, type ScanResult } from './join.ts';
import { MR1, MR2 } from './jobs.ts';
import type { BroderParams } from './params.ts';
import { usesWords } from './sampling.ts';
import { documentWords } from '../text/word-count.ts';

export const JOIN_MODULE = new URL('./join.ts', import.meta.url).href;

/**
 * The kernel's cost model: it keeps about 50 bytes per (fingerprint, document) entry, and a
 * corpus has about one entry per 7 characters (one shingle per word); 8 bytes a character
 * leaves room for its pairs.
 */
export function broderKernelBytes(shape: CorpusShape): number {
  return 8 * shape.chars;
}

export function broderKernel(params: BroderParams, floor: number): LocalKernel {
  return { run: (k) => runKernel(k, params, floor), memoryBytes: broderKernelBytes, workerModules: [FEATURES_MODULE, JOIN_MODULE] };
}

async function runKernel(k: KernelContext, params: BroderParams, floor: number): Promise<KernelResult> {
  const features = await corpusFeatures(k, params.shingle, params.fingerprint);
  const words = usesWords(params.sampling) ? await k.cached('document-words', async () => Uint32Array.from(k.docs.texts, documentWords)) : undefined;
  k.progress('sampling');
  const sampled = sampleFeatures(features, params.sampling, words);
  for (const [name, value] of Object.entries(sampled.counters)) k.count(MR1, name, value);

  const ranges = balancedRanges(sampled.docs, (d) => sampled.work[d] as number, Math.max(1, k.parallelism * 4));
  let done = 0;
  k.progress('join', 0, ranges.length);
  const parts = await Promise.all(
    ranges.map(async ([from, to]) => {
      const r = await k.runInWorker<ScanResult>(JOIN_MODULE, 'scanCount', {
        docStart: sampled.docStart,
        ids: sampled.ids,
        entryPos: sampled.entryPos,
        postStart: sampled.postStart,
        postDocs: sampled.postDocs,
        sizes: sampled.sizes,
        levels: sampled.levels,
        docLevel: sampled.docLevel,
        docs: sampled.docs,
        from,
        to,
        floor,
      });
      k.progress('join', ++done, ranges.length);
      return r;
    }),
  );
  const pairs = concatPairs(parts);
  k.count(MR2, 'distinct_pairs', parts.reduce((s, p) => s + p.distinct, 0));
  k.count(MR2, 'output_pairs', pairs.a.length);
  return { pairs };
}

