/**
 * Planted pairs for the statistical tests (a helper, not a test file): two sets of random
 * 64-bit fingerprints with a chosen intersection, so that their Jaccard is known exactly, and
 * the tolerances the sampling distributions give (not tuned to any output).
 */
import { HashKernel } from '../../../algorithms/minhash/hash-kernel.ts';
import { densifyHash, permutationWords, SplitMix64 } from '../../../algorithms/minhash/permutations.ts';
import { residuesOf, signatures, type SketchKind } from '../../../algorithms/minhash/sketch.ts';

export interface PlantedPair {
  /** both sets' fingerprints as 2 words each, set A then set B */
  readonly words: Uint32Array;
  readonly sizeA: number;
  readonly sizeB: number;
  readonly jaccard: number;
}

/** A = common ∪ onlyA, B = common ∪ onlyB, elements distinct random 64-bit values. */
export function plantedPair(common: number, onlyA: number, onlyB: number, seed: bigint): PlantedPair {
  const g = new SplitMix64(seed);
  const fresh = (n: number): bigint[] => Array.from({ length: n }, () => g.next());
  const shared = fresh(common);
  const a = [...shared, ...fresh(onlyA)];
  const b = [...shared, ...fresh(onlyB)];
  const words = new Uint32Array(2 * (a.length + b.length));
  [...a, ...b].forEach((v, i) => {
    words[2 * i] = Number(v >> 32n);
    words[2 * i + 1] = Number(v & 0xffffffffn);
  });
  return { words, sizeA: a.length, sizeB: b.length, jaccard: common / (common + onlyA + onlyB) };
}

const kernel = new HashKernel();

/** Signatures (2 words a slot) of both sets with the hash functions of `seed`. */
export function signPair(p: PlantedPair, kind: SketchKind, k: number, bits: number | null, seed: number): Uint32Array {
  const sketch = { kind, k, bits, perms: permutationWords(seed, kind === 'k-permutation' ? k : 1), densify: densifyHash(seed) };
  const residues = residuesOf(p.words, p.sizeA + p.sizeB, 2);
  return signatures({ residues, starts: Uint32Array.of(0, p.sizeA, p.sizeA + p.sizeB) }, sketch, kernel).values;
}

/** Two-sided normal quantile for a false alarm probability of 10^−4 per bound. */
export const Z = 3.89;

/**
 * Bounds on a sample variance s² of T independent draws with variance σ²: (T − 1)s²/σ² is
 * χ² with T − 1 degrees of freedom, whose quantiles the Wilson–Hilferty approximation gives.
 */
export function varianceBounds(sigma2: number, trials: number): [number, number] {
  const nu = trials - 1;
  const q = (z: number): number => nu * (1 - 2 / (9 * nu) + z * Math.sqrt(2 / (9 * nu))) ** 3;
  return [(sigma2 * q(-Z)) / nu, (sigma2 * q(Z)) / nu];
}

export function meanAndVariance(xs: readonly number[]): [number, number] {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1);
  return [mean, variance];
}
