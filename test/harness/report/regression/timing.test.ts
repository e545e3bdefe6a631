import { describe, expect, it } from 'vitest';
import { compareTimings, DEFAULT_TIMING } from '../../../../harness/report/regression/timing.ts';

const base5 = [1.0, 1.02, 0.98, 1.01, 0.99];

describe('compareTimings', () => {
  it('flags a 2× slowdown with 5 samples a side as a regression', () => {
    const r = compareTimings(base5, [2.01, 1.98, 2.03, 2.0, 1.97]);
    // medians 1.00 and 2.00; complete separation: U = 25, z = 12.5/√(25·11/12) = 2.611, p = 0.0090.
    expect(r.ratio).toBeCloseTo(2.0, 10);
    expect(r.test.kind === 'mann-whitney' && r.test.p).toBeCloseTo(0.009, 3);
    expect(r.verdict).toBe('regressed');
  });

  it('flags a 2× speed-up as an improvement', () => {
    expect(compareTimings(base5, [0.5, 0.49, 0.51, 0.52, 0.48]).verdict).toBe('improved');
  });

  it('calls noise without a slowdown unchanged', () => {
    expect(compareTimings([1.0, 1.1, 0.95, 1.05, 0.97], [1.02, 0.96, 1.08, 0.99, 1.04]).verdict).toBe('unchanged');
  });

  it('does not flag a large ratio of medians that the test cannot tell from noise', () => {
    // medians 1.2 → 2.0 (ratio 1.67), but the samples interleave: U = 14.5 of 25, z = 0.42, p = 0.68.
    const r = compareTimings([1.0, 2.9, 1.1, 3.0, 1.2], [1.9, 1.0, 3.1, 2.0, 2.8]);
    expect(r.ratio).toBeCloseTo(2.0 / 1.2, 10);
    expect(r.test.kind === 'mann-whitney' && r.test.p).toBeGreaterThan(0.5);
    expect(r.verdict).toBe('unchanged');
  });

  it('does not flag a significant but small slowdown (below the factor)', () => {
    const r = compareTimings(base5, base5.map((x) => x * 1.2));
    expect(r.test.kind === 'mann-whitney' && r.test.p).toBeLessThan(0.05);
    expect(r.verdict).toBe('unchanged');
  });

  it('decides by the factor alone with fewer than 3 samples a side', () => {
    // medians 1.05 and 1.65: ratio 1.571 ≥ 1.5
    const r = compareTimings([1.0, 1.1], [1.6, 1.7]);
    expect(r.test.kind).toBe('factor-only');
    expect(r.verdict).toBe('regressed');
    expect(compareTimings([1.0], [1.4]).verdict).toBe('unchanged');
  });

  it('honours a custom minimum factor', () => {
    expect(compareTimings([1.0], [1.4], { ...DEFAULT_TIMING, minFactor: 1.3 }).verdict).toBe('regressed');
  });

  it('calls a change of the medians below minDelta unchanged, however large its ratio', () => {
    // 0.09 s → 0.14 s is ×1.56 but 0.05 s apart: scheduler noise on a short variant
    expect(compareTimings([0.09], [0.14]).verdict).toBe('unchanged');
    expect(compareTimings([0.09], [0.14], { ...DEFAULT_TIMING, minDelta: 0.01 }).verdict).toBe('regressed');
    // 1 s → 2 s is 1 s apart: still a regression on one sample each
    expect(compareTimings([1], [2]).verdict).toBe('regressed');
  });
});
