/** The results folder's CSV files as header + rows of strings, and as HTML tables. */
import { parse } from 'csv-parse/sync';
import { DataError } from '../errors.ts';
import { human } from '../format.ts';
import { escapeHtml } from './escape.ts';

export interface CsvTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** Parses a CSV with a header line; `file` names it in the error when it is malformed. */
export function parseCsvTable(text: string, file: string): CsvTable {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (e) {
    const err = e as { lines?: number; message?: string };
    throw new DataError(`${file}: line ${err.lines ?? '?'}: ${(err.message ?? String(e)).split('\n')[0]}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new DataError(`${file}: empty CSV (no header line)`);
  return { header, rows };
}

/** A cell that reads as a number (the CSV writers print plain JavaScript numbers). */
export function isNumericCell(cell: string): boolean {
  return cell.trim() !== '' && Number.isFinite(Number(cell));
}

/** True when every column but the first holds numbers or empty cells: the shape a bar chart can draw. */
export function isNumericTable(t: CsvTable): boolean {
  return t.header.length >= 2 && t.rows.length > 0 && t.rows.every((r) => r.slice(1).every((c) => c === '' || isNumericCell(c)));
}

// Numbers align right and never wrap; long prose (a skip's detail) may wrap.
function cellClass(c: string): string {
  return isNumericCell(c) ? ' class="num"' : c.length > 40 ? ' class="text"' : '';
}

/**
 * A cell as people read it: a fraction to three significant figures (`0.0188`, not
 * `0.018804297262392185`), with every digit in its tooltip; integers, which may be ids or years,
 * and text as they are.
 */
function renderCell(c: string): string {
  if (!isNumericCell(c) || Number.isInteger(Number(c))) return `<td${cellClass(c)}>${escapeHtml(c)}</td>`;
  return `<td class="num" title="${escapeHtml(c)}">${escapeHtml(human(Number(c)))}</td>`;
}

/** An HTML table; every cell is escaped, numbers are right-aligned and rounded for reading. */
export function renderCsvTable(t: CsvTable, caption?: string): string {
  const head = t.header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const body = t.rows
    .map((r) => `<tr>${r.map(renderCell).join('')}</tr>`)
    .join('\n');
  const cap = caption === undefined ? '' : `<caption>${escapeHtml(caption)}</caption>`;
  return `<div class="table-wrap"><table>${cap}<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}
