/**
 * The tables of precision and recall by document size and by threshold (harness/evaluate/
 * slices.ts), beside metrics.csv:
 *
 *   size-groups.csv            one row a variant × size group, at evaluate.threshold
 *   thresholds.csv             one row a variant × threshold of evaluate.thresholds, whole collection
 *   size-group-thresholds.csv  one row a variant × size group × threshold of evaluate.thresholds
 *
 * Variants in metrics.csv order. A pair counts in the group of its smaller document (fewer
 * words), a document in its own group (evaluate/size-groups.ts says why).
 */
import { groupLabel, type SizeGroup } from '../evaluate/size-groups.ts';
import type { SliceMeasures } from '../evaluate/slices.ts';
import { toCsv, type Cell } from '../csv.ts';
import { METRICS_LEAD, type VariantRecord } from './types.ts';

export interface SliceTable {
  readonly file: string;
  readonly csv: string;
  readonly description: string;
}

const COLUMNS: readonly (keyof SliceMeasures)[] = ['docs', 'dup_pairs', 'res_pairs', 'both_pairs', 'precision_pairs', 'recall_pairs', 'dup_docs', 'res_docs', 'both_docs', 'precision_docs', 'recall_docs'];

const cells = (m: SliceMeasures): Cell[] => COLUMNS.map((k) => m[k]);

export function sliceTables(experiment: string, evaluate: { readonly threshold: number; readonly thresholds?: readonly number[]; readonly size_groups: readonly SizeGroup[] }, records: readonly VariantRecord[]): SliceTable[] {
  const withSlices = records.filter((r) => r.slices !== undefined);
  if (withSlices.length === 0) return [];
  const lead = (r: VariantRecord): Cell[] => [experiment, r.name, r.algorithm];
  const groups = evaluate.size_groups;
  const tables: SliceTable[] = [
    {
      file: 'size-groups.csv',
      description: `precision and recall per document-size group (evaluate.size_groups, words of the normalized text) at RR >= ${evaluate.threshold}; a pair counts in the group of its smaller document, a document in its own`,
      csv: toCsv(
        [...METRICS_LEAD, 'group', 'words', 'threshold', ...COLUMNS],
        withSlices.flatMap((r) => groups.map((g, i) => [...lead(r), i, groupLabel(g), evaluate.threshold, ...cells((r.slices?.groups[i] ?? [])[0] as SliceMeasures)])),
      ),
    },
  ];
  const swept = evaluate.thresholds ?? [];
  if (swept.length === 0) return tables;
  // Slices hold evaluate.threshold first, then evaluate.thresholds.
  const at = swept.map((t, j) => ({ t, k: j + 1 }));
  tables.push(
    {
      file: 'thresholds.csv',
      description: 'precision and recall of the whole collection at each of evaluate.thresholds, from the same scores',
      csv: toCsv(
        [...METRICS_LEAD, 'threshold', ...COLUMNS],
        withSlices.flatMap((r) => at.map(({ t, k }) => [...lead(r), t, ...cells(r.slices?.all[k] as SliceMeasures)])),
      ),
    },
    {
      file: 'size-group-thresholds.csv',
      description: 'precision and recall per document-size group at each of evaluate.thresholds (Ye et al. Figures 2 and 3)',
      csv: toCsv(
        [...METRICS_LEAD, 'group', 'words', 'threshold', ...COLUMNS],
        withSlices.flatMap((r) => groups.flatMap((g, i) => at.map(({ t, k }) => [...lead(r), i, groupLabel(g), t, ...cells((r.slices?.groups[i] ?? [])[k] as SliceMeasures)]))),
      ),
    },
  );
  return tables;
}
