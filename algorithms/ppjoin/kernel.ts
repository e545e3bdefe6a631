/**
 * The local backend's form of the plan: the same join as the six text jobs, over typed arrays.
 * Worker threads fingerprint the corpus, number its tokens (a range of hash partitions each),
 * sort each document's ranks and sign the documents; all of it is cached for the run per
 * shingling, so the variants of a filter table tokenize once. The calling thread builds the
 * variant's prefix index and the worker threads probe it.
 */
import { concatPairs, type CorpusShape, type KernelContext, type LocalKernel } from '../../contract/index.ts';
import { balancedRanges } from '../text/chunks.ts';
import type { JoinResult } from './join.ts';
import { buildIndex, processingOrder } from './order.ts';
import { C, GROUP, type JoinSettings } from './settings.ts';
import type { TokenSpec } from './jobs.ts';
import { numberTokens, rankTokens, signatures, TOKENS_MODULE, type NumberedTokens, type TokenSlice } from './tokens.ts';

export { TOKENS_MODULE };
export const JOIN_MODULE = new URL('./join.ts', import.meta.url).href;

export function ppjoinKernel(spec: TokenSpec, s: JoinSettings): LocalKernel {
  return {
    workerModules: [TOKENS_MODULE, JOIN_MODULE],
    memoryBytes: kernelBytes,
    async run(k: KernelContext) {
      const key = `ppjoin:${JSON.stringify(spec.shingle)}:${spec.fingerprint}`;
      const tokens = await k.cached(`${key}:tokens`, () => tokenize(k, spec));
      const run = <T>(url: string, name: string, payload: unknown): Promise<T> => k.runInWorker<T>(url, name, payload);
      const sets = await k.cached(`${key}:ranks`, async () => {
        k.progress('ordering tokens');
        return rankTokens(tokens, k.parallelism, run);
      });
      const order = await k.cached(`${key}:order`, async () => processingOrder(sets));
      const sigs = s.signature
        ? await k.cached(`${key}:signatures:${s.signatureWords}`, () => signatures(tokens, s.signatureWords, k.parallelism, run))
        : new Uint32Array(0);
      k.progress('indexing prefixes');
      const { index, prefixTokens, work } = buildIndex(sets, order, sigs, s);
      countCorpus(k, tokens);
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

async function tokenize(k: KernelContext, spec: TokenSpec): Promise<NumberedTokens> {
  const texts = k.docs.texts;
  const slices = balancedRanges(texts.length, (i) => (texts[i] as string).length, Math.max(1, k.parallelism));
  let done = 0;
  k.progress('fingerprinting', 0, texts.length);
  const results = await Promise.all(
    slices.map(async ([from, to]) => {
      const r = await k.runInWorker<TokenSlice>(TOKENS_MODULE, 'tokenizeSlice', {
        texts: texts.slice(from, to),
        shingle: spec.shingle,
        kind: spec.fingerprint,
      });
      done += to - from;
      k.progress('fingerprinting', done, texts.length);
      return r;
    }),
  );
  k.progress('numbering tokens');
  return numberTokens(results, k.parallelism, (url, name, payload) => k.runInWorker(url, name, payload));
}

function countCorpus(k: KernelContext, t: NumberedTokens): void {
  let empty = 0;
  for (let d = 0; d < t.docs; d++) if (t.docStart[d + 1] === t.docStart[d]) empty++;
  k.count(GROUP, C.documents, t.docs);
  k.count(GROUP, C.documentsWithoutTokens, empty);
  k.count(GROUP, C.tokens, t.ids.length);
  k.count(GROUP, C.distinctTokens, t.distinct);
}

/**
 * The kernel's peak, from a corpus of about one token per 7 characters (one shingle a word):
 * per entry the slices' fingerprints (8 bytes, 16 for MD5), ids, low words, ranks and the
 * transposition's postings (16 bytes), the hash table and token keys (about 16 bytes), the
 * prefix index (8 bytes at most); per document the CSR offsets, order and signatures; per worker
 * thread eight arrays over the documents.
 */
function kernelBytes(shape: CorpusShape): number {
  const entries = shape.chars / 7;
  return 56 * entries + 64 * shape.documents + 2 * 32 * shape.documents + (1 << 20);
}
