/**
 * The whole MinHash-LSH plan: its text jobs against a computation written here from the
 * definitions with BigInt arithmetic (no WebAssembly, no text encoding, no buckets), and its
 * kernel against its jobs (pairs, scores, counters and the clusters table).
 */
import { describe, expect, it } from 'vitest';
import { optimalBandsRows } from '../../../algorithms/minhash/lsh-params.ts';
import { permutationWords } from '../../../algorithms/minhash/permutations.ts';
import { fingerprintOf } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { charShingles } from '../../../algorithms/text/shingles.ts';
import { docSet, smallCorpus } from '../../support/corpus.ts';
import { planFor, runJobs, runKernel } from './run.ts';

const P = (1n << 61n) - 1n;
const docs = smallCorpus();
const shingle = { unit: 'char', size: 16 };

/** Each document's distinct fingerprints as BigInt. */
function fingerprintSets(texts: readonly string[], n: number): bigint[][] {
  return texts.map((t) => {
    const set = new Set<bigint>();
    for (const s of charShingles(normalize(t), n)) {
      const fp = fingerprintOf(s, 'rabin64');
      set.add((BigInt(fp[0] as number) << 32n) | BigInt(fp[1] as number));
    }
    return [...set];
  });
}

interface Naive {
  rows: string[];
  candidates: number;
  clusters: string[];
}

/** MinHash-LSH from the definitions: k-permutation signatures, banding, verification, components. */
function naive(sets: bigint[][], k: number, t: number, verify: 'estimated' | 'exact' | 'none', seed: number, lsh?: { bands: number; rows: number }): Naive {
  const w = permutationWords(seed, k);
  const ab = Array.from({ length: k }, (_, i) => [
    (BigInt(w[4 * i] as number) << 32n) | BigInt(w[4 * i + 1] as number),
    (BigInt(w[4 * i + 2] as number) << 32n) | BigInt(w[4 * i + 3] as number),
  ]) as [bigint, bigint][];
  const sigs = sets.map((set) => ab.map(([a, b]) => set.reduce((m, x) => ((a * x + b) % P < m ? (a * x + b) % P : m), P)));
  const { bands, rows } = lsh ?? optimalBandsRows(t, k, 0.5, 0.5);
  const out: string[] = [];
  const decided: [number, number][] = [];
  let candidates = 0;
  for (let x = 0; x < sets.length; x++) {
    for (let y = x + 1; y < sets.length; y++) {
      if (sets[x]!.length === 0 || sets[y]!.length === 0) continue;
      let collided = 0;
      for (let j = 0; j < bands; j++) {
        let same = true;
        for (let i = j * rows; i < (j + 1) * rows; i++) if (sigs[x]![i] !== sigs[y]![i]) same = false;
        if (same) collided++;
      }
      if (collided === 0) continue;
      candidates++;
      let score: number;
      if (verify === 'none') score = collided / bands;
      else if (verify === 'exact') {
        const B = new Set(sets[y]);
        const common = sets[x]!.filter((v) => B.has(v)).length;
        score = common / (sets[x]!.length + sets[y]!.length - common);
      } else score = sigs[x]!.filter((v, i) => v === sigs[y]![i]).length / k;
      if (verify !== 'none' && score < t) continue;
      out.push(`${x} ${y} ${score}`);
      decided.push([x, y]);
    }
  }
  // components by repeated relabelling to the least index
  const label = sets.map((_, i) => i);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [x, y] of decided) {
      const m = Math.min(label[x]!, label[y]!);
      if (label[x] !== m || label[y] !== m) {
        label[x] = label[y] = m;
        changed = true;
      }
    }
  }
  const clusters = label.map((c, d) => `${d} ${c} ${label.filter((l) => l === c).length}`);
  return { rows: out.sort(), candidates, clusters };
}

const tableRows = (records: readonly (readonly [string, string])[] | undefined): string[] => (records ?? []).map(([k, v]) => `${k} ${v}`);

describe('MinHash-LSH against the definitions', () => {
  const sets = fingerprintSets([...docs.texts], 16);

  it.each([
    ['estimated', 0.5, undefined],
    ['exact', 0.5, undefined],
    ['none', 0.5, undefined],
    ['estimated', 0.3, { bands: 8, rows: 2 }],
    ['exact', 0.8, { bands: 4, rows: 4 }],
  ] as const)('verification %s at t = %s with bands × rows %j', (verify, t, lsh) => {
    const k = 16;
    const expected = naive(sets, k, t, verify, 1, lsh);
    const run = runJobs(planFor({ shingle, permutations: k, threshold: t, verify, ...(lsh ?? {}) }), docs);
    expect(expected.rows.length).toBeGreaterThan(2);
    expect(run.rows).toEqual(expected.rows);
    expect(run.counters['minhash-candidates']?.candidate_pairs).toBe(expected.candidates);
    expect(tableRows(run.tables['clusters'])).toEqual(expected.clusters);
  });

  it('uses different hash functions for a different seed, and the same for the same', () => {
    const k = 16;
    const one = runJobs(planFor({ shingle, permutations: k, threshold: 0.3 }, 1), docs);
    const again = runJobs(planFor({ shingle, permutations: k, threshold: 0.3 }, 1), docs);
    const other = runJobs(planFor({ shingle, permutations: k, threshold: 0.3 }, 2), docs);
    expect(again.rows).toEqual(one.rows);
    expect(other.rows).toEqual(naive(sets, k, 0.3, 'estimated', 2).rows);
    expect(other.rows).not.toEqual(one.rows);
  });
});

const CONFIGS: Record<string, unknown>[] = [
  { shingle, permutations: 16, threshold: 0.5 },
  { shingle, permutations: 32, threshold: 0.3, verify: 'exact' },
  { shingle, permutations: 32, threshold: 0.5, verify: 'none' },
  { shingle, permutations: 24, bands: 6, rows: 3, threshold: 0.4, bits: 2 },
  { shingle, permutations: 64, sketch: 'one-permutation', threshold: 0.4 },
  { shingle, permutations: 64, sketch: 'one-permutation', bits: 4, threshold: 0.4, verify: 'none' },
  { shingle, fingerprint: 'md5', permutations: 16, threshold: 0.5 },
  { shingle: { unit: 'word', size: 3 }, permutations: 20, bands: 10, rows: 2, threshold: 0.2 },
];

describe('MinHash kernel and text jobs', () => {
  it.each(CONFIGS)('agree on pairs, scores, counters and clusters for %j', async (raw) => {
    const plan = planFor(raw);
    const jobs = runJobs(plan, docs);
    const kernel = await runKernel(plan, docs);
    expect(jobs.rows.length).toBeGreaterThan(0);
    expect(kernel.rows).toEqual(jobs.rows);
    expect(kernel.counters).toEqual(jobs.counters);
    expect(kernel.tables).toEqual(jobs.tables);
  });

  it('agree with empty documents and documents shorter than a shingle', async () => {
    const texts = ['', 'short', 'short', '   ', ...docs.texts.slice(0, 6), 'short'];
    const plan = planFor({ shingle, permutations: 16, threshold: 0.5, sketch: 'one-permutation' });
    const jobs = runJobs(plan, docSet(texts));
    const kernel = await runKernel(plan, docSet(texts), 3);
    expect(jobs.rows).toContain('1 2 1');
    expect(kernel.rows).toEqual(jobs.rows);
    expect(kernel.counters).toEqual(jobs.counters);
    expect(kernel.tables).toEqual(jobs.tables);
    expect(jobs.counters['minhash-signatures']?.documents_without_fingerprints).toBe(2);
  });

  it('give the same result on one worker as on several', async () => {
    const plan = planFor({ shingle, permutations: 32, threshold: 0.3 });
    expect((await runKernel(plan, docs, 1)).rows).toEqual((await runKernel(plan, docs, 4)).rows);
  });
});
