/** Choosing the adaptive plan from calibration outcomes (Ye et al. section 6), worked by hand. */
import { describe, expect, it } from 'vitest';
import { meetsTarget, planForTarget } from '../../../algorithms/broder/adaptive-target.ts';
import type { GroupOutcome } from '../../../contract/index.ts';

const o = (dupPairs: number, resPairs: number, bothPairs: number): GroupOutcome => ({
  dupPairs,
  resPairs,
  bothPairs,
  precision: resPairs > 0 ? bothPairs / resPairs : null,
  recall: dupPairs > 0 ? bothPairs / dupPairs : null,
});

describe('the adaptive plan for a precision target', () => {
  // Three groups, calibration at m = 2, 4, 8. Precision per group:
  //            g0 (small)   g1          g2 (large)
  //   m = 2    9/10 = .9    10/10 = 1   no pairs at all
  //   m = 4    7/10 = .7    10/11 = .91 no pairs at all
  //   m = 8    4/10 = .4    10/12 = .83 no pairs at all
  const outcomes = [
    [o(10, 10, 9), o(10, 10, 10), o(0, 0, 0)],
    [o(10, 10, 7), o(10, 11, 10), o(0, 0, 0)],
    [o(10, 10, 4), o(10, 12, 10), o(0, 0, 0)],
  ];
  // Fingerprints per group 100, 300, 600 (1,000 in all); kept at m = 2, 4, 8:
  const counts = {
    full: [100, 300, 600],
    kept: [
      [52, 149, 301],
      [27, 76, 148],
      [12, 38, 77],
    ],
  };

  it('takes per group the largest modulus that meets the target', () => {
    // target .8: g0 → m 2 (.9; m 4 gives .7), g1 → m 8 (.83), g2 → m 8 (nothing to find or get wrong)
    const p = planForTarget(0.8, [2, 4, 8], outcomes, counts);
    expect(p.moduli).toEqual([2, 8, 8]);
    // 52 + 38 + 77 of 1,000
    expect(p.sharePct).toBeCloseTo(16.7, 12);
    // one modulus for all: m = 2 is the largest meeting .8 in every group: 52 + 149 + 301
    expect(p.uniformM).toBe(2);
    expect(p.uniformSharePct).toBeCloseTo(50.2, 12);
  });

  it('keeps every fingerprint of a group no modulus satisfies', () => {
    // target .95: g0 fails at every m → 1 (all 100), g1 → m 2 (1.0), g2 → m 8
    const p = planForTarget(0.95, [2, 4, 8], outcomes, counts);
    expect(p.moduli).toEqual([1, 2, 8]);
    // 100 + 149 + 77 = 326 of 1,000
    expect(p.sharePct).toBeCloseTo(32.6, 12);
    expect(p.uniformM).toBe(1);
    expect(p.uniformSharePct).toBe(100);
  });

  it('does not let a run that misses every near-duplicate meet the target', () => {
    expect(meetsTarget(o(3, 0, 0), 0.5)).toBe(false);
    expect(meetsTarget(o(0, 0, 0), 0.99)).toBe(true);
    expect(meetsTarget(o(0, 2, 0), 0.5)).toBe(false);
    expect(meetsTarget(o(4, 4, 4), 1)).toBe(true);
  });
});
