import { describe, expect, it } from 'vitest';
import type { CurvePoint } from '../../../harness/evaluate/judgments.ts';
import { clustersSection, judgmentsSection } from '../../../harness/report/second-truth-figures.ts';
import { editedRun, loadRun, RUN_A } from './fixture-runs.ts';

const ids = (): (() => string) => {
  let n = 0;
  return () => `c${++n}`;
};

// The fixture run with judged measures and curves: the ground truth at P 0.8, R 1, its best F1 0.9 at RR 0.45.
const judged = editedRun(loadRun(RUN_A), (r) => {
  for (const v of r.variants) {
    Object.assign(v.measures, { judged_pairs: 10, judged_precision: v.ground_truth ? 0.8 : 0.5, judged_recall: 1, judged_f1: 0.5, judged_best_f1: v.ground_truth ? 0.9 : 0.6, judged_best_threshold: v.ground_truth ? 0.45 : 0.7 });
  }
});
const truth = judged.variants.find((v) => v.ground_truth)?.name as string;
const other = judged.variants.find((v) => !v.ground_truth)?.name as string;
const curve: CurvePoint[] = [
  { threshold: 0.9, decided: 1, precision: 1, recall: 0.25, f1: 0.4 },
  { threshold: 0.5, decided: 4, precision: 0.75, recall: 0.75, f1: 0.75 },
  { threshold: 0.2, decided: 6, precision: 0.5, recall: null, f1: null },
];

describe('the report against human judgments', () => {
  it("says how the ground truth agrees with the judges, and draws each variant's curve, the truth first", () => {
    const s = judgmentsSection(judged, new Map([[other, curve], [truth, curve]]), ids());
    expect(s?.note).toContain('The ground truth (RR ≥ 0.5) agrees with the judges at precision 0.800 and recall 1; its best F1 on them, 0.900, is at RR ≥ 0.450.');
    const xy = s?.charts.find((c) => c.type === 'xy');
    expect(xy?.series.map((x) => x.label)).toEqual([truth, other]);
    // A point without a recall (no judged duplicates) is left out.
    const first = xy?.series[0];
    expect(first?.kind === 'points' && first.points).toEqual([
      { x: 0.25, y: 1 },
      { x: 0.75, y: 0.75 },
    ]);
  });

  it('has no section without judged measures', () => {
    expect(judgmentsSection(loadRun(RUN_A), new Map(), ids())).toBeUndefined();
    expect(clustersSection(loadRun(RUN_A), ids())).toBeUndefined();
  });
});
