/**
 * The tables a run writes beside metrics.csv from its variants' records, each with the one-line
 * description run.json's `tables` gives it:
 *
 *   size-groups.csv, thresholds.csv, size-group-thresholds.csv   slices-csv.ts
 *   trials.csv                 one row a variant averaged over trials × measure (not the timings,
 *                              memory and cost, which differ from run to run): the trials' count,
 *                              mean, standard deviation, minimum and maximum
 *   <folder>/<variant>.csv     a calibration's table (contract/derived.ts), e.g. adaptive-plans/
 *   exact-duplicates.csv       with corpus.exact_duplicates: remove, one row a document removed
 */
import type { SizeGroup } from '../evaluate/size-groups.ts';
import { toCsv, type Cell } from '../csv.ts';
import { VARYING_COLUMNS } from './measures.ts';
import { sliceTables, type SliceTable } from './slices-csv.ts';
import type { VariantRecord } from './types.ts';

export function evaluationTables(
  experiment: string,
  evaluate: { readonly threshold: number; readonly thresholds?: readonly number[]; readonly size_groups: readonly SizeGroup[] },
  records: readonly VariantRecord[],
): SliceTable[] {
  const tables = sliceTables(experiment, evaluate, records);
  const averaged = records.filter((r) => r.trials !== undefined);
  if (averaged.length > 0) {
    tables.push({
      file: 'trials.csv',
      description: 'variants averaged over trials (e.g. hash sampled at every residue, Ye et al. 4.4): per measure, the trials that define it, their mean, standard deviation, minimum and maximum',
      csv: toCsv(
        ['experiment', 'variant', 'algorithm', 'measure', 'trials', 'mean', 'sd', 'min', 'max'],
        averaged.flatMap((r) =>
          Object.entries(r.trials?.spread ?? {})
            // Timings, memory and cost are each trial's row of metrics.csv; this table stays the same from run to run.
            .filter(([measure]) => !VARYING_COLUMNS.includes(measure))
            .map(([measure, s]): Cell[] => [experiment, r.name, r.algorithm, measure, s.n, s.mean, s.sd, s.min, s.max]),
        ),
      ),
    });
  }
  for (const r of records) {
    const t = r.calibration?.table;
    if (!t) continue;
    tables.push({ file: `${t.folder}/${r.name}.csv`, description: `${r.name}: ${t.description}`, csv: toCsv(t.header, t.rows) });
  }
  return tables;
}

/** exact-duplicates.csv: one row a document removed, with its group and the document kept. */
export function exactDuplicatesTable(groups: readonly { readonly kept: string; readonly removed: readonly string[] }[]): SliceTable {
  return {
    file: 'exact-duplicates.csv',
    description: 'documents removed before the detectors ran because their text (white space collapsed) has the MD5 of an earlier document, the one kept (Ye et al. 4.2)',
    csv: toCsv(
      ['group', 'kept', 'removed'],
      groups.flatMap((g, i) => g.removed.map((r): Cell[] => [i, g.kept, r])),
    ),
  };
}
