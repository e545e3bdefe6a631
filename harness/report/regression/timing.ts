/**
 * Timing verdicts as asv gives them (`_is_result_better`): a change counts only when it is both
 * large (the ratio of medians passes `minFactor`) and, where there are enough samples, not
 * noise (Mann–Whitney U at p < alpha). With fewer than `minSamples` on a side the factor alone
 * decides, since no test can separate two or three values from chance. Changes of the medians
 * below `minDelta` seconds are never verdicts.
 */
import { median } from 'simple-statistics';
import { mannWhitneyU } from './mann-whitney.ts';

export type Verdict = 'regressed' | 'improved' | 'unchanged';

export interface TimingOptions {
  readonly minFactor: number;
  readonly alpha: number;
  readonly minSamples: number;
  /**
   * Seconds: a change of the medians smaller than this is unchanged whatever its ratio. A variant
   * that takes 0.09 s swings by half between two runs on a busy machine; a single-sample check
   * (factor only) would call that a regression.
   */
  readonly minDelta: number;
}

export const DEFAULT_TIMING: TimingOptions = { minFactor: 1.5, alpha: 0.05, minSamples: 3, minDelta: 0.1 };

export interface TimingComparison {
  readonly baselineMedian: number;
  readonly currentMedian: number;
  /** current / baseline median; > 1 is slower */
  readonly ratio: number;
  readonly test: { readonly kind: 'mann-whitney'; readonly p: number } | { readonly kind: 'factor-only' };
  readonly verdict: Verdict;
}

function ratioOf(current: number, baseline: number): number {
  if (baseline === current) return 1;
  return baseline === 0 ? Infinity : current / baseline;
}

export function compareTimings(baseline: readonly number[], current: readonly number[], opts: TimingOptions = DEFAULT_TIMING): TimingComparison {
  if (baseline.length === 0 || current.length === 0) throw new Error('compareTimings: empty sample');
  const baselineMedian = median([...baseline]);
  const currentMedian = median([...current]);
  const ratio = ratioOf(currentMedian, baselineMedian);
  const tested = baseline.length >= opts.minSamples && current.length >= opts.minSamples;
  const test = tested ? ({ kind: 'mann-whitney', p: mannWhitneyU(current, baseline).p } as const) : ({ kind: 'factor-only' } as const);
  const real = (test.kind === 'factor-only' || test.p < opts.alpha) && Math.abs(currentMedian - baselineMedian) >= opts.minDelta;
  const verdict: Verdict = real && ratio >= opts.minFactor ? 'regressed' : real && ratio <= 1 / opts.minFactor ? 'improved' : 'unchanged';
  return { baselineMedian, currentMedian, ratio, test, verdict };
}
