/**
 * Broder variants that are several runs (contract/derived.ts):
 *
 * - `mod` with `residues: all` (Ye et al. 4.4): the m trials residue = 0 … m−1, averaged. Every
 *   trial is a plain mod run; on the local backend they share the fingerprints and their
 *   postings (kernel.ts, `ctx.cached`) and each joins only the fingerprints of its residue, so
 *   the m trials together cost about one join over every fingerprint, not m.
 * - `adaptive-target` (section 6): one calibration run per modulus of the list, each an
 *   adaptive run with that modulus in every size group of the evaluation (which is plain mod m
 *   at residue 0, plus the per-group fingerprint counters the plan's share needs), then the
 *   adaptive run with the largest modulus per group that meets the precision target. The
 *   calibration runs use residue 0, the residue the adaptive run samples with, so a pair of two
 *   documents of one group scores in the adaptive run exactly as in the calibration run of the
 *   group's modulus.
 */
import type { Calibration, CalibrationContext, CalibrationResult, DerivedRun, SizeGroupBounds } from '../../contract/index.ts';
import { planForTarget, type TargetPlan } from './adaptive-target.ts';
import { MR1 } from './jobs.ts';
import { broderParams, type BroderParams } from './params.ts';
import { groupCounters } from './sampling.ts';

export function broderTrials(params: BroderParams): DerivedRun[] | undefined {
  const s = params.sampling;
  if (s.method !== 'mod' || s.residues === undefined) return undefined;
  return Array.from({ length: s.m }, (_, r) => ({
    label: `residue=${r}`,
    params: broderParams.parse({ ...params, sampling: { method: 'mod', m: s.m, residue: r } }),
    swept: { 'sampling.residue': r },
  }));
}

/** The adaptive sampling by words over the evaluation's size groups, one modulus per group. */
function adaptiveOver(params: BroderParams, groups: readonly SizeGroupBounds[], moduli: readonly number[]): BroderParams {
  return broderParams.parse({
    shingle: params.shingle,
    fingerprint: params.fingerprint,
    sampling: { method: 'adaptive', by: 'words', groups: groups.map((g, i) => ({ max_size: g.max_words, m: moduli[i] })) },
  });
}

const words = (g: SizeGroupBounds): string => (g.max_words === null ? `${g.min_words}+` : `${g.min_words}-${g.max_words}`);
const ratio = (m: number): string => (m === 1 ? '1' : `1/${m}`);

export function broderCalibration(params: BroderParams, ctx: CalibrationContext): Calibration | undefined {
  const s = params.sampling;
  if (s.method !== 'adaptive-target') return undefined;
  const groups = ctx.sizeGroups;
  const moduli = [...new Set(s.m)].sort((x, y) => x - y);
  const runs: DerivedRun[] = moduli.map((m) => ({
    label: `calibration/m=${m}`,
    params: adaptiveOver(params, groups, groups.map(() => m)),
    swept: { 'sampling.m': m },
  }));
  const targets = [...new Set([...s.targets, s.precision])].sort((x, y) => x - y);
  return {
    runs,
    threshold: s.threshold,
    choose(results: readonly CalibrationResult[]) {
      const counter = (r: CalibrationResult, name: string): number => r.counters[MR1]?.[name] ?? 0;
      const first = results[0] as CalibrationResult;
      const counts = {
        full: groups.map((_, g) => counter(first, groupCounters(g).fingerprints)),
        kept: results.map((r) => groups.map((_, g) => counter(r, groupCounters(g).kept))),
      };
      const outcomes = results.map((r) => r.groups);
      const planFor = (t: number): TargetPlan => planForTarget(t, moduli, outcomes, counts);
      const chosen = planFor(s.precision);
      const pct = (x: number | null): string => (x === null ? 'n/a' : `${x.toFixed(2)}%`);
      return {
        params: adaptiveOver(params, groups, chosen.moduli),
        summary: `precision ${s.precision} at RR >= ${s.threshold}: ratios ${chosen.moduli.map(ratio).join(', ')} for the ${groups.length} size groups, ${pct(chosen.sharePct)} of the fingerprints processed (one ratio for all, ${ratio(chosen.uniformM)}: ${pct(chosen.uniformSharePct)})`,
        details: {
          precision: s.precision,
          threshold: s.threshold,
          moduli_tried: moduli,
          groups: groups.map((g, i) => ({
            words: words(g),
            m: chosen.moduli[i],
            ratio: ratio(chosen.moduli[i] as number),
            // precision and pairs of each calibration run in this group, for the record
            calibration: moduli.map((m, k) => ({ m, ...(outcomes[k]?.[i] ?? {}) })),
          })),
          fingerprints_processed_pct: chosen.sharePct,
          uniform: { m: chosen.uniformM, fingerprints_processed_pct: chosen.uniformSharePct },
        },
        table: {
          folder: 'adaptive-plans',
          description: `the adaptive plan at each precision target (RR >= ${s.threshold}): the modulus per size group and the share of fingerprints processed, against one modulus for every group (Ye et al. Figure 4)`,
          header: ['precision_target', ...groups.map((g) => `m_${words(g)}`), 'fingerprints_pct_adaptive', 'm_uniform', 'fingerprints_pct_uniform'],
          rows: targets.map((t) => {
            const p = planFor(t);
            return [t, ...p.moduli, p.sharePct, p.uniformM, p.uniformSharePct];
          }),
        },
      };
    },
  };
}
