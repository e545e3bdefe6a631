/**
 * The oracle file of planted spans: CSV with the header
 * `doc_a,start_a,end_a,doc_b,start_b,end_b,sentences`, document ids as the corpus names them,
 * character offsets (UTF-16 code units, end exclusive) into each document's text.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { DataError } from '../errors.ts';
import { toCsv } from '../csv.ts';

/** One planted run: `sentences` sentences of document `a` at [aStart, aEnd) are copied into `b` at [bStart, bEnd). */
export interface OracleSpan {
  readonly a: string;
  readonly aStart: number;
  readonly aEnd: number;
  readonly b: string;
  readonly bStart: number;
  readonly bEnd: number;
  readonly sentences: number;
}

export const ORACLE_HEADER = ['doc_a', 'start_a', 'end_a', 'doc_b', 'start_b', 'end_b', 'sentences'] as const;

export function oracleCsv(spans: readonly OracleSpan[]): string {
  return toCsv(ORACLE_HEADER, spans.map((s) => [s.a, s.aStart, s.aEnd, s.b, s.bStart, s.bEnd, s.sentences]));
}

/** Reads an oracle file; a malformed one is a one-line DataError naming the file and line. */
export function readOracleFile(file: string): OracleSpan[] {
  let rows: string[][];
  try {
    rows = parse(readFileSync(file, 'utf8'), { relax_column_count: true }) as string[][];
  } catch (e) {
    throw new DataError(`${file}: cannot read the oracle: ${(e as Error).message.split('\n')[0]}`);
  }
  const header = rows[0] ?? [];
  if (header.join(',') !== ORACLE_HEADER.join(',')) {
    throw new DataError(`${file}:1: the oracle's header must be ${ORACLE_HEADER.join(',')}`);
  }
  return rows.slice(1).map((r, i) => {
    const n = (k: number): number => Number(r[k]);
    const span = { a: r[0] ?? '', aStart: n(1), aEnd: n(2), b: r[3] ?? '', bStart: n(4), bEnd: n(5), sentences: n(6) };
    if (r.length !== ORACLE_HEADER.length || [span.aStart, span.aEnd, span.bStart, span.bEnd, span.sentences].some((x) => !Number.isInteger(x) || x < 0)) {
      throw new DataError(`${file}:${i + 2}: expected ${ORACLE_HEADER.length} fields with non-negative integer offsets: ${JSON.stringify(r.join(',').slice(0, 80))}`);
    }
    return span;
  });
}
