/**
 * PDC-MR's jobs and kernel against a brute-force computation written here from the definitions:
 * every pair of sentences of two documents compared by the Jaccard of their signature *strings*
 * (readable shingles and spot chains, no fingerprints, no length filter, no index), then the
 * maximal diagonals of at least γ pairs of every document pair, their character ranges, and the
 * covered share of the shorter document.
 */
import { describe, expect, it } from 'vitest';
import { pdcMrParams } from '../../../algorithms/pdc-mr/params.ts';
import { plan } from '../../../algorithms/pdc-mr/plan.ts';
import { mostFrequent, spotChains } from '../../../algorithms/text/sentence-signatures.ts';
import { documentFrequencies } from '../../../algorithms/text/document-frequencies.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { splitSentences } from '../../../algorithms/text/sentences.ts';
import { wordShingles } from '../../../algorithms/text/shingles.ts';
import { words } from '../../../algorithms/text/tokens.ts';
import { mulberry32 } from '../text/random-text.ts';
import { runJobs, runKernel } from '../../support/span-plan-runs.ts';

/** Documents made of sentences from a small pool, some copied in runs, some with one word changed. */
function randomCorpus(seed: number, docs: number): string[] {
  const random = mulberry32(seed);
  const vocabulary = 'the a of to and cat dog sat ran on mat log in house tree red big small blue quick slow bird sang over under it was warm cold'.split(' ');
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const sentence = (): string[] => Array.from({ length: 2 + Math.floor(random() * 9) }, () => pick(vocabulary));
  const pool = Array.from({ length: 30 }, sentence);
  const out: string[][][] = [];
  for (let d = 0; d < docs; d++) {
    const own: string[][] = [];
    const n = 1 + Math.floor(random() * 10);
    for (let i = 0; i < n; i++) {
      const r = random();
      if (r < 0.3 && out.length > 0) {
        // a run copied from an earlier document, maybe with one word changed
        const src = pick(out);
        const from = Math.floor(random() * src.length);
        for (const s of src.slice(from, from + 1 + Math.floor(random() * 4))) {
          const copy = [...s];
          if (random() < 0.3) copy[Math.floor(random() * copy.length)] = pick(vocabulary);
          own.push(copy);
        }
      } else own.push(pick(pool));
    }
    out.push(own);
  }
  return out.map((doc) =>
    doc
      .map((s) => `${(s[0] as string).toUpperCase()}${s.join(' ').slice(1)}${pick(['.', '!', '?', '.'])}`)
      .reduce((text, s) => text + (text === '' ? '' : pick([' ', ' ', '\n', '\n\n'])) + s, ''),
  );
}

type SignatureStrings = (sentence: string) => Set<string>;

function bruteForce(texts: readonly string[], signatures: SignatureStrings, tau: number, gamma: number): { pairs: string[]; spans: string[] } {
  const docs = texts.map((t) => splitSentences(t).map((s) => ({ ...s, sigs: signatures(normalize(t.slice(s.start, s.end))) })));
  const pairs: string[] = [];
  const spans: string[] = [];
  for (let a = 0; a < docs.length; a++) {
    for (let b = a + 1; b < docs.length; b++) {
      const A = docs[a] as (typeof docs)[number];
      const B = docs[b] as (typeof docs)[number];
      const dup = (i: number, j: number): boolean => {
        const x = A[i]?.sigs;
        const y = B[j]?.sigs;
        if (!x || !y || x.size === 0 || y.size === 0) return false;
        let c = 0;
        for (const s of x) if (y.has(s)) c++;
        return c > 0 && c / (x.size + y.size - c) >= tau;
      };
      const coveredA = new Set<number>();
      const coveredB = new Set<number>();
      for (let i = 0; i < A.length; i++) {
        for (let j = 0; j < B.length; j++) {
          if (!dup(i, j) || dup(i - 1, j - 1)) continue; // the root of a maximal diagonal
          let len = 0;
          while (dup(i + len, j + len)) len++;
          if (len < gamma) continue;
          for (let k = 0; k < len; k++) {
            coveredA.add(i + k);
            coveredB.add(j + k);
          }
          spans.push(`${a} ${b} ${A[i]?.start} ${A[i + len - 1]?.end} ${B[j]?.start} ${B[j + len - 1]?.end} ${i} ${j} ${len}`);
        }
      }
      if (coveredA.size === 0) continue;
      const score = A.length < B.length ? coveredA.size / A.length : B.length < A.length ? coveredB.size / B.length : Math.max(coveredA.size / A.length, coveredB.size / B.length);
      pairs.push(`${a} ${b} ${score}`);
    }
  }
  return { pairs: pairs.sort(), spans: spans.sort() };
}

const cases = [
  { signature: { method: 'shingles', n: 2 }, tau: 0.5, gamma: 1 },
  { signature: { method: 'shingles', n: 3 }, tau: 0.9, gamma: 2 },
  { signature: { method: 'shingles', n: 4 }, tau: 0.6, gamma: 3 },
  { signature: { method: 'imatch', idf_min: 0.1, idf_max: 1 }, tau: 0.9, gamma: 2 },
  { signature: { method: 'imatch', idf_min: 0.3, idf_max: 0.9 }, tau: 0.5, gamma: 1 },
  { signature: { method: 'spotsigs', antecedents: 6, distance: 1, chain: 2 }, tau: 0.5, gamma: 2 },
  { signature: { method: 'spotsigs', antecedents: 10, distance: 2, chain: 1 }, tau: 0.9, gamma: 1 },
] as const;

describe('PDC-MR against brute force', () => {
  it.each(cases)('jobs and kernel equal brute force for %j', async (raw) => {
    const texts = randomCorpus(7 + raw.gamma + 10 * raw.tau, 24);
    const params = pdcMrParams.parse(raw);
    let signatures: SignatureStrings;
    if (params.signature.method === 'shingles') {
      const n = params.signature.n;
      signatures = (s) => new Set(wordShingles(s, n));
    } else if (params.signature.method === 'imatch') {
      // the lexicon from the idf formula, and a sentence's signature as its kept words themselves
      const { idf_min: lo, idf_max: hi } = params.signature;
      const df = documentFrequencies(texts.map((t) => words(normalize(t))));
      const N = texts.length;
      const kept = (w: string): boolean => {
        const idf = Math.log(N / (df.df.get(w) as number)) / Math.log(N);
        return idf >= lo && idf <= hi;
      };
      signatures = (s) => {
        const terms = [...new Set(words(s).filter(kept))].sort();
        return new Set(terms.length === 0 ? [] : [terms.join(' ')]);
      };
    } else {
      const sp = params.signature;
      const antecedents = new Set(mostFrequent(documentFrequencies(texts.map((t) => words(normalize(t)))), sp.antecedents));
      signatures = (s) => new Set(spotChains(words(s), antecedents, sp.distance, sp.chain));
    }
    const expected = bruteForce(texts, signatures, params.tau, params.gamma);
    expect(expected.pairs.length).toBeGreaterThan(3);
    const docs = { ids: texts.map((_, i) => `d${i}`), texts };
    const p = plan(params, { minScore: Number.MIN_VALUE, seed: 1 });
    const jobs = runJobs(p, docs);
    expect({ pairs: jobs.pairs, spans: jobs.spans }).toEqual(expected);
    const kernel = await runKernel(p, docs);
    expect({ pairs: kernel.pairs, spans: kernel.spans }).toEqual(expected);
    expect(kernel.counters).toEqual(jobs.counters);
  });
});
