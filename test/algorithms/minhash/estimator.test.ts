/**
 * The estimators against the exact Jaccard of planted pairs, over independent draws of the hash
 * functions (one seed a trial). Each check is a test of the theory's sampling distribution at a
 * false alarm rate of 10^−4 per bound (`planted.ts`); the seeds are fixed, so a run is
 * reproducible, and the tolerances come from the theory, not from the output.
 *
 * - k-permutation: R̂ = matches/k is Binomial(k, J)/k: mean J, variance J(1 − J)/k.
 * - b-bit (Li and König 2010, Theorem 1 and eq. 9): R̂_b unbiased with variance
 *   P_b(1 − P_b) / (k (1 − C_2)^2), P_b = C_1 + (1 − C_2) J.
 * - one-permutation with densification (Shrivastava 2017): every slot collides with
 *   probability J, so R̂ is unbiased; on sets larger than k its variance is no larger than
 *   k-permutation's.
 */
import { describe, expect, it } from 'vitest';
import { bBitA, bBitC, estimateResemblance, matchingSlots } from '../../../algorithms/minhash/estimate.ts';
import { meanAndVariance, plantedPair, signPair, varianceBounds, Z, type PlantedPair } from './planted.ts';

const TRIALS = 400;

function estimates(p: PlantedPair, kind: 'k-permutation' | 'one-permutation', k: number, bits: number | null): number[] {
  const out: number[] = [];
  for (let t = 0; t < TRIALS; t++) {
    const v = signPair(p, kind, k, bits, 1000 + t);
    out.push(estimateResemblance(matchingSlots(v, 0, v, k, k), k, bits, p.sizeA, p.sizeB));
  }
  return out;
}

/** [common, only A, only B]: Jaccard 0.1, 0.3, 0.5, 0.7, 0.9 on sets of 100 to 190 elements */
const PAIRS: [number, number, number][] = [
  [10, 40, 50],
  [30, 35, 35],
  [50, 20, 30],
  [70, 15, 15],
  [90, 5, 5],
];

describe('k-permutation MinHash', () => {
  it.each(PAIRS)('estimates J = %i/(%i+%i+…) with mean J and variance J(1−J)/k (k = 128)', (c, a, b) => {
    const k = 128;
    const p = plantedPair(c, a, b, BigInt(c));
    const [mean, variance] = meanAndVariance(estimates(p, 'k-permutation', k, null));
    const J = p.jaccard;
    const sigma2 = (J * (1 - J)) / k;
    expect(Math.abs(mean - J)).toBeLessThanOrEqual(Z * Math.sqrt(sigma2 / TRIALS));
    const [lo, hi] = varianceBounds(sigma2, TRIALS);
    expect(variance).toBeGreaterThanOrEqual(lo);
    expect(variance).toBeLessThanOrEqual(hi);
  });

  it('has the error the theory gives at k = 32 as well (J = 0.5)', () => {
    const k = 32;
    const p = plantedPair(50, 25, 25, 5n);
    const [mean, variance] = meanAndVariance(estimates(p, 'k-permutation', k, null));
    const sigma2 = 0.25 / k;
    expect(Math.abs(mean - 0.5)).toBeLessThanOrEqual(Z * Math.sqrt(sigma2 / TRIALS));
    const [lo, hi] = varianceBounds(sigma2, TRIALS);
    expect(variance).toBeGreaterThanOrEqual(lo);
    expect(variance).toBeLessThanOrEqual(hi);
  });
});

describe('b-bit MinHash', () => {
  it('A_{1,b} tends to 2^−b for sets far smaller than the universe, and is Li and König\'s formula otherwise', () => {
    expect(bBitA(1e-12, 1)).toBeCloseTo(0.5, 10);
    expect(bBitA(1e-12, 4)).toBeCloseTo(1 / 16, 10);
    // r = 0.1, b = 2: 0.1·0.9^3 / (1 − 0.9^4), by hand
    expect(bBitA(0.1, 2)).toBeCloseTo((0.1 * 0.729) / (1 - 0.6561), 14);
    const [c1, c2] = bBitC(100, 300, 1);
    expect(c1).toBeCloseTo(0.5, 10);
    expect(c2).toBeCloseTo(0.5, 10);
  });

  it.each([1, 2, 4])('with b = %i is unbiased with variance P_b(1−P_b)/(k(1−C_2)^2) (J = 0.5, k = 128)', (bits) => {
    const k = 128;
    const p = plantedPair(60, 30, 30, 77n);
    const xs = estimates(p, 'k-permutation', k, bits);
    // clamping to [0, 1] only matters far in the tails for these parameters
    const [mean, variance] = meanAndVariance(xs);
    const J = p.jaccard;
    const c = 2 ** -bits;
    const pb = c + (1 - c) * J;
    const sigma2 = (pb * (1 - pb)) / (k * (1 - c) ** 2);
    expect(Math.abs(mean - J)).toBeLessThanOrEqual(Z * Math.sqrt(sigma2 / TRIALS));
    const [lo, hi] = varianceBounds(sigma2, TRIALS);
    expect(variance).toBeGreaterThanOrEqual(lo);
    expect(variance).toBeLessThanOrEqual(hi);
  });
});

describe('one-permutation hashing with optimal densification', () => {
  const k = 64;

  it('is unbiased on dense sets (1,000 elements, 64 bins), with no more variance than k-permutation', () => {
    const p = plantedPair(500, 250, 250, 9n);
    const [mean, variance] = meanAndVariance(estimates(p, 'one-permutation', k, null));
    const J = p.jaccard;
    // unbiased: a t-test of the mean with the sample's own variance
    expect(Math.abs(mean - J)).toBeLessThanOrEqual(Z * Math.sqrt(variance / TRIALS));
    expect(variance).toBeLessThanOrEqual(varianceBounds((J * (1 - J)) / k, TRIALS)[1]);
  });

  // With fewer elements than bins most bins are empty and borrow: every slot still collides
  // with probability J (densification keeps the LSH property), but the k slots hold at most
  // |A ∪ B| distinct minima, so the variance exceeds J(1 − J)/k; only the mean is asserted.
  it.each([
    ['sparse sets (40 elements, 64 bins)', 20, 10, 10],
    ['very sparse sets (6 elements, 64 bins)', 3, 3, 3],
  ] as const)('is unbiased on %s', (_name, c, a, b) => {
    const p = plantedPair(c, a, b, BigInt(c * 7 + 1));
    const [mean, variance] = meanAndVariance(estimates(p, 'one-permutation', k, null));
    expect(Math.abs(mean - p.jaccard)).toBeLessThanOrEqual(Z * Math.sqrt(variance / TRIALS));
  });

  it('without densification would be biased on sparse sets: empty bins agree by default', () => {
    // The estimate counts equal slots; two empty bins would both hold p and "match". Densified
    // signatures hold no p at all.
    const p = plantedPair(3, 3, 3, 22n);
    const v = signPair(p, 'one-permutation', k, null, 5);
    for (let i = 0; i < 2 * k; i++) expect(v[2 * i] === 0x1fffffff && v[2 * i + 1] === 0xffffffff).toBe(false);
  });
});
