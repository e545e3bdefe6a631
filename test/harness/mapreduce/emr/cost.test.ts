import { describe, expect, it } from 'vitest';
import { billedSeconds, clusterRatePerHour, groupIntervals, instancesCost, stepCost } from '../../../../harness/mapreduce/emr/cost.ts';

// m5.xlarge: EC2 0.192 + EMR 0.048 = 0.240 $/h (research doc §3.2)
const rate = (t: string): number => ({ 'm5.xlarge': 0.24, 'r5.2xlarge': 0.63 })[t] ?? NaN;
const MIN = 60_000;

describe('billedSeconds', () => {
  it('charges at least one minute', () => {
    expect(billedSeconds(0, 30_000)).toBe(60);
    expect(billedSeconds(5_000, 5_000)).toBe(60);
  });
  it('rounds a started second up', () => {
    expect(billedSeconds(0, 90_500)).toBe(91);
    expect(billedSeconds(0, 3_600_000)).toBe(3600);
  });
});

describe('instancesCost', () => {
  it('prices the research doc example: 1 + 4 m5.xlarge for 25 minutes = $0.50', () => {
    const iv = groupIntervals([{ type: 'm5.xlarge', count: 1 }, { type: 'm5.xlarge', count: 4 }], 0, 25 * MIN);
    expect(iv).toHaveLength(5);
    expect(instancesCost(iv, rate, 25 * MIN)).toBeCloseTo(0.5, 12);
  });
  it('applies the minute minimum per instance: 2 instances for 10 s cost 2 × 0.24/60', () => {
    const iv = groupIntervals([{ type: 'm5.xlarge', count: 2 }], 0, 10_000);
    expect(instancesCost(iv, rate, 10_000)).toBeCloseTo(0.008, 12);
  });
  it('cuts live instances at untilMs and skips instances not yet started', () => {
    const iv = [
      { instanceType: 'r5.2xlarge', startMs: 0, endMs: 1e12 },
      { instanceType: 'm5.xlarge', startMs: 10 * MIN, endMs: 1e12 },
    ];
    // only the r5: 0.63 $/h × 5 min
    expect(instancesCost(iv, rate, 5 * MIN)).toBeCloseTo(0.0525, 12);
  });
});

describe('stepCost and clusterRatePerHour', () => {
  it('charges a 10-minute step a sixth of the hourly rate, no minimum', () => {
    expect(stepCost(1.2, 0, 10 * MIN)).toBeCloseTo(0.2, 12);
    expect(stepCost(1.2, 0, 1000)).toBeCloseTo(1.2 / 3600, 12);
  });
  it('sums the rates of instances alive at the instant', () => {
    const iv = [
      { instanceType: 'm5.xlarge', startMs: 0, endMs: 100 },
      { instanceType: 'r5.2xlarge', startMs: 50, endMs: 200 },
    ];
    expect(clusterRatePerHour(iv, rate, 60)).toBeCloseTo(0.87, 12);
    expect(clusterRatePerHour(iv, rate, 150)).toBeCloseTo(0.63, 12);
  });
});
