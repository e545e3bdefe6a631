/** Document-level SpotSigs over typed arrays: PDC-MR's unit index and join with documents as units. */
import { lengthOf, countIfAny, type KernelContext, type LocalKernel, type PairList } from '../../contract/index.ts';
import { balancedRanges } from '../text/chunks.ts';
import { buildIndex, corpusDocumentFrequencies, joinUnits, sentenceTasks } from '../text/sentence-index.ts';
import { corpusTables } from '../text/sentence-signatures.ts';
import { jaccard } from '../text/set-similarity.ts';
import { DF, MR1, MR2, signatureSpec } from './jobs.ts';
import type { SpotSigsParams } from './params.ts';

export function spotSigsKernel(params: SpotSigsParams, minScore: number): LocalKernel {
  return {
    run: (k) => run(k, params, minScore),
    memoryBytes: (shape) => 24 * shape.chars + 128 * shape.documents + (1 << 20),
    workerModules: [sentenceTasks],
  };
}

async function run(k: KernelContext, params: SpotSigsParams, minScore: number): Promise<{ pairs: PairList }> {
  const texts = k.docs.texts;
  const docs = texts.length;
  const slices = balancedRanges(docs, (i) => lengthOf(texts, i), Math.max(1, k.parallelism * 2));
  const df = await k.cached('document-terms:document-frequencies', () => corpusDocumentFrequencies(k, slices));
  countIfAny(k, DF, 'terms', df.df.size);
  const spec = signatureSpec(params);
  const tables = corpusTables(spec, df);
  k.progress('signing documents');
  const signed = await Promise.all(
    slices.map(([from, to]) => k.runInWorker(sentenceTasks.task('signDocumentsSlice'), { texts: texts.slice(from, to), signature: spec, tables })),
  );
  const index = buildIndex(slices, signed, docs);
  countIfAny(k, MR1, 'documents', docs);
  countIfAny(k, MR1, 'documents_without_signatures', index.unitsWithoutSignatures);
  countIfAny(k, MR1, 'signatures', index.sigStart[index.units] as number);
  countIfAny(k, MR1, 'index_terms', index.terms);
  countIfAny(k, MR1, 'shared_index_terms', index.sharedTerms);
  const parts = await joinUnits(k, index, params.tau);
  const a: number[] = [];
  const b: number[] = [];
  const score: number[] = [];
  for (const p of parts) {
    countIfAny(k, MR2, 'candidate_pairs', p.candidates);
    countIfAny(k, MR2, 'distinct_pairs', p.distinct);
    for (let i = 0; i < p.x.length; i++) {
      const x = p.x[i] as number;
      const y = p.y[i] as number;
      const j = jaccard(p.common[i] as number, index.size[x] as number, index.size[y] as number);
      if (j < minScore) continue;
      a.push(index.unitDoc[x] as number);
      b.push(index.unitDoc[y] as number);
      score.push(j);
    }
  }
  countIfAny(k, MR2, 'pairs', a.length);
  return { pairs: { a: Uint32Array.from(a), b: Uint32Array.from(b), score: Float64Array.from(score) } };
}
