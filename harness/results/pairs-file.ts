/**
 * `pairs/<variant>.csv.gz`: `doc_a,doc_b,score` with doc_a < doc_b, sorted, gzip'd. Node's gzip
 * writes no timestamp, so the same pairs give the same bytes.
 */
import { gzipSync } from 'node:zlib';
import { formatScore, type PairList } from '../../contract/index.ts';
import { formatCell } from './csv.ts';

/** The pairs scoring at least `minScore`, gzip'd, and how many there are. */
export function pairsCsvGz(pairs: PairList, ids: readonly string[], minScore: number): { bytes: Buffer; rows: number } {
  const rows: [string, string, number][] = [];
  for (let i = 0; i < pairs.a.length; i++) {
    const s = pairs.score[i] as number;
    if (s < minScore) continue;
    const x = ids[pairs.a[i] as number] as string;
    const y = ids[pairs.b[i] as number] as string;
    rows.push(x < y ? [x, y, s] : [y, x, s]);
  }
  rows.sort((p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : p[1] < q[1] ? -1 : p[1] > q[1] ? 1 : 0));
  const lines = ['doc_a,doc_b,score'];
  for (const [x, y, s] of rows) lines.push(`${csvField(x)},${csvField(y)},${formatScore(s)}`);
  return { bytes: gzipSync(Buffer.from(lines.join('\n') + '\n', 'utf8'), { level: 6 }), rows: rows.length };
}

function csvField(s: string): string {
  const v = formatCell(s);
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
