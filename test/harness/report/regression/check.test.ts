import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../harness/errors.ts';
import type { RunRecord } from '../../../../harness/results/types.ts';
import { baselineFromRuns } from '../../../../harness/report/regression/baseline.ts';
import { checkRuns, formatCheckReport, regressionCount } from '../../../../harness/report/regression/check.ts';
import { DEFAULT_TIMING } from '../../../../harness/report/regression/timing.ts';
import { editedRun, loadRun, RUN_A } from '../fixture-runs.ts';

const a = loadRun(RUN_A);
const label = (i: number): string => `run${i}`;
const now = new Date('2025-11-22T12:00:00Z');
const opts = { ...DEFAULT_TIMING, qualityOnly: false };

/** Repetitions of the fixture run with every timing scaled by factors[i]. */
function repetitions(factors: readonly number[]): RunRecord[] {
  return factors.map((f, i) =>
    editedRun(a, (r) => {
      r.run_id = `rep-${i}`;
      for (const v of r.variants) {
        v.measures.runtime_s = (v.measures.runtime_s ?? 0) * f;
        v.measures.cpu_s = (v.measures.cpu_s ?? 0) * f;
      }
    }),
  );
}

const noise = [1.0, 1.03, 0.97, 1.01, 0.99];
const baseline = baselineFromRuns(repetitions(noise), label, now);

describe('checkRuns with planted regressions', () => {
  it('reports a quality drop with both values', () => {
    const dropped = editedRun(a, (r) => {
      const v = r.variants.find((x) => x.name === 'broder/sct=3');
      if (v) v.measures.recall_pairs = 0.75;
    });
    const r = checkRuns([dropped], baseline, 'base.json', label, opts);
    expect(r.quality).toEqual([{ variant: 'broder/sct=3', measure: 'recall_pairs', run: 'run0', baseline: 1, current: 0.75 }]);
    expect(regressionCount(r)).toBe(1);
    const text = formatCheckReport(r, 'base.json');
    expect(text).toMatch(/broder\/sct=3\s+recall_pairs\s+1\s+0\.75\s+run0\s+REGRESSION/);
    expect(text).toContain('FAILED: 1 regression.');
  });

  it('reports a 2× slowdown with 5 samples a side for every variant and both timings', () => {
    const r = checkRuns(repetitions(noise.map((x) => 2 * x)), baseline, 'base.json', label, opts);
    const regressed = r.timings.filter((t) => t.verdict === 'regressed');
    expect(regressed).toHaveLength(a.variants.length * 2);
    for (const t of regressed) {
      expect(t.ratio).toBeCloseTo(2, 6);
      expect(t.test.kind === 'mann-whitney' && t.test.p).toBeLessThan(0.05);
    }
    expect(r.quality).toEqual([]);
    expect(formatCheckReport(r, 'base.json')).toMatch(/broder\/sct=4\s+runtime_s\s+0\.318 \(n=5\)\s+0\.636 \(n=5\)\s+2\.00x\s+0\.0\d+\s+REGRESSION/);
  });

  it('passes noise without a slowdown', () => {
    const r = checkRuns(repetitions([1.02, 0.98, 1.0, 1.04, 0.97]), baseline, 'base.json', label, opts);
    expect(r.timings.every((t) => t.verdict === 'unchanged')).toBe(true);
    expect(regressionCount(r)).toBe(0);
    expect(formatCheckReport(r, 'base.json')).toContain('OK: no regressions.');
  });

  it('ignores a slowdown with --quality-only', () => {
    const r = checkRuns(repetitions([3, 3, 3]), baseline, 'base.json', label, { ...opts, qualityOnly: true });
    expect(r.timings).toEqual([]);
    expect(regressionCount(r)).toBe(0);
  });

  it('counts a variant missing from the run as a regression and a new one as a note', () => {
    const renamed = editedRun(a, (r) => {
      const v = r.variants.find((x) => x.name === 'broder/mod=4');
      if (v) v.name = 'broder/mod=8';
    });
    const r = checkRuns([renamed], baseline, 'base.json', label, opts);
    expect(r.missing).toEqual(['broder/mod=4']);
    expect(r.added).toEqual(['broder/mod=8']);
    expect(regressionCount(r)).toBe(1);
  });

  it('refuses a baseline of another experiment', () => {
    const other = editedRun(a, (r) => {
      r.experiment = 'gov2-sct';
    });
    expect(() => checkRuns([other], baseline, 'base.json', label, opts)).toThrow(UserError);
    expect(() => checkRuns([other], baseline, 'base.json', label, opts)).toThrow(/^base\.json: experiment: the baseline is for "tiny-sct", run0 is "gov2-sct"$/);
  });

  it('notes a changed config hash without failing on it', () => {
    const changed = editedRun(a, (r) => {
      r.config_hash = 'sha256:0000';
    });
    const r = checkRuns([changed], baseline, 'base.json', label, opts);
    expect(r.notes).toHaveLength(1);
    expect(regressionCount(r)).toBe(0);
  });
});

describe('checkRuns compares like with like', () => {
  const FEATURES = 'fingerprint features (char-64 shingles, rabin64)';
  /** The runs with the ground truth marked as having replayed the fingerprints. */
  const replaying = (runs: readonly RunRecord[]): RunRecord[] =>
    runs.map((run) =>
      editedRun(run, (r) => {
        const truth = r.variants.find((v) => v.ground_truth);
        if (truth) truth.backend_extra = { ...truth.backend_extra, replayed: [FEATURES] };
      }),
    );

  it('does not compare the timings of a variant that replayed what the baseline computed, and says so', () => {
    // A third of the time: what the ground truth saves by replaying its fingerprints.
    const r = checkRuns(replaying(repetitions(noise.map((x) => x / 3))), baseline, 'base.json', label, opts);
    const truth = a.variants.find((v) => v.ground_truth)?.name ?? '';
    expect(r.timings.filter((t) => t.variant === truth)).toEqual([]);
    expect(r.timings.filter((t) => t.verdict === 'improved').map((t) => t.variant)).not.toContain(truth);
    expect(r.notes).toContain(
      `timings of ${truth} not compared: this run replayed ${FEATURES}, the baseline's neither replayed nor computed a stored value (a resumed run, or one with other stored values: --no-stored-values computes everything)`,
    );
    // The other variants did the same work in both, and are compared as before.
    expect(r.timings.length).toBe((a.variants.length - 1) * 2);
  });

  it('compares a replaying run with a baseline that replayed the same values', () => {
    const replayedBaseline = baselineFromRuns(replaying(repetitions(noise)), label, now);
    const r = checkRuns(replaying(repetitions([1.02, 0.98, 1.0, 1.04, 0.97])), replayedBaseline, 'base.json', label, opts);
    expect(r.timings).toHaveLength(a.variants.length * 2);
    expect(r.notes.filter((n) => n.includes('not compared'))).toEqual([]);
  });

  it('does not compare the first variant after a resume, which computed what the saved ones had', () => {
    // Uninterrupted, the ground truth computes the fingerprints and broder/sct=3 reuses them;
    // resumed after the ground truth, broder/sct=3 computes them itself.
    const computedBy = (name: string) => (runs: readonly RunRecord[]): RunRecord[] =>
      runs.map((run) =>
        editedRun(run, (r) => {
          const v = r.variants.find((x) => x.name === name);
          if (v) v.backend_extra = { ...v.backend_extra, computed: [FEATURES] };
        }),
      );
    const truth = a.variants.find((v) => v.ground_truth)?.name ?? '';
    const uninterrupted = baselineFromRuns(computedBy(truth)(repetitions(noise)), label, now);
    const resumed = computedBy('broder/sct=3')(repetitions(noise));
    const r = checkRuns(resumed, uninterrupted, 'base.json', label, opts);
    expect(r.timings.map((t) => t.variant)).not.toContain('broder/sct=3');
    expect(r.notes).toContain(
      `timings of broder/sct=3 not compared: this run computed ${FEATURES}, the baseline's neither replayed nor computed a stored value (a resumed run, or one with other stored values: --no-stored-values computes everything)`,
    );
  });

  it('refuses a baseline of runs that did different work', () => {
    const mixed = [...repetitions([1]), ...replaying(repetitions([1]))];
    expect(() => baselineFromRuns(mixed, label, now)).toThrow(/a baseline's runs must be of one kind/);
  });
});
