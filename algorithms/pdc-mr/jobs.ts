/**
 * PDC-MR's three MapReduce jobs (Zhang et al. 2010 §4, Figures 4 and 5, Algorithms 1 and 2) as
 * text records, runnable unchanged as Hadoop Streaming mappers and reducers, and two map-only
 * jobs that split the third job's output into the pairs and spans datasets.
 *
 *   pdc-df        (SpotSigs only) document frequency of every word: the antecedents are the k
 *                 most frequent
 *   pdc-mr1-index map: document → (signature, "d s size start end n") per sentence signature;
 *                 reduce: signature → its postings "d s size start end n,…" in (d, s) order, for
 *                 signatures held by at least two documents (the others make no pair)
 *   pdc-mr2-sentences  Algorithm 1. map: postings → ("A B", 1) for every pair of sentences of two
 *                 documents that passes the length filter; combine: sum; reduce: Jaccard =
 *                 c / (|A| + |B| − c) >= τ → ("da:db", "sa sb startA endA startB endB nA nB")
 *   pdc-mr3-sequences  Algorithm 2. map: identity; reduce: document pair → its runs of at least γ
 *                 consecutive sentence pairs → span records ("S …") and one pair record ("P score")
 *   pdc-spans, pdc-pairs  map-only: the span records and the pair records
 *
 * A sentence is written "d s size start end n": document index, sentence id, number of distinct
 * signatures, its character range, and the number of sentences of its document (the score's
 * denominator), so that every later job has what it needs without a side dataset.
 * Counter groups are the job names; the kernel (`kernel.ts`) reports the very same counters.
 */
import { DOCUMENTS, encodeSpanValue, formatScore, type JobSpec, type Span } from '../../contract/index.ts';
import { documentFrequencyJob, readDocumentFrequencies } from '../text/document-frequencies.ts';
import { corpusTables, documentTerms, makeSigner, needsDocumentFrequencies, signDocument } from '../text/sentence-signatures.ts';
import { lengthCompatible, nearDuplicate } from '../text/set-similarity.ts';
import { coverageScore, diagonalRuns, type Run, type SentencePair } from './matching.ts';
import type { PdcMrParams } from './params.ts';

export const DF = 'pdc-df';
export const MR1 = 'pdc-mr1-index';
export const MR2 = 'pdc-mr2-sentences';
export const MR3 = 'pdc-mr3-sequences';
export const SPLIT_SPANS = 'pdc-spans';
export const SPLIT_PAIRS = 'pdc-pairs';

export const DF_OUTPUT = 'document-frequencies';
export const INDEX_OUTPUT = 'sentence-index';
export const SENTENCE_PAIRS_OUTPUT = 'duplicate-sentences';
export const MATCHES_OUTPUT = 'sequence-matches';
export const SPANS_OUTPUT = 'spans';
export const PAIRS_OUTPUT = 'pairs';

export function documentFrequenciesJob(): JobSpec {
  return documentFrequencyJob({ name: DF, input: DOCUMENTS, output: DF_OUTPUT, terms: documentTerms });
}

/** The fields of a sentence record "d s size start end n". */
export interface SentenceEntry {
  readonly doc: number;
  readonly sentence: number;
  readonly size: number;
  readonly start: number;
  readonly end: number;
  readonly sentences: number;
}

export function parseEntry(v: string): SentenceEntry {
  const [doc, sentence, size, start, end, sentences] = v.split(' ').map(Number) as [number, number, number, number, number, number];
  return { doc, sentence, size, start, end, sentences };
}

export function indexJob(params: PdcMrParams): JobSpec {
  const withDf = needsDocumentFrequencies(params.signature);
  return {
    name: MR1,
    description: 'split each document into sentences, sign them, and index sentences by signature',
    inputs: [DOCUMENTS],
    output: INDEX_OUTPUT,
    ...(withDf ? { side: [DF_OUTPUT] } : {}),
    mapper: (ctx) => {
      const signer = makeSigner(params.signature, corpusTables(params.signature, withDf ? readDocumentFrequencies(ctx.side(DF_OUTPUT)) : null));
      return {
        map(doc, text) {
          ctx.count(MR1, 'documents');
          const { sentences } = signDocument(text, signer);
          if (sentences.length === 0) {
            ctx.count(MR1, 'documents_without_sentences');
            return;
          }
          ctx.count(MR1, 'sentences', sentences.length);
          const n = sentences.length;
          for (const s of sentences) {
            if (s.signatures.length === 0) {
              ctx.count(MR1, 'sentences_without_signatures');
              continue;
            }
            ctx.count(MR1, 'signatures', s.signatures.length);
            const value = `${doc} ${s.id} ${s.signatures.length} ${s.start} ${s.end} ${n}`;
            for (const sig of s.signatures) ctx.emit(sig, value);
          }
        },
      };
    },
    reducer: (ctx) => ({
      reduce(sig, values) {
        ctx.count(MR1, 'index_terms');
        const entries = values.map((v) => [parseEntry(v), v] as const).sort((x, y) => x[0].doc - y[0].doc || x[0].sentence - y[0].sentence);
        const first = entries[0]?.[0].doc;
        if (entries.every(([e]) => e.doc === first)) return;
        ctx.count(MR1, 'shared_index_terms');
        ctx.emit(sig, entries.map(([, v]) => v).join(','));
      },
    }),
  };
}

export function sentencePairsJob(params: PdcMrParams): JobSpec {
  const tau = params.tau;
  const sum = (values: readonly string[]): number => values.reduce((s, v) => s + Number(v), 0);
  return {
    name: MR2,
    description: 'Algorithm 1: sentence pairs of two documents sharing a signature, length-filtered; near-duplicates by Jaccard >= tau',
    inputs: [INDEX_OUTPUT],
    output: SENTENCE_PAIRS_OUTPUT,
    mapper: (ctx) => ({
      map(_sig, postings) {
        const raw = postings.split(',');
        const entries = raw.map(parseEntry);
        let emitted = 0;
        for (let i = 0; i < entries.length; i++) {
          const x = entries[i] as SentenceEntry;
          for (let j = i + 1; j < entries.length; j++) {
            const y = entries[j] as SentenceEntry;
            // Postings are in (d, s) order: y's document is x's or a later one.
            if (y.doc === x.doc || !lengthCompatible(x.size, y.size, tau)) continue;
            ctx.emit(`${raw[i] as string} ${raw[j] as string}`, '1');
            emitted++;
          }
        }
        if (emitted > 0) ctx.count(MR2, 'candidate_sentence_pairs', emitted);
      },
    }),
    combiner: (ctx) => ({ reduce: (k, values) => ctx.emit(k, String(sum(values))) }),
    reducer: (ctx) => ({
      reduce(key, values) {
        ctx.count(MR2, 'sentence_pairs');
        const f = key.split(' ').map(Number);
        const [da, sa, sizeA, startA, endA, nA, db, sb, sizeB, startB, endB, nB] = f as [number, number, number, number, number, number, number, number, number, number, number, number];
        if (!nearDuplicate(sum(values), sizeA, sizeB, tau)) return;
        ctx.count(MR2, 'near_duplicate_sentence_pairs');
        ctx.emit(`${da}:${db}`, `${sa} ${sb} ${startA} ${endA} ${startB} ${endB} ${nA} ${nB}`);
      },
    }),
  };
}

/** A near-duplicate sentence pair with both sentences' character ranges (MR#2's output value). */
export interface MatchedSentences extends SentencePair {
  readonly startA: number;
  readonly endA: number;
  readonly startB: number;
  readonly endB: number;
}

/** A run as a span record of the two documents, from the matched sentences' ranges. */
export function runSpan(a: number, b: number, run: Run, at: ReadonlyMap<string, MatchedSentences>): Span {
  const first = at.get(`${run.aStart},${run.bStart}`) as MatchedSentences;
  const last = at.get(`${run.aStart + run.length - 1},${run.bStart + run.length - 1}`) as MatchedSentences;
  return {
    a,
    b,
    aStart: first.startA,
    aEnd: last.endA,
    bStart: first.startB,
    bEnd: last.endB,
    units: { aStart: run.aStart, bStart: run.bStart, length: run.length },
  };
}

export function sequenceJob(params: PdcMrParams, minScore: number): JobSpec {
  return {
    name: MR3,
    description: 'Algorithm 2: per document pair, the diagonals of at least gamma near-duplicate sentence pairs; spans and the covered share',
    inputs: [SENTENCE_PAIRS_OUTPUT],
    output: MATCHES_OUTPUT,
    mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
    reducer: (ctx) => ({
      reduce(key, values) {
        ctx.count(MR3, 'document_pairs');
        const [a, b] = key.split(':').map(Number) as [number, number];
        const at = new Map<string, MatchedSentences>();
        let nA = 0;
        let nB = 0;
        for (const v of values) {
          const [sa, sb, startA, endA, startB, endB, na, nb] = v.split(' ').map(Number) as [number, number, number, number, number, number, number, number];
          at.set(`${sa},${sb}`, { a: sa, b: sb, startA, endA, startB, endB });
          nA = na;
          nB = nb;
        }
        const runs = diagonalRuns([...at.values()], params.gamma);
        if (runs.length === 0) return;
        ctx.count(MR3, 'runs', runs.length);
        ctx.count(MR3, 'run_sentence_pairs', runs.reduce((s, r) => s + r.length, 0));
        for (const r of runs) ctx.emit(key, `S ${encodeSpanValue(runSpan(a, b, r, at))}`);
        const score = coverageScore(runs, nA, nB);
        if (score < minScore) return;
        ctx.count(MR3, 'pairs');
        ctx.emit(key, `P ${formatScore(score)}`);
      },
    }),
  };
}

/** A map-only job keeping the records of MR#3 whose value starts with `tag` and a space. */
export function splitJob(name: string, tag: 'S' | 'P', output: string): JobSpec {
  const prefix = `${tag} `;
  return {
    name,
    description: tag === 'S' ? 'the span records of the sequence matches' : 'the pair records of the sequence matches',
    inputs: [MATCHES_OUTPUT],
    output,
    mapper: (ctx) => ({
      map(k, v) {
        if (v.startsWith(prefix)) ctx.emit(k, v.slice(2));
      },
    }),
  };
}

export function pdcMrJobs(params: PdcMrParams, minScore: number): JobSpec[] {
  return [
    ...(needsDocumentFrequencies(params.signature) ? [documentFrequenciesJob()] : []),
    indexJob(params),
    sentencePairsJob(params),
    sequenceJob(params, minScore),
    splitJob(SPLIT_SPANS, 'S', SPANS_OUTPUT),
    splitJob(SPLIT_PAIRS, 'P', PAIRS_OUTPUT),
  ];
}
