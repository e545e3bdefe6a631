/**
 * Document-level SpotSigs (Theobald, Siddharth and Paepcke 2008), the baseline of PDC-MR's
 * Figures 10 and 11: each document is the set of its spot signatures (the same signatures as
 * PDC-MR's `spotsigs` sentence signatures, over the whole normalized document), and two
 * documents are near-duplicates when their Jaccard is at least τ. The join is PDC-MR's
 * Algorithm 1 with documents for sentences, including the length filter SpotSigs introduced.
 *
 *   spotsigs-df         document frequency of every word (the antecedents are the k most frequent)
 *   spotsigs-mr1-index  map: document → (signature, "d size"); reduce: postings "d size,…" in
 *                       document order, for signatures of at least two documents
 *   spotsigs-mr2-pairs  map: postings → ("a sizeA b sizeB", 1) for pairs passing the length filter;
 *                       combine: sum; reduce: J = c / (|A| + |B| − c) >= τ → ("a:b", J)
 */
import { DOCUMENTS, formatScore, type JobSpec } from '../../contract/index.ts';
import { documentFrequencyJob, readDocumentFrequencies } from '../text/document-frequencies.ts';
import { normalize } from '../text/normalize.ts';
import type { SentenceSignature } from '../text/params.ts';
import { corpusTables, documentTerms, makeSigner } from '../text/sentence-signatures.ts';
import { jaccard, lengthCompatible } from '../text/set-similarity.ts';
import type { SpotSigsParams } from './params.ts';

export const DF = 'spotsigs-df';
export const MR1 = 'spotsigs-mr1-index';
export const MR2 = 'spotsigs-mr2-pairs';
export const DF_OUTPUT = 'document-frequencies';
export const INDEX_OUTPUT = 'spot-index';
export const PAIRS_OUTPUT = 'pairs';

export function signatureSpec(params: SpotSigsParams): SentenceSignature {
  return { method: 'spotsigs', antecedents: params.antecedents, distance: params.distance, chain: params.chain };
}

export function spotSigsJobs(params: SpotSigsParams, minScore: number): JobSpec[] {
  const spec = signatureSpec(params);
  const sum = (values: readonly string[]): number => values.reduce((s, v) => s + Number(v), 0);
  const pair = (v: string): [number, number] => {
    const space = v.indexOf(' ');
    return [Number(v.slice(0, space)), Number(v.slice(space + 1))];
  };
  return [
    documentFrequencyJob({ name: DF, input: DOCUMENTS, output: DF_OUTPUT, terms: documentTerms }),
    {
      name: MR1,
      description: 'sign each document with its spot signatures and index documents by signature',
      inputs: [DOCUMENTS],
      output: INDEX_OUTPUT,
      side: [DF_OUTPUT],
      mapper: (ctx) => {
        const signer = makeSigner(spec, corpusTables(spec, readDocumentFrequencies(ctx.side(DF_OUTPUT))));
        return {
          map(doc, text) {
            ctx.count(MR1, 'documents');
            const sigs = signer(normalize(text));
            if (sigs.length === 0) {
              ctx.count(MR1, 'documents_without_signatures');
              return;
            }
            ctx.count(MR1, 'signatures', sigs.length);
            for (const s of sigs) ctx.emit(s, `${doc} ${sigs.length}`);
          },
        };
      },
      reducer: (ctx) => ({
        reduce(sig, values) {
          ctx.count(MR1, 'index_terms');
          if (values.length < 2) return;
          ctx.count(MR1, 'shared_index_terms');
          ctx.emit(sig, [...values].sort((x, y) => pair(x)[0] - pair(y)[0]).join(','));
        },
      }),
    },
    {
      name: MR2,
      description: 'document pairs sharing a spot signature, length-filtered; Jaccard >= tau',
      inputs: [INDEX_OUTPUT],
      output: PAIRS_OUTPUT,
      mapper: (ctx) => ({
        map(_sig, postings) {
          const entries = postings.split(',').map(pair);
          let emitted = 0;
          for (let i = 0; i < entries.length; i++) {
            const [a, sa] = entries[i] as [number, number];
            for (let j = i + 1; j < entries.length; j++) {
              const [b, sb] = entries[j] as [number, number];
              if (!lengthCompatible(sa, sb, params.tau)) continue;
              ctx.emit(`${a} ${sa} ${b} ${sb}`, '1');
              emitted++;
            }
          }
          if (emitted > 0) ctx.count(MR2, 'candidate_pairs', emitted);
        },
      }),
      combiner: (ctx) => ({ reduce: (k, values) => ctx.emit(k, String(sum(values))) }),
      reducer: (ctx) => ({
        reduce(key, values) {
          ctx.count(MR2, 'distinct_pairs');
          const [a, sa, b, sb] = key.split(' ').map(Number) as [number, number, number, number];
          const j = jaccard(sum(values), sa, sb);
          if (j < params.tau || j < minScore) return;
          ctx.count(MR2, 'pairs');
          ctx.emit(`${a}:${b}`, formatScore(j));
        },
      }),
    },
  ];
}
