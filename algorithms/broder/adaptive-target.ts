/**
 * Adaptive sampling from a precision target (Ye et al. 2008, section 6): per document-size
 * group, the smallest sampling ratio 1/m out of a list whose precision at the similarity
 * threshold meets the target on calibration runs, and the share of fingerprints that plan
 * processes (their Figure 4). Pure: calibration outcomes and counts in, a plan out.
 *
 * A ratio meets the target in a group when the group's pair precision is at least the target,
 * or when the group has no near-duplicate pair at all, in the ground truth or the run (nothing
 * to find and nothing called wrongly). A group whose near-duplicates the run misses entirely
 * (precision undefined, recall 0) does not meet it. A group that no ratio satisfies keeps every
 * fingerprint (m = 1), whose precision is 1 by definition.
 *
 * The share processed is exact, not nominal: Σ over groups of the fingerprints the group's
 * documents keep at its modulus (counted by the calibration run at that modulus) over all
 * fingerprints. The uniform plan for comparison is the largest single modulus that meets the
 * target in every group.
 */
import type { GroupOutcome } from '../../contract/index.ts';

export interface CalibrationCounts {
  /** fingerprints of each group's documents */
  readonly full: readonly number[];
  /** [run][group]: fingerprints each group's documents keep at that run's modulus */
  readonly kept: readonly (readonly number[])[];
}

export interface TargetPlan {
  readonly target: number;
  /** per group, the modulus chosen (1: every fingerprint) */
  readonly moduli: readonly number[];
  /** % of all fingerprints the adaptive plan processes; null when the collection has none */
  readonly sharePct: number | null;
  /** the largest single modulus meeting the target in every group, and its share */
  readonly uniformM: number;
  readonly uniformSharePct: number | null;
}

export function meetsTarget(o: GroupOutcome, target: number): boolean {
  return o.precision !== null ? o.precision >= target : o.dupPairs === 0;
}

/**
 * `moduli` ascending (the calibration runs' order), `outcomes[run][group]`, counts as above.
 */
export function planForTarget(target: number, moduli: readonly number[], outcomes: readonly (readonly GroupOutcome[])[], counts: CalibrationCounts): TargetPlan {
  const groups = counts.full.length;
  const total = counts.full.reduce((s, x) => s + x, 0);
  const pct = (kept: number): number | null => (total > 0 ? (100 * kept) / total : null);
  const keptAt = (run: number, g: number): number => (run < 0 ? (counts.full[g] as number) : ((counts.kept[run] as readonly number[])[g] as number));
  // Largest modulus first: the smallest ratio that meets the target.
  const runsDescending = moduli.map((_, i) => i).reverse();
  const chosenRun = Array.from({ length: groups }, (_, g) => runsDescending.find((i) => meetsTarget((outcomes[i] as readonly GroupOutcome[])[g] as GroupOutcome, target)) ?? -1);
  const uniformRun = runsDescending.find((i) => (outcomes[i] as readonly GroupOutcome[]).every((o) => meetsTarget(o, target))) ?? -1;
  let adaptiveKept = 0;
  let uniformKept = 0;
  for (let g = 0; g < groups; g++) {
    adaptiveKept += keptAt(chosenRun[g] as number, g);
    uniformKept += keptAt(uniformRun, g);
  }
  return {
    target,
    moduli: chosenRun.map((i) => (i < 0 ? 1 : (moduli[i] as number))),
    sharePct: pct(adaptiveKept),
    uniformM: uniformRun < 0 ? 1 : (moduli[uniformRun] as number),
    uniformSharePct: pct(uniformKept),
  };
}
