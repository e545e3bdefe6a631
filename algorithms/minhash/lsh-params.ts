/**
 * Banded LSH (Indyk and Motwani 1998; Leskovec, Rajaraman and Ullman, Mining of Massive
 * Datasets, 3.4): the k slots of a signature are cut into b bands of r rows, and two documents
 * are candidates when all r rows of at least one band agree. With slot agreement probability J,
 * a pair becomes a candidate with probability 1 − (1 − J^r)^b, an S-curve in J.
 *
 * Choosing b and r for a threshold t as datasketch's `MinHashLSH` does (`_optimal_param`):
 * among b = 1..k and r = 1..⌊k/b⌋, minimize w_fp·FP + w_fn·FN where
 *   FP = ∫_0^t 1 − (1 − s^r)^b ds   (the area under the S-curve left of t)
 *   FN = ∫_t^1 (1 − s^r)^b ds       (the area above it right of t),
 * the first (b, r) in that order with the least weighted sum. datasketch integrates with
 * scipy's adaptive Gauss–Kronrod (QUADPACK); so does `integrate` here, to 1e-13, far finer than
 * the differences between neighbouring (b, r).
 */

export function candidateProbability(j: number, bands: number, rows: number): number {
  return 1 - (1 - j ** rows) ** bands;
}

export function falsePositiveArea(t: number, bands: number, rows: number): number {
  return integrate((s) => 1 - (1 - s ** rows) ** bands, 0, t);
}

export function falseNegativeArea(t: number, bands: number, rows: number): number {
  return integrate((s) => (1 - s ** rows) ** bands, t, 1);
}

export interface BandsRows {
  readonly bands: number;
  readonly rows: number;
}

/** datasketch's choice of (b, r) for threshold t, k slots and the weights of FP and FN. */
export function optimalBandsRows(t: number, k: number, falsePositiveWeight: number, falseNegativeWeight: number): BandsRows {
  let best = Infinity;
  let opt: BandsRows = { bands: 0, rows: 0 };
  for (let b = 1; b <= k; b++) {
    const maxR = Math.floor(k / b);
    for (let r = 1; r <= maxR; r++) {
      const error = falsePositiveArea(t, b, r) * falsePositiveWeight + falseNegativeArea(t, b, r) * falseNegativeWeight;
      if (error < best) {
        best = error;
        opt = { bands: b, rows: r };
      }
    }
  }
  return opt;
}

// Gauss–Kronrod 7–15 nodes and weights on [−1, 1] (Kronrod 1965; the values QUADPACK's QK15 uses).
const XGK = [
  0.9914553711208126, 0.9491079123427585, 0.8648644233597691,
  0.7415311855993945, 0.5860872354676911, 0.4058451513773972,
  0.20778495500789848, 0,
];
const WGK = [
  0.022935322010529224, 0.06309209262997856, 0.10479001032225019,
  0.14065325971552592, 0.1690047266392679, 0.19035057806478542,
  0.20443294007529889, 0.20948214108472782,
];
const WG = [0.1294849661688697, 0.27970539148927664, 0.3818300505051189, 0.4179591836734694];

/** ∫_a^b f by adaptive bisection with the 15-point Kronrod rule, to about 1e-13 absolute. */
export function integrate(f: (x: number) => number, a: number, b: number): number {
  if (a >= b) return 0;
  return adapt(f, a, b, 1e-13, 0);
}

function adapt(f: (x: number) => number, a: number, b: number, tol: number, depth: number): number {
  const [k, g] = kronrod(f, a, b);
  if (Math.abs(k - g) <= tol || depth >= 30) return k;
  const m = (a + b) / 2;
  return adapt(f, a, m, tol / 2, depth + 1) + adapt(f, m, b, tol / 2, depth + 1);
}

/** The 15-point Kronrod and embedded 7-point Gauss estimates of ∫_a^b f. */
function kronrod(f: (x: number) => number, a: number, b: number): [number, number] {
  const c = (a + b) / 2;
  const h = (b - a) / 2;
  const fc = f(c);
  let k = fc * (WGK[7] as number);
  let g = fc * (WG[3] as number);
  for (let i = 0; i < 7; i++) {
    const dx = h * (XGK[i] as number);
    const s = f(c - dx) + f(c + dx);
    k += (WGK[i] as number) * s;
    if (i % 2 === 1) g += (WG[(i - 1) / 2] as number) * s;
  }
  return [k * h, g * h];
}
