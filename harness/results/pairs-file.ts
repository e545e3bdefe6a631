/**
 * `pairs/<variant>.csv.gz`: `doc_a,doc_b,score` with doc_a < doc_b, sorted, gzip'd. Node's gzip
 * writes no timestamp, so the same pairs give the same bytes. The text is made a few thousand
 * rows at a time as gzip takes it, and the file is kept as gzip's pieces: neither the text nor
 * the file is ever one string or Buffer, so no size of output can exceed what Node allows.
 */
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { formatScore, type PairList } from '../../contract/index.ts';
import { workerModule } from '../../contract/tasks.ts';
import type { TaskRunner } from '../runtime/tasks.ts';
import type * as PairsFile from './pairs-file.ts';
import { formatCell } from '../csv.ts';
import { stableOrder } from '../../kernels/sort/stable-order.ts';

/** The documents' ids in the file's order and as CSV fields, made once per document set. */
interface IdTable {
  /** each document's place among the ids sorted as strings (UTF-16 code units), equal ids alike; shared with worker threads */
  readonly rank: Uint32Array;
  readonly field: readonly string[];
}

/** CSV fields as UTF-8 on a SharedArrayBuffer: field i is bytes [ends[i-1], ends[i]). */
interface SharedFields {
  /** names the table, so that a worker thread decodes it once */
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

const tables = new WeakMap<readonly string[], IdTable>();
let tablesMade = 0;

function idTable(ids: readonly string[]): IdTable {
  const known = tables.get(ids);
  if (known) return known;
  const order = Array.from(ids.keys()).sort((i, j) => compareStrings(ids[i] as string, ids[j] as string));
  const rank = new Uint32Array(new SharedArrayBuffer(Math.max(1, ids.length) * 4), 0, ids.length);
  order.forEach((doc, k) => {
    const before = order[k - 1];
    rank[doc] = before !== undefined && ids[before] === ids[doc] ? (rank[before] as number) : k;
  });
  const table = { rank, field: ids.map(csvField) };
  tables.set(ids, table);
  return table;
}

const sharedTables = new WeakMap<readonly string[], SharedFields>();

/** The fields as worker threads get them: made once, when a file is first made on one, and shared, not copied for every file. */
function sharedFields(ids: readonly string[], field: readonly string[]): SharedFields {
  const known = sharedTables.get(ids);
  if (known) return known;
  const utf8 = field.map((f) => Buffer.from(f, 'utf8'));
  const bytes = new Uint8Array(new SharedArrayBuffer(Math.max(1, utf8.reduce((n, b) => n + b.length, 0))));
  const ends = new Uint32Array(new SharedArrayBuffer(Math.max(1, ids.length) * 4), 0, ids.length);
  let at = 0;
  utf8.forEach((b, i) => {
    bytes.set(b, at);
    ends[i] = at += b.length;
  });
  const shared = { id: tablesMade++, bytes, ends };
  sharedTables.set(ids, shared);
  return shared;
}

/** A worker thread's decoded field tables: the last few it was sent. */
const decodedFields = new Map<number, readonly string[]>();

function fieldsOf(t: SharedFields): readonly string[] {
  let fields = decodedFields.get(t.id);
  if (!fields) {
    const text = Buffer.from(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength);
    fields = Array.from(t.ends, (end, i) => text.toString('utf8', i === 0 ? 0 : (t.ends[i - 1] as number), end));
    if (decodedFields.size >= 2) decodedFields.clear();
    decodedFields.set(t.id, fields);
  }
  return fields;
}

function compareStrings(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The pairs scoring at least `minScore`, each with its ids in the file's order. */
interface KeptPairs {
  readonly first: Uint32Array;
  readonly second: Uint32Array;
  readonly scores: Float64Array;
}

function keptPairs(pairs: PairList, rank: Uint32Array, minScore: number): KeptPairs {
  let n = 0;
  for (let i = 0; i < pairs.a.length; i++) if ((pairs.score[i] as number) >= minScore) n++;
  const first = new Uint32Array(n);
  const second = new Uint32Array(n);
  const scores = new Float64Array(n);
  let at = 0;
  for (let i = 0; i < pairs.a.length; i++) {
    const s = pairs.score[i] as number;
    if (s < minScore) continue;
    const a = pairs.a[i] as number;
    const b = pairs.b[i] as number;
    // Equal ranks are equal ids: either order is the same row.
    const aFirst = (rank[a] as number) < (rank[b] as number);
    first[at] = aFirst ? a : b;
    second[at] = aFirst ? b : a;
    scores[at++] = s;
  }
  return { first, second, scores };
}

/** Rows of the CSV text encoded at a time. */
const ROWS_A_PIECE = 4096;

/**
 * The CSV text of kept pairs, made a piece of ROWS_A_PIECE rows at a time as it is taken,
 * never joined: the text of a large file exceeds what one string or Buffer may hold. Rows are
 * sorted by the two ids as strings, through their ranks, by a stable radix order of the two
 * ranks: linear in the rows, where a comparison sort of a sampled variant's 180,000 rows took
 * most of its evaluation.
 */
function* csvPieces({ first, second, scores }: KeptPairs, rank: Uint32Array, field: readonly string[]): Generator<Buffer> {
  const n = first.length;
  const rankOf = (ids: Uint32Array): Uint32Array => ids.map((d) => rank[d] as number);
  const rows = stableOrder([rankOf(first), rankOf(second)]);
  yield Buffer.from('doc_a,doc_b,score\n');
  // Encoded a few thousand rows at a time: one string of the whole file would live through
  // every young-generation collection of its making, and be copied by each.
  for (let from = 0; from < n; from += ROWS_A_PIECE) {
    let text = '';
    const to = Math.min(n, from + ROWS_A_PIECE);
    for (let i = from; i < to; i++) {
      const r = rows[i] as number;
      text += `${field[first[r] as number] as string},${field[second[r] as number] as string},${formatScore(scores[r] as number)}\n`;
    }
    yield Buffer.from(text, 'utf8');
  }
}

/** gzip's output gathered into pieces of about this many bytes (its own chunks are 16 KiB). */
const GZIP_PIECE = 1 << 20;

/**
 * The pieces gzip'd as one stream, each piece made when gzip asks for more: the same bytes as
 * gzip of their concatenation (deflate's output does not depend on how its input is cut),
 * without that concatenation, as pieces of about GZIP_PIECE bytes, in order.
 */
async function gzipPieces(pieces: Iterable<Buffer>): Promise<Buffer[]> {
  const z = createGzip({ level: GZIP_LEVEL });
  const out: Buffer[] = [];
  let gathered: Buffer[] = [];
  let size = 0;
  z.on('data', (b: Buffer) => {
    gathered.push(b);
    size += b.length;
    if (size >= GZIP_PIECE) {
      out.push(Buffer.concat(gathered));
      gathered = [];
      size = 0;
    }
  });
  const ended = once(z, 'end');
  // once() rejects on 'error': a failure of gzip ends the writing below too.
  ended.catch(() => undefined);
  for (const p of pieces) if (!z.write(p)) await Promise.race([once(z, 'drain'), ended]);
  z.end();
  await ended;
  if (size > 0) out.push(Buffer.concat(gathered));
  return out;
}

/** The CSV text of the pairs scoring at least `minScore`, and how many there are. */
export function pairsCsv(pairs: PairList, ids: readonly string[], minScore: number): { bytes: Buffer; rows: number } {
  const { rank, field } = idTable(ids);
  const kept = keptPairs(pairs, rank, minScore);
  return { bytes: Buffer.concat([...csvPieces(kept, rank, field)]), rows: kept.first.length };
}

const pairsFile = workerModule<typeof PairsFile>(new URL('./pairs-file.ts', import.meta.url).href);

interface PairsFileTask extends KeptPairs {
  readonly rank: Uint32Array;
  readonly fields: SharedFields;
}

/** Runs on a worker thread: the CSV of kept pairs, gzip'd, in pieces (moved back, not copied). */
export async function pairsFileTask(p: PairsFileTask): Promise<{ pieces: Uint8Array[] }> {
  const pieces = await gzipPieces(csvPieces(p, p.rank, fieldsOf(p.fields)));
  // A piece that is a view of a larger buffer (a small one, from Node's pool) is copied out, so each moves alone.
  return { pieces: pieces.map((b) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b))) };
}

/**
 * `pairsCsv`, gzip'd: the caller goes on with the evaluation meanwhile. With `threads` (the
 * runtime's when they are up, idle between joins: runtime.ts `threadsIfUp`), the rows are
 * sorted, formatted and compressed on one of them; else the text is made here and compressed on
 * libuv's thread pool.
 * Level 4: 5% larger than level 6 on the quickstart's largest file (745 against 707 KB) in a
 * third of the time (39 against 114 ms).
 */
export async function pairsCsvGz(pairs: PairList, ids: readonly string[], minScore: number, threads?: TaskRunner): Promise<{ pieces: readonly Buffer[]; rows: number }> {
  const { rank, field } = idTable(ids);
  const kept = keptPairs(pairs, rank, minScore);
  const rows = kept.first.length;
  if (threads) {
    // The kept pairs are moved; the rank and field tables are shared.
    const r = await threads.run(pairsFile.task('pairsFileTask'), { ...kept, rank, fields: sharedFields(ids, field) });
    return { pieces: r.pieces.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)), rows };
  }
  return { pieces: await gzipPieces(csvPieces(kept, rank, field)), rows };
}

const GZIP_LEVEL = 4;

/** A document id as a field of the pairs file (quoted when it holds a comma, quote or line break). */
export function csvField(s: string): string {
  const v = formatCell(s);
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
