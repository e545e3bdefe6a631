/**
 * The per-variant files beside the pairs: `spans/<variant>.csv.gz` for detectors that locate
 * shared text, and `<table>/<variant>.csv.gz` for the per-document tables a plan declares
 * (contract/plan.ts `TableOutput`). Document indexes become the collection's ids; rows are
 * sorted so that the same results give the same bytes. Node's gzip writes no timestamp.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import type { SideRecord, Span, TableOutput } from '../../contract/index.ts';
import { toCsv, type Cell } from '../csv.ts';

export const SPAN_COLUMNS = [
  'doc_a',
  'doc_b',
  'char_start_a',
  'char_end_a',
  'char_start_b',
  'char_end_b',
  'unit_start_a',
  'unit_start_b',
  'unit_length',
] as const;

const byText = (x: readonly Cell[], y: readonly Cell[]): number => {
  for (let i = 0; i < x.length; i++) {
    const p = x[i];
    const q = y[i];
    if (p === q) continue;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    return String(p ?? '') < String(q ?? '') ? -1 : 1;
  }
  return 0;
};

/** Spans with document ids, a's id first as in the pairs file (the span's two sides swap with them). */
export function spansCsvGz(spans: readonly Span[], ids: readonly string[]): Buffer {
  const rows: Cell[][] = spans.map((s) => {
    const x = ids[s.a] as string;
    const y = ids[s.b] as string;
    const u = s.units;
    return x < y
      ? [x, y, s.aStart, s.aEnd, s.bStart, s.bEnd, u?.aStart ?? null, u?.bStart ?? null, u?.length ?? null]
      : [y, x, s.bStart, s.bEnd, s.aStart, s.aEnd, u?.bStart ?? null, u?.aStart ?? null, u?.length ?? null];
  });
  rows.sort(byText);
  return gzipSync(Buffer.from(toCsv(SPAN_COLUMNS, rows), 'utf8'), { level: 6 });
}

/** A span as read back from a spans file, with document ids. */
export interface SpanRow {
  readonly docA: string;
  readonly docB: string;
  readonly aStart: number;
  readonly aEnd: number;
  readonly bStart: number;
  readonly bEnd: number;
  readonly units?: { readonly aStart: number; readonly bStart: number; readonly length: number };
}

/** Reads `spans/<variant>.csv.gz` back (for the span-level evaluation); `file` names it in errors. */
export function readSpansCsvGz(bytes: Buffer, file: string): SpanRow[] {
  const records = parse(gunzipSync(bytes), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return records.map((r, i) => {
    const num = (k: string): number => {
      const v = Number(r[k]);
      if (r[k] === undefined || r[k] === '' || !Number.isInteger(v) || v < 0) throw new Error(`${file}: row ${i + 2}: ${k}: expected a non-negative integer, got ${JSON.stringify(r[k])}`);
      return v;
    };
    const hasUnits = (r.unit_length ?? '') !== '';
    return {
      docA: r.doc_a as string,
      docB: r.doc_b as string,
      aStart: num('char_start_a'),
      aEnd: num('char_end_a'),
      bStart: num('char_start_b'),
      bEnd: num('char_end_b'),
      ...(hasUnits ? { units: { aStart: num('unit_start_a'), bStart: num('unit_start_b'), length: num('unit_length') } } : {}),
    };
  });
}

/** A per-document table: the record key is a document index, the value's space-separated fields fill the other columns. */
export function tableCsvGz(table: TableOutput, records: readonly SideRecord[], ids: readonly string[]): Buffer {
  const width = table.columns.length - 1;
  const rows: Cell[][] = records.map(([key, value]) => {
    const doc = ids[Number(key)];
    const fields = value === '' ? [] : value.split(' ');
    if (doc === undefined || !/^\d+$/.test(key) || fields.length !== width) {
      throw new Error(`table ${table.dataset}: record ${JSON.stringify(`${key}\t${value}`.slice(0, 80))} is not "<document index><TAB>${width} fields"`);
    }
    return [doc, ...fields];
  });
  rows.sort(byText);
  return gzipSync(Buffer.from(toCsv(table.columns, rows), 'utf8'), { level: 6 });
}

/** Where a file a kernel kept (KernelResult.kept) lies in the results folder. */
export function keptFilePath(variant: string, name: string): string {
  return `kept/${variant}/${name}`;
}
