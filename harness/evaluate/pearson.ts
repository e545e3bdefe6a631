/**
 * Pearson's r (Nikkhoo equation 3.7), computed from centered sums.
 *
 * The thesis' form n·Σxy − Σx·Σy subtracts two nearly equal large numbers and loses every
 * significant digit when r ≈ 1, which is exactly the regime of good samplers. Centering on a
 * corrected mean (two passes plus the mean's rounding correction) keeps full precision.
 */

export type PearsonResult =
  | { readonly kind: 'ok'; readonly r: number }
  | { readonly kind: 'empty' }
  | { readonly kind: 'constant'; readonly which: 'x' | 'y' | 'both' };

/** r of the first `n` elements of x and y (n defaults to x.length). */
export function pearson(x: Float64Array, y: Float64Array, n: number = x.length): PearsonResult {
  if (n > x.length || n > y.length) throw new Error(`pearson: n = ${n} exceeds the data (${x.length}, ${y.length})`);
  if (n === 0) return { kind: 'empty' };
  // Exact test: a mean computed in floating point need not equal constant data, so centered
  // sums of constant data can be tiny non-zero noise that would yield a meaningless r.
  const xConstant = isConstant(x, n);
  const yConstant = isConstant(y, n);
  if (xConstant || yConstant) return { kind: 'constant', which: xConstant ? (yConstant ? 'both' : 'x') : 'y' };
  const mx = correctedMean(x, n);
  const my = correctedMean(y, n);
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  // √(Sxx·Syy) rather than √Sxx·√Syy: for identical data √(fl(s²)) is exactly s, so r is exactly 1.
  const r = sxy / Math.sqrt(sxx * syy);
  return { kind: 'ok', r: Math.min(1, Math.max(-1, r)) };
}

function isConstant(v: Float64Array, n: number): boolean {
  const first = v[0]!;
  for (let i = 1; i < n; i++) if (v[i] !== first) return false;
  return true;
}

function correctedMean(v: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += v[i]!;
  const mean = sum / n;
  let residual = 0;
  for (let i = 0; i < n; i++) residual += v[i]! - mean;
  return mean + residual / n;
}
