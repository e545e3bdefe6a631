/**
 * `pairs/<variant>.csv.gz`: `doc_a,doc_b,score` with doc_a < doc_b, sorted, gzip'd. Node's gzip
 * writes no timestamp, so the same pairs give the same bytes.
 */
import { gzipSync } from 'node:zlib';
import type { PairList } from '../../algorithms/types.ts';
import { formatScore } from '../../algorithms/types.ts';
import { formatCell } from './csv.ts';

export function pairsCsvGz(pairs: PairList, ids: readonly string[], minScore: number): Buffer {
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
  return gzipSync(Buffer.from(lines.join('\n') + '\n', 'utf8'), { level: 6 });
}

function csvField(s: string): string {
  const v = formatCell(s);
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
