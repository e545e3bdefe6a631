/**
 * A variant averaged over its trials (contract/derived.ts; Ye et al. 4.4 "compute the average
 * performance of all n trials"): one record whose measures are the trials' means, with the
 * spread of every measure, from the trials' own records.
 *
 * - Each measure is the mean of the trials that define it (an empty cell in a trial, e.g. a
 *   precision with no pair called a near-duplicate, is left out and a warning says how many
 *   trials the mean is over); runtime, CPU and cost are the trials' sums (what the variant
 *   cost), memory their maximum.
 * - The distribution, the size-group and threshold slices and the counters are averaged the
 *   same way, cell by cell; a counter over the trials that have its group.
 */
import { readCounter, type Counters } from '../../contract/index.ts';
import type { SliceMeasures, VariantSlices } from '../evaluate/slices.ts';
import { GENERAL_MEASURES } from './measures.ts';
import type { Spread, VariantRecord } from './types.ts';

const SUMMED = new Set(GENERAL_MEASURES.filter((m) => m.kind === 'timing' || m.kind === 'cost').map((m) => m.key));
const MAXIMUM = new Set(GENERAL_MEASURES.filter((m) => m.kind === 'memory').map((m) => m.key));

function defined(xs: readonly (number | null | undefined)[]): number[] {
  return xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
}

export function mean(xs: readonly (number | null | undefined)[]): number | null {
  const d = defined(xs);
  return d.length === 0 ? null : d.reduce((s, x) => s + x, 0) / d.length;
}

export function spread(xs: readonly (number | null | undefined)[]): Spread {
  const d = defined(xs);
  const m = mean(d);
  if (m === null) return { n: 0, mean: null, sd: null, min: null, max: null };
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / d.length);
  return { n: d.length, mean: m, sd, min: Math.min(...d), max: Math.max(...d) };
}

/**
 * Each counter is the mean over the trials that have its group (in one that has the group
 * without the counter it is 0: contract/counters.ts); a trial whose group never arrived says
 * nothing of it, and a warning says over how many trials the mean is.
 */
function averageCounters(parts: readonly VariantRecord[], warnings: string[]): Counters {
  const names = new Map<string, Set<string>>();
  for (const p of parts) {
    for (const [g, counters] of Object.entries(p.counters)) {
      const set = names.get(g) ?? new Set<string>();
      for (const n of Object.keys(counters)) set.add(n);
      names.set(g, set);
    }
  }
  const out: Counters = {};
  for (const [group, set] of names) {
    const having = parts.filter((p) => p.counters[group] !== undefined);
    if (having.length < parts.length) warnings.push(`counters ${group}: the mean of the ${having.length} of ${parts.length} trials whose counters arrived`);
    const averaged: Record<string, number> = {};
    for (const name of set) averaged[name] = mean(having.map((p) => readCounter(p.counters, { group, name }))) as number;
    out[group] = averaged;
  }
  return out;
}

function averageSlice(xs: readonly SliceMeasures[]): SliceMeasures {
  const keys = Object.keys(xs[0] as SliceMeasures) as (keyof SliceMeasures)[];
  return Object.fromEntries(keys.map((k) => [k, mean(xs.map((x) => x[k]))])) as unknown as SliceMeasures;
}

function averageSlices(parts: readonly VariantRecord[]): VariantSlices | undefined {
  const all = parts.map((p) => p.slices);
  if (all.length === 0 || all.some((s) => s === undefined)) return undefined;
  const s = all as VariantSlices[];
  const first = s[0] as VariantSlices;
  return {
    thresholds: first.thresholds,
    all: first.all.map((_, t) => averageSlice(s.map((x) => x.all[t] as SliceMeasures))),
    groups: first.groups.map((g, i) => g.map((_, t) => averageSlice(s.map((x) => (x.groups[i] as SliceMeasures[])[t] as SliceMeasures)))),
  };
}

/** The record of `name` averaged over `parts` (at least one), named, parameterized and swept as the variant is. */
export function averageTrials(variant: { readonly name: string; readonly params: unknown; readonly swept: VariantRecord['swept'] }, parts: readonly VariantRecord[]): VariantRecord {
  const first = parts[0];
  if (!first) throw new Error(`${variant.name}: a variant averaged over trials needs at least one trial`);
  const keys = [...new Set(parts.flatMap((p) => Object.keys(p.measures)))];
  const measures: Record<string, number | null> = {};
  const spreads: Record<string, Spread> = {};
  const warnings: string[] = [];
  for (const k of keys) {
    const xs = parts.map((p) => p.measures[k]);
    spreads[k] = spread(xs);
    const d = defined(xs);
    if (SUMMED.has(k)) measures[k] = d.length === 0 ? null : d.reduce((s, x) => s + x, 0);
    else if (MAXIMUM.has(k)) measures[k] = d.length === 0 ? null : Math.max(...d);
    else measures[k] = mean(xs);
    if (d.length < parts.length && d.length > 0) warnings.push(`${k}: the mean of the ${d.length} of ${parts.length} trials that define it`);
    if (d.length === 0 && !(k in first.not_applicable)) warnings.push(`${k}: undefined in every trial`);
  }
  const slices = averageSlices(parts);
  const counters = averageCounters(parts, warnings);
  return {
    name: variant.name,
    algorithm: first.algorithm,
    ...(first.series !== undefined ? { series: first.series } : {}),
    ground_truth: false,
    params: variant.params,
    swept: variant.swept,
    score: first.score,
    decisions: first.decisions,
    measures,
    not_applicable: first.not_applicable,
    pairs_compared: mean(parts.map((p) => p.pairs_compared)) as number,
    distribution: first.distribution.map((_, i) => mean(parts.map((p) => p.distribution[i]))),
    counters,
    files: [],
    ...(slices ? { slices } : {}),
    trials: { runs: parts.map((p) => p.name), spread: spreads },
    warnings,
    memory: first.memory,
  };
}
