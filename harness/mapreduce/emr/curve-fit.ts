/**
 * A cost curve fitted by least squares, with its uncertainty: CPU-seconds y against megabytes x,
 * either linear (y = a + b·x: a fixed start-up cost plus a cost per MB) or a power law
 * (y = c·x^k, fitted as a line in log-log). Pure arithmetic; the coefficients come from
 * simple-statistics, the Student-t quantile of the prediction interval from jStat.
 *
 * Which of the two is used is decided by the relative residuals, ln(y / ŷ): a cost is judged
 * by how many times it is off, not by how many seconds, and the points of a curve span orders
 * of magnitude, where absolute residuals would let the largest point alone decide. Only a model
 * that can be extrapolated competes: a power law with an exponent below 1 says that every
 * further MB gets cheaper without end, which at small sizes is a fixed start-up cost being
 * amortized (the line's intercept says that explicitly), and a line that predicts a cost ≤ 0
 * where it is asked says nothing.
 */
import jstat from 'jstat';
import { linearRegression } from 'simple-statistics';

export interface CurveSample {
  /** megabytes of document text */
  readonly x: number;
  /** CPU-seconds */
  readonly y: number;
}

/** The least-squares line through (u, v), with what its prediction interval needs. */
interface LineFit {
  /** intercept and slope */
  readonly a: number;
  readonly b: number;
  readonly seA: number;
  readonly seB: number;
  /** residual standard error, on n − 2 degrees of freedom */
  readonly s: number;
  readonly n: number;
  readonly uMean: number;
  /** Σ (u − ū)² */
  readonly suu: number;
}

export interface LinearFit extends LineFit {
  readonly model: 'linear';
}

/** A line in (ln x, ln y): y = e^a · x^b. */
export interface PowerFit extends LineFit {
  readonly model: 'power';
}

export type CurveFit = LinearFit | PowerFit;

export interface Prediction {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

function line(us: readonly number[], vs: readonly number[]): LineFit {
  const n = us.length;
  if (n < 3) throw new Error(`a curve with uncertainty needs at least 3 points, got ${n}`);
  const uMean = us.reduce((t, u) => t + u, 0) / n;
  const suu = us.reduce((t, u) => t + (u - uMean) ** 2, 0);
  if (!(suu > 0)) throw new Error('a curve needs points at two sizes at least');
  const { m: b, b: a } = linearRegression(us.map((u, i) => [u, vs[i] as number]));
  const rss = us.reduce((t, u, i) => t + ((vs[i] as number) - (a + b * u)) ** 2, 0);
  const s = Math.sqrt(rss / (n - 2));
  return { a, b, s, n, uMean, suu, seB: s / Math.sqrt(suu), seA: s * Math.sqrt(1 / n + uMean ** 2 / suu) };
}

export function fitLinear(points: readonly CurveSample[]): LinearFit {
  return { model: 'linear', ...line(points.map((p) => p.x), points.map((p) => p.y)) };
}

export function fitPower(points: readonly CurveSample[]): PowerFit {
  for (const p of points) if (!(p.x > 0 && p.y > 0)) throw new Error(`a power law needs positive sizes and costs, got (${p.x}, ${p.y})`);
  return { model: 'power', ...line(points.map((p) => Math.log(p.x)), points.map((p) => Math.log(p.y))) };
}

/** The fitted value at x (for a power law, the median of the log-normal prediction). */
export function fittedAt(fit: CurveFit, x: number): number {
  return fit.model === 'linear' ? fit.a + fit.b * x : Math.exp(fit.a + fit.b * Math.log(x));
}

/**
 * The two-sided prediction interval at x for a new measurement: ŷ ± t(n−2) · s · √(1 + 1/n +
 * (u − ū)²/Σ(u − ū)²), in the fit's own scale (log for a power law, then exponentiated). A
 * linear interval's low end is cut at 0: a cost is never negative.
 */
export function predict(fit: CurveFit, x: number, level = 0.9): Prediction {
  const u = fit.model === 'linear' ? x : Math.log(x);
  const t = jstat.jStat.studentt.inv(1 - (1 - level) / 2, fit.n - 2);
  const half = t * fit.s * Math.sqrt(1 + 1 / fit.n + (u - fit.uMean) ** 2 / fit.suu);
  const mid = fit.a + fit.b * u;
  if (fit.model === 'linear') return { value: mid, low: Math.max(0, mid - half), high: mid + half };
  return { value: Math.exp(mid), low: Math.exp(mid - half), high: Math.exp(mid + half) };
}

/** Root mean square of ln(y / ŷ) over the points; Infinity when the fit gives a cost ≤ 0 at one of them. */
export function logResidualRms(fit: CurveFit, points: readonly CurveSample[]): number {
  let sum = 0;
  for (const p of points) {
    const f = fittedAt(fit, p.x);
    if (!(f > 0)) return Infinity;
    sum += Math.log(p.y / f) ** 2;
  }
  return Math.sqrt(sum / points.length);
}

export interface ChosenFit {
  readonly fit: CurveFit;
  readonly linear: { readonly fit: LinearFit; readonly rmsLog: number };
  readonly power: { readonly fit: PowerFit; readonly rmsLog: number } | null;
}

/**
 * Both models, and the one with the smaller relative residuals among those that can be
 * extrapolated: a power law only with an exponent of 1 or more, a line only when it predicts a
 * positive cost at `atX`. When the line cannot, the power law is all there is.
 */
export function chooseFit(points: readonly CurveSample[], atX?: number): ChosenFit {
  const linear = fitLinear(points);
  const linearRms = logResidualRms(linear, points);
  const power = points.every((p) => p.x > 0 && p.y > 0) ? fitPower(points) : null;
  const powerRms = power ? logResidualRms(power, points) : Infinity;
  const linearUsable = atX === undefined || fittedAt(linear, atX) > 0;
  const fit = power && (!linearUsable || (power.b >= 1 && powerRms < linearRms)) ? power : linear;
  return { fit, linear: { fit: linear, rmsLog: linearRms }, power: power ? { fit: power, rmsLog: powerRms } : null };
}

/** The fit as a formula people read, e.g. `0.41 + 0.052·MB` or `0.032·MB^1.12`. */
export function formula(fit: CurveFit): string {
  const g = (v: number): string => Number(v.toPrecision(3)).toString();
  return fit.model === 'linear'
    ? `${g(fit.a)} ${fit.b < 0 ? '−' : '+'} ${g(Math.abs(fit.b))}·MB (± ${g(fit.seA)}, ± ${g(fit.seB)})`
    : `${g(Math.exp(fit.a))}·MB^${g(fit.b)} (exponent ± ${g(fit.seB)})`;
}
