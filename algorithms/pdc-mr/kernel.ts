/**
 * The local backend's fast path for PDC-MR: the jobs of `jobs.ts` over typed arrays. Documents
 * are split and signed on worker threads, the index is a CSR of sentences by signature, the
 * sentence join is ScanCount on worker threads (`text/sentence-tasks.ts`), and sequence matching runs the
 * same `diagonalRunsOf` and `coverageScore` as MR#3's reducer. Counters are the jobs' counters.
 */
import { lengthOf, countIfAny, type KernelContext, type LocalKernel, type PairList, type Span } from '../../contract/index.ts';
import { balancedRanges } from '../text/chunks.ts';
import type { DocumentFrequencies } from '../text/document-frequencies.ts';
import { MAX_DIGIT_BITS } from '../../kernels/sort/digit-plan.ts';
import { stableOrder } from '../../kernels/sort/stable-order.ts';
import { corpusDocumentFrequencies, buildIndex, joinUnits, sentenceTasks } from '../text/sentence-index.ts';
import { corpusTables, needsDocumentFrequencies } from '../text/sentence-signatures.ts';
import { coverageScore, diagonalRunsOf } from './matching.ts';
import { DF, MR1, MR2, MR3 } from './jobs.ts';
import type { PdcMrParams } from './params.ts';


export function pdcMrKernel(params: PdcMrParams, minScore: number): LocalKernel {
  return {
    run: (k) => runKernel(k, params, minScore),
    // Per character of text about one signature entry every 6 characters (a word) with its
    // string key, postings and per-sentence arrays: ~24 bytes a character, plus the documents.
    memoryBytes: (shape) => 24 * shape.chars + 256 * shape.documents + (1 << 20),
    workerModules: [sentenceTasks],
  };
}

async function runKernel(k: KernelContext, params: PdcMrParams, minScore: number): Promise<{ pairs: PairList; spans: Span[] }> {
  const texts = k.docs.texts;
  const docs = texts.length;
  const slices = balancedRanges(docs, (i) => lengthOf(texts, i), Math.max(1, k.parallelism * 2));

  let df: DocumentFrequencies | null = null;
  if (needsDocumentFrequencies(params.signature)) {
    df = await k.cached('document-terms:document-frequencies', () => corpusDocumentFrequencies(k, slices));
    countIfAny(k, DF, 'terms', df.df.size);
  }
  const tables = corpusTables(params.signature, df);

  k.progress('signing sentences', 0, docs);
  let signedDocs = 0;
  const signed = await k.cached(`pdc-mr:signed:${JSON.stringify(params.signature)}`, () =>
    Promise.all(
      slices.map(async ([from, to]) => {
        const r = await k.runInWorker(sentenceTasks.task('signSlice'), { texts: texts.slice(from, to), signature: params.signature, tables });
        signedDocs += to - from;
        k.progress('signing sentences', signedDocs, docs);
        return r;
      }),
    ),
  );

  k.progress('indexing');
  const index = buildIndex(slices, signed, docs);
  const { unitDoc: sentDoc, unitId: sentId, start, end, docUnits: docN } = index;
  countIfAny(k, MR1, 'documents', docs);
  countIfAny(k, MR1, 'documents_without_sentences', index.documentsWithoutUnits);
  countIfAny(k, MR1, 'sentences', index.units);
  countIfAny(k, MR1, 'sentences_without_signatures', index.unitsWithoutSignatures);
  countIfAny(k, MR1, 'signatures', index.sigStart[index.units] as number);
  countIfAny(k, MR1, 'index_terms', index.terms);
  countIfAny(k, MR1, 'shared_index_terms', index.sharedTerms);

  const parts = await joinUnits(k, index, params.tau);
  let nearDuplicates = 0;
  for (const p of parts) {
    countIfAny(k, MR2, 'candidate_sentence_pairs', p.candidates);
    countIfAny(k, MR2, 'sentence_pairs', p.distinct);
    nearDuplicates += p.x.length;
  }
  countIfAny(k, MR2, 'near_duplicate_sentence_pairs', nearDuplicates);

  // Algorithm 2: the sentence pairs grouped by document pair (a stable radix order, one pass a column),
  // each group's runs as in MR#3's reducer.
  k.progress('sequence matching');
  const px = new Uint32Array(nearDuplicates);
  const py = new Uint32Array(nearDuplicates);
  let at = 0;
  for (const p of parts) {
    px.set(p.x, at);
    py.set(p.y, at);
    at += p.x.length;
  }
  const docA = px.map((x) => sentDoc[x] as number);
  const docB = py.map((y) => sentDoc[y] as number);
  const order = stableOrder([docA, docB], { digitBits: MAX_DIGIT_BITS });
  const firstUnit = new Uint32Array(docs + 1);
  for (let d = 0; d < docs; d++) firstUnit[d + 1] = (firstUnit[d] as number) + (docN[d] as number);
  const outA: number[] = [];
  const outB: number[] = [];
  const outS: number[] = [];
  const spans: Span[] = [];
  let documentPairs = 0;
  let runsFound = 0;
  let runPairs = 0;
  let sa: Uint32Array = new Uint32Array(64);
  let sb: Uint32Array = new Uint32Array(64);
  for (let i = 0; i < nearDuplicates; ) {
    const a = docA[order[i] as number] as number;
    const b = docB[order[i] as number] as number;
    let n = 0;
    for (; i < nearDuplicates; i++) {
      const o = order[i] as number;
      if (docA[o] !== a || docB[o] !== b) break;
      if (n === sa.length) [sa, sb] = [grow(sa), grow(sb)];
      sa[n] = sentId[px[o] as number] as number;
      sb[n] = sentId[py[o] as number] as number;
      n++;
    }
    documentPairs++;
    const runs = diagonalRunsOf(sa, sb, n, params.gamma);
    if (runs.length === 0) continue;
    runsFound += runs.length;
    for (const r of runs) {
      runPairs += r.length;
      const ua = (firstUnit[a] as number) + r.aStart;
      const ub = (firstUnit[b] as number) + r.bStart;
      spans.push({
        a,
        b,
        aStart: start[ua] as number,
        aEnd: end[ua + r.length - 1] as number,
        bStart: start[ub] as number,
        bEnd: end[ub + r.length - 1] as number,
        units: { aStart: r.aStart, bStart: r.bStart, length: r.length },
      });
    }
    const score = coverageScore(runs, docN[a] as number, docN[b] as number);
    if (score < minScore) continue;
    outA.push(a);
    outB.push(b);
    outS.push(score);
  }
  countIfAny(k, MR3, 'document_pairs', documentPairs);
  countIfAny(k, MR3, 'runs', runsFound);
  countIfAny(k, MR3, 'run_sentence_pairs', runPairs);
  countIfAny(k, MR3, 'pairs', outA.length);
  return { pairs: { a: Uint32Array.from(outA), b: Uint32Array.from(outB), score: Float64Array.from(outS) }, spans };
}

function grow(x: Uint32Array): Uint32Array {
  const y = new Uint32Array(2 * x.length);
  y.set(x);
  return y;
}
