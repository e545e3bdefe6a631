import { describe, expect, it } from 'vitest';
import { UserError, DataError } from '../../../../harness/errors.ts';
import { baselineFromRuns, parseBaseline } from '../../../../harness/report/regression/baseline.ts';
import { editedRun, loadRun, RUN_A, RUN_B } from '../fixture-runs.ts';

const a = loadRun(RUN_A);
const b = loadRun(RUN_B);
const label = (i: number): string => `run${i}`;
const now = new Date('2025-11-22T12:00:00Z');

describe('baselineFromRuns', () => {
  it('keeps the quality of every variant and one timing sample per run', () => {
    const base = baselineFromRuns([a, b], label, now);
    expect(base.experiment).toBe('tiny-sct');
    expect(base.runs).toEqual([a.run_id, b.run_id]);
    expect(Object.keys(base.variants)).toEqual(a.variants.map((v) => v.name));
    const sct2a = a.variants.find((v) => v.name === 'broder/sct=2');
    const sct2b = b.variants.find((v) => v.name === 'broder/sct=2');
    expect(base.variants['broder/sct=2']?.quality.f1_pairs).toBe(sct2a?.measures.f1_pairs);
    expect(base.variants['broder/sct=2']?.quality.pairs).toBe(sct2a?.measures.pairs);
    // Broder's own measures are compared exactly too; timings and memory are not quality
    expect(base.variants['broder/sct=2']?.quality.mr1_reduction_pct).toBe(sct2a?.measures.mr1_reduction_pct);
    expect(Object.keys(base.variants['broder/sct=2']?.quality ?? {})).not.toContain('peak_rss_mb');
    expect(base.variants['broder/sct=2']?.timings.runtime_s).toEqual([sct2a?.measures.runtime_s, sct2b?.measures.runtime_s]);
  });

  it('refuses runs whose quality differs: a baseline needs deterministic repetitions', () => {
    const drifted = editedRun(b, (r) => {
      const v = r.variants[2];
      if (v) v.measures.recall_docs = 0.5;
    });
    expect(() => baselineFromRuns([a, drifted], label, now)).toThrow(UserError);
    expect(() => baselineFromRuns([a, drifted], label, now)).toThrow(/run1: variant broder\/sct=3: recall_docs is 0.5, run0 has 1/);
  });

  it('refuses runs of different experiments', () => {
    const other = editedRun(b, (r) => {
      r.experiment = 'other';
    });
    expect(() => baselineFromRuns([a, other], label, now)).toThrow(/run1: experiment is "other"/);
  });

  it('round-trips through JSON and parseBaseline', () => {
    const base = baselineFromRuns([a], label, now);
    expect(parseBaseline(JSON.stringify(base), 'b.json')).toEqual(base);
  });
});

describe('parseBaseline', () => {
  it('names the file and the field of a malformed baseline', () => {
    const base = baselineFromRuns([a], label, now) as unknown as { variants: Record<string, { timings: { runtime_s: unknown } }> };
    const v = base.variants['broder/sct=4'];
    if (v) v.timings.runtime_s = 'fast';
    expect(() => parseBaseline(JSON.stringify(base), 'results/baselines/x.json')).toThrow(DataError);
    expect(() => parseBaseline(JSON.stringify(base), 'results/baselines/x.json')).toThrow(/^results\/baselines\/x\.json: variants\.broder\/sct=4\.timings\.runtime_s: /);
  });

  it('names the file of invalid JSON', () => {
    expect(() => parseBaseline('{', 'b.json')).toThrow(/^b\.json: invalid JSON/);
  });
});
