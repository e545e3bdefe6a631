/**
 * Resemblance estimates from two signatures.
 *
 * Full values: each slot matches with probability J (Broder 1997), so R̂ = matches / k, with
 * variance J(1 − J)/k.
 *
 * b-bit values (Li and König 2010, Theorem 1): the lowest b bits of two minima also match by
 * chance when the minima differ, so P_b = C_1 + (1 − C_2)·R and R̂_b = (P̂_b − C_1)/(1 − C_2),
 * where with r_i = f_i / D (f_i the set sizes, D the size of the hashed universe, here p):
 *   A_i = r_i (1 − r_i)^(2^b − 1) / (1 − (1 − r_i)^(2^b)),
 *   C_1 = (A_1 r_2 + A_2 r_1)/(r_1 + r_2),  C_2 = (A_1 r_1 + A_2 r_2)/(r_1 + r_2).
 * For sets far smaller than D every A_i is 2^−b to many digits; the formula is kept whole
 * because it is the paper's estimator. The estimate is clamped to [0, 1]: a chance excess of
 * matches can put it slightly outside, and a score is a resemblance.
 */

/** The hashed universe: hash values are residues mod p = 2^61 − 1. */
const UNIVERSE = 2 ** 61 - 1;

/** Slots equal in both signatures (2 words a slot), k slots from slot `a` and slot `b`. */
export function matchingSlots(x: Uint32Array, a: number, y: Uint32Array, b: number, k: number): number {
  let m = 0;
  for (let i = 0; i < k; i++) {
    const p = 2 * (a + i);
    const q = 2 * (b + i);
    if (x[p + 1] === y[q + 1] && x[p] === y[q]) m++;
  }
  return m;
}

/** Li and König's A_{i,b} for r = f/D, computed without cancellation for tiny r. */
export function bBitA(r: number, bits: number): number {
  const l = Math.log1p(-r);
  const n = 2 ** bits;
  return (r * Math.exp((n - 1) * l)) / -Math.expm1(n * l);
}

/** C_{1,b} and C_{2,b} for sets of sizes fa and fb. */
export function bBitC(fa: number, fb: number, bits: number): [number, number] {
  const r1 = fa / UNIVERSE;
  const r2 = fb / UNIVERSE;
  const a1 = bBitA(r1, bits);
  const a2 = bBitA(r2, bits);
  return [(a1 * r2 + a2 * r1) / (r1 + r2), (a1 * r1 + a2 * r2) / (r1 + r2)];
}

/** The resemblance estimate from `matches` of k slots; sizes matter only for b-bit values. */
export function estimateResemblance(matches: number, k: number, bits: number | null, sizeA: number, sizeB: number): number {
  const p = matches / k;
  if (bits === null) return p;
  const [c1, c2] = bBitC(sizeA, sizeB, bits);
  return Math.min(1, Math.max(0, (p - c1) / (1 - c2)));
}
