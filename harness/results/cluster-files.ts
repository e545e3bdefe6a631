/**
 * A clustered variant's clusters and links read back from its run folder, for `bench explain`'s
 * chain (issue 26): `clusters/<variant>.csv.gz` (doc_id, cluster, cluster_size) and the links
 * from `pairs/<variant>.csv.gz` (doc_a, doc_b, score), by the run's document ids.
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { DataError, UserError } from '../errors.ts';

const gunzipAsync = promisify(gunzip);

async function rows(file: string, columns: readonly string[]): Promise<string[][]> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new UserError(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let records: string[][];
  try {
    records = parse(await gunzipAsync(bytes), { skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (e) {
    throw new DataError(`${file}: not a gzipped CSV file: ${(e as Error).message.split('\n')[0]}`);
  }
  const head = records[0];
  if (!head || columns.some((c, i) => head[i] !== c)) throw new DataError(`${file}: line 1: expected the columns ${columns.join(',')}`);
  return records.slice(1);
}

/** Each document's cluster label (−1: in none) from a clusters file; `index` maps a document id to its index. */
export async function readClusterLabels(file: string, index: ReadonlyMap<string, number>, documents: number): Promise<Int32Array> {
  const clusterOf = new Int32Array(documents).fill(-1);
  const records = await rows(file, ['doc_id', 'cluster']);
  records.forEach((r, i) => {
    const d = index.get(r[0] as string);
    const c = Number(r[1]);
    if (d === undefined || !Number.isInteger(c)) throw new DataError(`${file}: line ${i + 2}: not a document of the run and a cluster number: ${JSON.stringify(r.join(',').slice(0, 80))}`);
    clusterOf[d] = c;
  });
  return clusterOf;
}

/** The pairs of a pairs file whose score is at least `from` (0: every pair), as document indexes. */
export async function readPairLinks(file: string, index: ReadonlyMap<string, number>, from: number): Promise<{ a: number[]; b: number[] }> {
  const a: number[] = [];
  const b: number[] = [];
  const records = await rows(file, ['doc_a', 'doc_b']);
  records.forEach((r, i) => {
    const x = index.get(r[0] as string);
    const y = index.get(r[1] as string);
    const score = r[2] === undefined || r[2] === '' ? 1 : Number(r[2]);
    if (x === undefined || y === undefined || !(score >= 0)) throw new DataError(`${file}: line ${i + 2}: not two documents of the run and a score: ${JSON.stringify(r.join(',').slice(0, 80))}`);
    if (score >= from) {
      a.push(x);
      b.push(y);
    }
  });
  return { a, b };
}
