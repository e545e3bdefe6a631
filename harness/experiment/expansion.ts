/**
 * Variants that are several runs (contract/derived.ts): what an adapter expands a variant into,
 * and how those runs are named. A trial or calibration run is a variant of its own, named after
 * its variant (`broder/mod=16/residue=3`), with the run's parameters and swept columns.
 */
import type { AlgorithmAdapter, Calibration, DerivedRun } from '../../contract/index.ts';
import type { Experiment, Variant } from './types.ts';

export type Expansion =
  | { readonly kind: 'trials'; readonly runs: readonly DerivedRun[] }
  | { readonly kind: 'calibration'; readonly runs: readonly DerivedRun[]; readonly calibration: Calibration };

/** What the adapter expands the variant into, or undefined when its parameters are a plan of their own. */
export function expansionOf(adapter: AlgorithmAdapter, v: Variant, exp: Pick<Experiment, 'evaluate'>): Expansion | undefined {
  const trials = adapter.trials?.(v.params as never);
  if (trials !== undefined) {
    if (trials.length === 0) throw new Error(`${adapter.name}: variant ${v.name} expands into no trial`);
    return { kind: 'trials', runs: trials };
  }
  const calibration = adapter.calibration?.(v.params as never, { sizeGroups: exp.evaluate.size_groups });
  if (calibration !== undefined) {
    if (calibration.runs.length === 0) throw new Error(`${adapter.name}: variant ${v.name} has no calibration run`);
    return { kind: 'calibration', runs: calibration.runs, calibration };
  }
  return undefined;
}

/** A trial or calibration run of `v` as a variant. */
export function partVariant(v: Variant, run: DerivedRun): Variant {
  return { name: `${v.name}/${run.label}`, algorithm: v.algorithm, params: run.params, swept: { ...v.swept, ...run.swept }, groundTruth: false };
}
