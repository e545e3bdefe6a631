import { describe, expect, it } from 'vitest';
import { chooseFit, fitLinear, fitPower, fittedAt, formula, logResidualRms, predict } from '../../../../harness/mapreduce/emr/curve-fit.ts';

// Worked by hand: x̄ = 2.5, ȳ = 4, Sxx = 5, Sxy = 7, so b = 1.4 and a = 0.5; residuals
// 0.1, −0.3, 0.3, −0.1, RSS = 0.2, s² = 0.2 / 2 = 0.1.
const LINE = [
  { x: 1, y: 2 },
  { x: 2, y: 3 },
  { x: 3, y: 5 },
  { x: 4, y: 6 },
];

describe('fitLinear', () => {
  it('gives the coefficients and standard errors worked by hand', () => {
    const f = fitLinear(LINE);
    expect(f.a).toBeCloseTo(0.5, 12);
    expect(f.b).toBeCloseTo(1.4, 12);
    expect(f.s).toBeCloseTo(Math.sqrt(0.1), 12);
    // SE(b) = √(s²/Sxx) = √0.02; SE(a) = √(s² (1/n + x̄²/Sxx)) = √(0.1 · 1.5)
    expect(f.seB).toBeCloseTo(Math.sqrt(0.02), 12);
    expect(f.seA).toBeCloseTo(Math.sqrt(0.15), 12);
  });

  it('refuses fewer than three points and a single size', () => {
    expect(() => fitLinear(LINE.slice(0, 2))).toThrow(/at least 3 points/);
    expect(() => fitLinear([{ x: 1, y: 1 }, { x: 1, y: 2 }, { x: 1, y: 3 }])).toThrow(/two sizes/);
  });
});

describe('predict', () => {
  it('gives the 90% prediction interval worked by hand at x = 10', () => {
    // ŷ = 14.5; s·√(1 + 1/4 + 7.5²/5) = √(0.1 · 12.5) = √1.25; t(0.95, 2 df) = 2.919986 (tables)
    const p = predict(fitLinear(LINE), 10, 0.9);
    expect(p.value).toBeCloseTo(14.5, 12);
    expect(p.high - p.value).toBeCloseTo(2.919986 * Math.sqrt(1.25), 5);
    expect(p.value - p.low).toBeCloseTo(2.919986 * Math.sqrt(1.25), 5);
  });

  it('widens with the level (t(0.975, 2 df) = 4.302653)', () => {
    const p = predict(fitLinear(LINE), 10, 0.95);
    expect(p.high - p.value).toBeCloseTo(4.302653 * Math.sqrt(1.25), 5);
  });

  it('never predicts a negative cost', () => {
    const p = predict(fitLinear(LINE), 0.001, 0.999);
    expect(p.low).toBe(0);
  });
});

// y = 3·x² · e^r with residuals r orthogonal to 1 and to ln x: the log-log fit recovers c = 3
// and k = 2 exactly, RSS = 4 · 0.01, s² = 0.02, Sxx = 5 (ln 2)².
const R = [0.1, -0.1, -0.1, 0.1];
const POWER = [1, 2, 4, 8].map((x, i) => ({ x, y: 3 * x * x * Math.exp(R[i] as number) }));

describe('fitPower', () => {
  it('recovers the exponent and factor, and the exponent’s standard error', () => {
    const f = fitPower(POWER);
    expect(Math.exp(f.a)).toBeCloseTo(3, 10);
    expect(f.b).toBeCloseTo(2, 10);
    expect(f.seB).toBeCloseTo(Math.sqrt(0.02 / (5 * Math.LN2 ** 2)), 12);
    expect(formula(f)).toBe('3·MB^2 (exponent ± 0.0912)');
  });

  it('predicts in log space: the median 3·x² and a symmetric interval in ln', () => {
    const f = fitPower(POWER);
    const p = predict(f, 16, 0.9);
    expect(p.value).toBeCloseTo(3 * 256, 6);
    // u − ū = 4 ln 2 − 1.5 ln 2 = 2.5 ln 2; the half width in ln is t · s · √(1 + 1/4 + 6.25/5)
    const half = 2.919986 * Math.sqrt(0.02) * Math.sqrt(1 + 0.25 + 6.25 / 5);
    expect(Math.log(p.high / p.value)).toBeCloseTo(half, 5);
    expect(Math.log(p.value / p.low)).toBeCloseTo(half, 5);
  });

  it('refuses a zero cost', () => {
    expect(() => fitPower([{ x: 1, y: 0 }, ...POWER])).toThrow(/positive/);
  });
});

describe('chooseFit', () => {
  it('takes the power law for costs that grow as a square', () => {
    const c = chooseFit(POWER);
    expect(c.fit.model).toBe('power');
    expect(c.power?.rmsLog).toBeCloseTo(0.1, 12);
    expect(c.linear.rmsLog).toBeGreaterThan(0.1);
  });

  it('takes the line for a fixed start-up plus a cost per MB', () => {
    const pts = [1, 2, 5, 10, 20, 50].map((x, i) => ({ x, y: 10 + 0.5 * x + (i % 2 ? 0.05 : -0.05) }));
    const c = chooseFit(pts);
    expect(c.fit.model).toBe('linear');
    expect(fittedAt(c.fit, 100)).toBeCloseTo(60, 0);
  });

  it('does not take a power law below 1, however well it fits: that is a start-up cost amortizing', () => {
    // y = 2·x^0.8 exactly: the power law fits perfectly, the line does not
    const pts = [1, 2, 4, 8].map((x) => ({ x, y: 2 * x ** 0.8 }));
    const c = chooseFit(pts);
    expect(c.power?.rmsLog).toBeCloseTo(0, 12);
    expect(c.linear.rmsLog).toBeGreaterThan(0);
    expect(c.fit.model).toBe('linear');
  });

  it('does not take a line that predicts a negative cost where it is asked', () => {
    // falling costs: the line crosses zero at x ≈ 11, the power law never does
    const pts = [{ x: 1, y: 10 }, { x: 2, y: 9.1 }, { x: 4, y: 7 }, { x: 8, y: 2.5 }];
    expect(chooseFit(pts).fit.model).toBe('linear');
    expect(chooseFit(pts, 20).fit.model).toBe('power');
  });

  it('measures residuals as ln(y / ŷ)', () => {
    const f = fitLinear(LINE);
    const expected = Math.sqrt([2 / 1.9, 3 / 3.3, 5 / 4.7, 6 / 6.1].reduce((t, q) => t + Math.log(q) ** 2, 0) / 4);
    expect(logResidualRms(f, LINE)).toBeCloseTo(expected, 12);
  });
});
