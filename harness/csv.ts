/**
 * CSV cells and files. Numbers are written as JavaScript's shortest round-trip form, so a
 * value read back is the same double; an undefined measure (null) is an empty cell.
 */
import { stringify } from 'csv-stringify/sync';

export type Cell = string | number | boolean | null | undefined;

export function formatCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`non-finite number ${v} cannot be written to a CSV`);
    return Object.is(v, -0) ? '0' : String(v);
  }
  return String(v);
}

/** Seconds and dollars are measured, not computed: a fixed number of decimals reads better. */
export function formatMeasured(v: number, decimals: number): string {
  return v.toFixed(decimals);
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return stringify([header as string[], ...rows.map((r) => r.map(formatCell))], { record_delimiter: 'unix' });
}
