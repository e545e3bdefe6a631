/**
 * The local backend's fast path for PDC-MR: the jobs of `jobs.ts` over typed arrays. Documents
 * are split and signed on worker threads, the index is a CSR of sentences by signature, the
 * sentence join is ScanCount on worker threads (`tasks.ts`), and sequence matching runs the
 * same `diagonalRuns` and `coverageScore` as MR#3's reducer. Counters are the jobs' counters.
 */
import type { KernelContext, LocalKernel, PairList, Span } from '../../contract/index.ts';
import { balancedRanges } from '../text/chunks.ts';
import type { DocumentFrequencies } from '../text/document-frequencies.ts';
import { coverageScore, diagonalRuns } from './matching.ts';
import { DF, MR1, MR2, MR3, runSpan, type MatchedSentences } from './jobs.ts';
import type { PdcMrParams } from './params.ts';
import { corpusTables, needsDocumentFrequencies } from './signatures.ts';
import { buildIndex, joinUnits, TASKS_MODULE } from './sentence-index.ts';
import type { SignedSlice, TermSlice } from './tasks.ts';


export function pdcMrKernel(params: PdcMrParams, minScore: number): LocalKernel {
  return {
    run: (k) => runKernel(k, params, minScore),
    // Per character of text about one signature entry every 6 characters (a word) with its
    // string key, postings and per-sentence arrays: ~24 bytes a character, plus the documents.
    memoryBytes: (shape) => 24 * shape.chars + 256 * shape.documents + (1 << 20),
    workerModules: [TASKS_MODULE],
  };
}

async function runKernel(k: KernelContext, params: PdcMrParams, minScore: number): Promise<{ pairs: PairList; spans: Span[] }> {
  const texts = k.docs.texts;
  const docs = texts.length;
  const slices = balancedRanges(docs, (i) => (texts[i] as string).length, Math.max(1, k.parallelism * 2));

  let df: DocumentFrequencies | null = null;
  if (needsDocumentFrequencies(params.signature)) {
    df = await k.cached('document-terms:document-frequencies', () => documentFrequencies(k, slices));
    if (df.df.size > 0) k.count(DF, 'terms', df.df.size);
  }
  const tables = corpusTables(params.signature, df);

  k.progress('signing sentences', 0, docs);
  let signedDocs = 0;
  const signed = await k.cached(`pdc-mr:signed:${JSON.stringify(params.signature)}`, () =>
    Promise.all(
      slices.map(async ([from, to]) => {
        const r = await k.runInWorker<SignedSlice>(TASKS_MODULE, 'signSlice', { texts: texts.slice(from, to), signature: params.signature, tables });
        signedDocs += to - from;
        k.progress('signing sentences', signedDocs, docs);
        return r;
      }),
    ),
  );

  k.progress('indexing');
  const index = buildIndex(slices, signed, docs);
  const { unitDoc: sentDoc, unitId: sentId, start, end, docUnits: docN } = index;
  k.count(MR1, 'documents', docs);
  k.count(MR1, 'documents_without_sentences', index.documentsWithoutUnits);
  k.count(MR1, 'sentences', index.units);
  k.count(MR1, 'sentences_without_signatures', index.unitsWithoutSignatures);
  k.count(MR1, 'signatures', index.sigStart[index.units] as number);
  k.count(MR1, 'index_terms', index.terms);
  k.count(MR1, 'shared_index_terms', index.sharedTerms);

  const parts = await joinUnits(k, index, params.tau);
  let nearDuplicates = 0;
  for (const p of parts) {
    k.count(MR2, 'candidate_sentence_pairs', p.candidates);
    k.count(MR2, 'sentence_pairs', p.distinct);
    nearDuplicates += p.x.length;
  }
  k.count(MR2, 'near_duplicate_sentence_pairs', nearDuplicates);

  // Algorithm 2: group the sentence pairs by document pair.
  k.progress('sequence matching');
  const order = new Uint32Array(nearDuplicates);
  const px = new Uint32Array(nearDuplicates);
  const py = new Uint32Array(nearDuplicates);
  let at = 0;
  for (const p of parts) {
    px.set(p.x, at);
    py.set(p.y, at);
    at += p.x.length;
  }
  for (let i = 0; i < nearDuplicates; i++) order[i] = i;
  order.sort((i, j) => (sentDoc[px[i] as number] as number) - (sentDoc[px[j] as number] as number) || (sentDoc[py[i] as number] as number) - (sentDoc[py[j] as number] as number));
  const outA: number[] = [];
  const outB: number[] = [];
  const outS: number[] = [];
  const spans: Span[] = [];
  let documentPairs = 0;
  let runsFound = 0;
  let runPairs = 0;
  for (let i = 0; i < nearDuplicates; ) {
    const a = sentDoc[px[order[i] as number] as number] as number;
    const b = sentDoc[py[order[i] as number] as number] as number;
    const matched = new Map<string, MatchedSentences>();
    for (; i < nearDuplicates; i++) {
      const x = px[order[i] as number] as number;
      const y = py[order[i] as number] as number;
      if (sentDoc[x] !== a || sentDoc[y] !== b) break;
      const m = { a: sentId[x] as number, b: sentId[y] as number, startA: start[x] as number, endA: end[x] as number, startB: start[y] as number, endB: end[y] as number };
      matched.set(`${m.a},${m.b}`, m);
    }
    documentPairs++;
    const runs = diagonalRuns([...matched.values()], params.gamma);
    if (runs.length === 0) continue;
    runsFound += runs.length;
    for (const r of runs) {
      runPairs += r.length;
      spans.push(runSpan(a, b, r, matched));
    }
    const score = coverageScore(runs, docN[a] as number, docN[b] as number);
    if (score < minScore) continue;
    outA.push(a);
    outB.push(b);
    outS.push(score);
  }
  k.count(MR3, 'document_pairs', documentPairs);
  k.count(MR3, 'runs', runsFound);
  k.count(MR3, 'run_sentence_pairs', runPairs);
  k.count(MR3, 'pairs', outA.length);
  return { pairs: { a: Uint32Array.from(outA), b: Uint32Array.from(outB), score: Float64Array.from(outS) }, spans };
}

export async function documentFrequencies(k: KernelContext, slices: readonly [number, number][]): Promise<DocumentFrequencies> {
  const parts = await Promise.all(
    slices.map(([from, to]) => k.runInWorker<TermSlice>(TASKS_MODULE, 'termSlice', { texts: k.docs.texts.slice(from, to) })),
  );
  const df = new Map<string, number>();
  for (const p of parts) p.terms.forEach((t, i) => df.set(t, (df.get(t) ?? 0) + (p.df[i] as number)));
  return { documents: k.docs.texts.length, df };
}
