import { describe, expect, it } from 'vitest';
import type { CostCurves } from '../../../../harness/mapreduce/emr/cost-curves.ts';
import { DEFAULT_SPOT_RATIO, estimateEmrRun, estimateLines, STARTUP_S, type EmrEstimateInput } from '../../../../harness/mapreduce/emr/estimate.ts';
import type { PriceTable } from '../../../../harness/mapreduce/emr/prices.ts';

const MB = 1024 * 1024;
const PRICES: PriceTable = {
  description: 'test',
  fetchedAt: '2026-11-22',
  currency: 'USD',
  unit: 'per instance-hour',
  source: { method: 'snapshot', ec2: 'x', emr: 'x', note: 'x' },
  regions: {
    'us-east-1': {
      'm5.xlarge': { ec2: 0.192, emr: 0.048, vcpu: 4, memoryGiB: 16 },
      'c5.2xlarge': { ec2: 0.34, emr: 0.085, vcpu: 8, memoryGiB: 16 },
    },
  },
};
const SCT = { sampling: { method: 'sct', threshold: 70 }, shingle: { size: 64, unit: 'char' } };
// CPU-s 2, 3, 5, 6 at 1–4 MB: the line 0.5 + 1.4·MB, at 10 MB 14.5 ± 2.919986·√1.25 (curve-fit.test.ts)
const CURVES: CostCurves = {
  description: 'test',
  measured: 'by hand',
  points: [2, 3, 5, 6].map((cpu, i) => ({ variant: 'broder/sct=70', algorithm: 'broder', params: SCT, documents: 100 * (i + 1), text_bytes: (i + 1) * MB, cpu_s: cpu, run: `t/${i}` })),
};
const HALF = 2.919986 * Math.sqrt(1.25);

function input(over: Partial<EmrEstimateInput> = {}): EmrEstimateInput {
  return {
    region: 'us-east-1',
    nodes: [
      { role: 'master', type: 'm5.xlarge', count: 1 },
      { role: 'core', type: 'm5.xlarge', count: 2 },
    ],
    // the same parameters, keys in another order
    variants: [{ variant: 'sct70', algorithm: 'broder', params: { shingle: { unit: 'char', size: 64 }, sampling: { threshold: 70, method: 'sct' } } }],
    documents: { count: 1000, textBytes: 10 * MB, exact: false },
    curves: CURVES,
    curvesFile: 'curves.json',
    prices: PRICES,
    ...over,
  };
}

describe('estimateEmrRun', () => {
  it('predicts the variant’s CPU from its curve, whatever the order of its parameters’ keys', () => {
    const e = estimateEmrRun(input());
    const v = e.variants[0];
    expect(v?.curve?.model).toBe('linear');
    expect(v?.cpuS?.value).toBeCloseTo(14.5, 9);
    expect(v?.cpuS?.high).toBeCloseTo(14.5 + HALF, 5);
    expect(v?.curve?.extrapolation).toBeCloseTo(2.5, 12);
  });

  it('divides the CPU among the core vCPUs and adds the start-up', () => {
    const e = estimateEmrRun(input());
    expect(e.vcpus).toBe(8);
    expect(e.hours.value).toBeCloseTo(14.5 / (8 * 3600) + STARTUP_S / 3600, 12);
    expect(e.hours.low).toBeCloseTo((14.5 - HALF) / (8 * 3600) + STARTUP_S / 3600, 8);
  });

  it('prices on demand: every instance at EC2 + EMR', () => {
    const e = estimateEmrRun(input());
    expect(e.onDemand.usdPerHour).toBeCloseTo(3 * 0.24, 12);
    expect(e.onDemand.usd.value).toBeCloseTo(3 * 0.24 * e.hours.value, 12);
  });

  it('prices spot at the stated default: master on demand, core EC2 at the ratio, the EMR fee unchanged', () => {
    const e = estimateEmrRun(input());
    expect(e.spot.usdPerHour).toBeCloseTo(0.24 + 2 * (0.192 * DEFAULT_SPOT_RATIO + 0.048), 12);
    expect(e.spot.source).toMatch(/stated default/);
  });

  it('prices spot from given prices and counts task vCPUs', () => {
    const e = estimateEmrRun(
      input({
        nodes: [
          { role: 'master', type: 'm5.xlarge', count: 1 },
          { role: 'core', type: 'm5.xlarge', count: 2 },
          { role: 'task', type: 'c5.2xlarge', count: 3 },
        ],
        spot: { usdPerHour: { 'm5.xlarge': 0.07, 'c5.2xlarge': 0.13 }, source: 'history' },
      }),
    );
    expect(e.vcpus).toBe(8 + 24);
    expect(e.spot.usdPerHour).toBeCloseTo(0.24 + 2 * (0.07 + 0.048) + 3 * (0.13 + 0.085), 12);
    expect(e.onDemand.usdPerHour).toBeCloseTo(3 * 0.24 + 3 * 0.425, 12);
  });

  it('leaves out a variant without a curve and says why', () => {
    const e = estimateEmrRun(input({ variants: [...input().variants, { variant: 'mod', algorithm: 'broder', params: { sampling: { method: 'mod', m: 4 } } }] }));
    expect(e.missing).toEqual(['mod']);
    expect(e.variants[1]?.missing).toMatch(/^0 points at 0 sizes in curves.json/);
    expect(e.hours.value).toBeCloseTo(14.5 / (8 * 3600) + STARTUP_S / 3600, 12);
    expect(estimateLines(e).join('\n')).toMatch(/mod: not estimated/);
  });

  it('refuses a cluster with no core or task vCPUs', () => {
    expect(() => estimateEmrRun(input({ nodes: [{ role: 'master', type: 'm5.xlarge', count: 1 }] }))).toThrow(/no core or task vCPUs/);
  });

  it('says hours and dollars on demand and spot on its first line', () => {
    const first = estimateLines(estimateEmrRun(input()))[0] ?? '';
    expect(first).toMatch(/^EMR estimate: 10 min \(10 min–10 min\) on 8 vCPUs for 1,000 documents, 10 MB \(assumed\): on demand \$0\.12 .* spot \$0\.08 /);
  });
});

describe('estimateEmrRun: configured markets', () => {
  it('prices only the roles the fleets put on spot, and says so', () => {
    const e = estimateEmrRun(
      input({
        nodes: [
          { role: 'master', type: 'm5.xlarge', count: 1, market: 'ON_DEMAND' },
          { role: 'core', type: 'm5.xlarge', count: 2, market: 'ON_DEMAND' },
          { role: 'task', type: 'c5.2xlarge', count: 3, market: 'SPOT' },
        ],
      }),
    );
    expect(e.spot.roles).toEqual(['task']);
    expect(e.spot.configured).toBe(true);
    expect(e.spot.usdPerHour).toBeCloseTo(3 * 0.24 + 3 * (0.34 * DEFAULT_SPOT_RATIO + 0.085), 12);
    expect(estimateLines(e)[1]).toContain('task on spot, as configured');
  });
});
