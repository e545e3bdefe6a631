/**
 * The report's figures by document size (Ye et al. 2008): precision and recall per size group
 * at evaluate.threshold, one bar series per variant, and, with evaluate.thresholds, each
 * variant's precision (Figure 2) and recall (Figure 3) against the similarity threshold, one line
 * per size group. Pure: the run's records in, chart specs out (results/types.ts `slices`).
 */
import { groupLabel, type SizeGroup } from '../evaluate/size-groups.ts';
import type { SliceMeasures } from '../evaluate/slices.ts';
import type { RunRecord, VariantRecord } from '../results/types.ts';
import type { ChartSpec } from './charts.ts';

export interface SizeGroupSection {
  readonly id: string;
  readonly title: string;
  readonly note: string;
  readonly charts: readonly ChartSpec[];
}

const unit = { scale: 'linear', min: 0, max: 1 } as const;

export function sizeGroupSection(run: RunRecord, variants: readonly VariantRecord[], nextId: () => string): SizeGroupSection | undefined {
  const groups: readonly SizeGroup[] = run.evaluate.size_groups ?? [];
  const compared = variants.filter((v) => !v.ground_truth && v.slices !== undefined);
  if (groups.length === 0 || compared.length === 0) return undefined;
  // Groups without documents draw nothing.
  const present = groups.map((g, i) => ({ g, i })).filter(({ i }) => compared.some((v) => (v.slices?.groups[i]?.[0]?.docs ?? 0) > 0));
  const labels = present.map(({ g }) => `${groupLabel(g)} words`);
  const at = (v: VariantRecord, i: number, t: number): SliceMeasures | undefined => v.slices?.groups[i]?.[t];
  const charts: ChartSpec[] = (['precision_pairs', 'recall_pairs'] as const).map((key) => ({
    id: nextId(),
    title: `${key === 'precision_pairs' ? 'Precision' : 'Recall'} (pairs) per document-size group at RR ≥ ${run.evaluate.threshold}`,
    type: 'bars',
    horizontal: false,
    labels,
    series: compared.map((v) => ({ kind: 'values', label: v.name, values: present.map(({ i }) => at(v, i, 0)?.[key] ?? null) })),
    x: { title: 'size group', scale: 'category' },
    y: { title: key === 'precision_pairs' ? 'precision' : 'recall', ...unit },
  }));
  const swept = run.evaluate.thresholds ?? [];
  for (const v of swept.length > 0 ? compared : []) {
    for (const [key, figure] of [['precision_pairs', 'Figure 2'], ['recall_pairs', 'Figure 3']] as const) {
      charts.push({
        id: nextId(),
        title: `${v.name}: ${key === 'precision_pairs' ? 'precision' : 'recall'} against the similarity threshold per size group (${figure})`,
        type: 'xy',
        series: present.map(({ g, i }) => ({
          kind: 'points',
          label: `${groupLabel(g)} words`,
          line: true,
          // Slices hold evaluate.threshold first, then evaluate.thresholds.
          points: swept.flatMap((t, j) => {
            const y = at(v, i, j + 1)?.[key];
            return y === null || y === undefined ? [] : [{ x: t, y }];
          }),
        })),
        x: { title: 'similarity threshold', scale: 'linear' },
        y: { title: key === 'precision_pairs' ? 'precision' : 'recall', ...unit },
      });
    }
  }
  return {
    id: 'size-groups',
    title: 'Precision and recall by document size',
    note: 'Documents are grouped by their words (evaluate.size_groups); a pair counts in the group of its smaller document (size-groups.csv, size-group-thresholds.csv). Ye et al. find the precision of sampled shingles lowest for the smallest documents.',
    charts,
  };
}
