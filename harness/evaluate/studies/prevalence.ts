/**
 * Table 4.1 of Nikkhoo (2010): one row a share threshold s, one column a depth n, each cell
 * the percentage of run-topics whose top n has a near-duplicate share of at least s. The
 * denominator is the run-topics with at least one corpus document in their top n (a share
 * of nothing is not 0%).
 */
import type { Cell } from '../../csv.ts';
import { toCsv } from '../../csv.ts';
import { share, type RunTopicShare } from './run-topics.ts';

/** Rows follow `shares` ascending, columns `ns` ascending; a cell is null when no run-topic counts at that n. */
export function prevalence(
  rows: readonly RunTopicShare[],
  ns: readonly number[],
  shares: readonly number[],
): { ns: number[]; shares: number[]; percent: (number | null)[][] } {
  const depths = [...ns].sort((x, y) => x - y);
  const thresholds = [...shares].sort((x, y) => x - y);
  const byN = depths.map((n) => rows.filter((r) => r.n === n).map(share).filter((s): s is number => s !== null));
  const percent = thresholds.map((s) =>
    byN.map((values) => (values.length === 0 ? null : (100 * values.filter((v) => v >= s).length) / values.length)),
  );
  return { ns: depths, shares: thresholds, percent };
}

export function prevalenceCsv(rows: readonly RunTopicShare[], ns: readonly number[], shares: readonly number[]): string {
  const table = prevalence(rows, ns, shares);
  const header = ['share_at_least', ...table.ns.map((n) => `n=${n}`)];
  const body: Cell[][] = table.shares.map((s, i) => [s, ...(table.percent[i] ?? [])]);
  return toCsv(header, body);
}
