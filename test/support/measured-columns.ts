/** metrics.csv without the columns that vary from run to run (times, memory, cost), to compare two runs' measures. */
import { VARYING_COLUMNS } from '../../harness/results/measures.ts';

export function withoutVaryingColumns(csv: string): string {
  const [head, ...rows] = csv.trim().split('\n') as [string, ...string[]];
  const keep = head.split(',').map((c) => !VARYING_COLUMNS.includes(c));
  return [head, ...rows].map((r) => r.split(',').filter((_, i) => keep[i]).join(',')).join('\n');
}
