/**
 * I-Match as four MapReduce jobs over text records, runnable unchanged as Hadoop Streaming
 * mapper and reducer (Chowdhury et al. 2002; Kołcz et al. 2004's randomized lexicons).
 *
 * imatch-df          document frequency of every word, and N (algorithms/text/document-frequencies.ts)
 * imatch-signatures  map only, the df table as side data: each document's K+1 SHA-1 signatures,
 *                    one per lexicon (`-` where the lexicon holds none of its words); a document
 *                    whose words are all outside the base lexicon has none and is counted
 * imatch-collisions  map: (lexicon:signature, document) for each signature; reduce: every 2-subset
 *                    of the documents sharing it, as ("a:b", 1). Signatures are compared within a
 *                    lexicon only: lexicon j's signature of one document against lexicon j's of another
 * imatch-pairs       sum each pair's shared signatures c (a combiner sums too) → score c/(K+1)
 *
 * Counters are named so that the kernel (`kernel.ts`) reports the very same ones; a job counts only
 * amounts above zero, as a kernel's context ignores zeros.
 */
import { DOCUMENTS, formatScore, type JobSpec } from '../../contract/index.ts';
import { documentFrequencyJob, readDocumentFrequencies } from '../text/document-frequencies.ts';
import { lexiconTerms, Lexicons, sortedUnique } from '../text/lexicon.ts';
import { normalize } from '../text/normalize.ts';
import { words } from '../text/tokens.ts';
import type { ImatchParams } from './params.ts';
import { encodeSignatures, NO_SIGNATURE } from './sign.ts';

export const DF = 'imatch-df';
export const SIGNATURES = 'imatch-signatures';
export const COLLISIONS = 'imatch-collisions';
export const PAIRS = 'imatch-pairs';

/** The terms I-Match signs: the words of the normalized text. */
export function documentTerms(text: string): string[] {
  return words(normalize(text));
}

export function documentFrequenciesJob(): JobSpec {
  // The same for every I-Match variant: a backend may reuse its map output.
  return { ...documentFrequencyJob({ name: DF, input: DOCUMENTS, output: DF, terms: documentTerms }), mapKey: 'words' };
}

/** The lexicons of a variant from the df table: base lexicon by idf range, then K randomized. */
export function variantLexicons(params: ImatchParams, seed: number, table: ReturnType<typeof readDocumentFrequencies>): Lexicons {
  const base = lexiconTerms(table, { min: params.idf_min, max: params.idf_max });
  return new Lexicons(base, { extra: params.extra_lexicons, drop: params.drop, seed });
}

export function signaturesJob(params: ImatchParams, seed: number): JobSpec {
  return {
    name: SIGNATURES,
    description: 'sign each document with SHA-1 over its sorted unique words in each of the K+1 lexicons',
    inputs: [DOCUMENTS],
    output: SIGNATURES,
    side: [DF],
    mapper: (ctx) => {
      let lexicons: Lexicons | undefined;
      return {
        map(doc, text) {
          lexicons ??= variantLexicons(params, seed, readDocumentFrequencies(ctx.side(DF)));
          ctx.count(SIGNATURES, 'documents');
          const sigs = lexicons.signatures(sortedUnique(documentTerms(text)));
          if (sigs[0] === null) {
            ctx.count(SIGNATURES, 'documents_without_signature');
            return;
          }
          ctx.count(SIGNATURES, 'signatures', sigs.reduce((n, s) => (s === null ? n : n + 1), 0));
          ctx.emit(doc, encodeSignatures(sigs));
        },
      };
    },
  };
}

export function collisionsJob(): JobSpec {
  return {
    name: COLLISIONS,
    description: 'for each signature (per lexicon) emit every pair of documents that share it',
    inputs: [SIGNATURES],
    output: COLLISIONS,
    mapper: (ctx) => ({
      map(doc, value) {
        value.split(' ').forEach((sig, j) => {
          if (sig !== NO_SIGNATURE) ctx.emit(`${j}:${sig}`, doc);
        });
      },
    }),
    reducer: (ctx) => ({
      reduce(_signature, values) {
        ctx.count(COLLISIONS, 'distinct_signatures');
        if (values.length < 2) return;
        const docs = values.map(Number).sort((x, y) => x - y);
        ctx.count(COLLISIONS, 'collisions', (docs.length * (docs.length - 1)) / 2);
        for (let i = 0; i < docs.length; i++) {
          for (let k = i + 1; k < docs.length; k++) ctx.emit(`${docs[i]}:${docs[k]}`, '1');
        }
      },
    }),
  };
}

export function pairsJob(signatures: number, floor: number): JobSpec {
  const sum = (values: readonly string[]): number => values.reduce((s, v) => s + Number(v), 0);
  return {
    name: PAIRS,
    description: 'count the signatures each pair shares: score = shared / (K+1)',
    inputs: [COLLISIONS],
    output: PAIRS,
    mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
    combiner: (ctx) => ({ reduce: (k, values) => ctx.emit(k, String(sum(values))) }),
    reducer: (ctx) => ({
      reduce(pair, values) {
        const score = sharedScore(sum(values), signatures);
        if (score < floor) return;
        ctx.count(PAIRS, 'output_pairs');
        ctx.emit(pair, formatScore(score));
      },
    }),
  };
}

/** The score of a pair sharing `shared` of the K+1 signatures. */
export function sharedScore(shared: number, signatures: number): number {
  return shared / signatures;
}
