/**
 * Reads what an external detector wrote: pairs (`doc_a,doc_b[,score]`) or clusters
 * (`doc,cluster`), by the collection's document ids. A line that cannot be used (a wrong number
 * of fields, a score that is not a number in [0, 1], a document paired with itself or listed in
 * two clusters, an id not in the corpus) is a counted skip named by its line, or, with
 * `strict`, an error. Clusters become their induced pairs (every pair inside a cluster, score 1)
 * and the clusters table the built-in MinHash-LSH writes too.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { InputFileError, type PairList, type SideRecord } from '../../contract/index.ts';
import { csvFields } from './csv-line.ts';

export const OUTPUT_GROUP = 'external';

export interface OutputOptions {
  /** the corpus' document ids, by index */
  readonly ids: readonly string[];
  readonly format: 'pairs' | 'clusters';
  /** whether a pairs line carries a score in its third field */
  readonly scored: boolean;
  readonly strict: boolean;
  /** how messages name the output: the variant and the file */
  readonly where: string;
}

export interface OutputReading {
  readonly pairs: PairList;
  /** the clusters table's records (`doc → "cluster size"`), for `format: clusters` */
  readonly clusters?: readonly SideRecord[];
  readonly counters: Readonly<Record<string, number>>;
  readonly warnings: readonly string[];
}

/** Skipped lines named one by one in run.json's warnings; the rest are counted. */
const NAMED_SKIPS = 20;
const SHOWN = 80;

const HEADERS = new Set(['doc_a,doc_b', 'doc_a,doc_b,score', 'doc,cluster']);

type Skip = 'malformed' | 'unknown_id';

/** Collects an output line by line; `result` gives the reading. */
export class OutputCollector {
  private readonly index = new Map<string, number>();
  private readonly pairIndex = new Map<number, number>();
  private readonly a: number[] = [];
  private readonly b: number[] = [];
  private readonly score: number[] = [];
  private readonly clusterOf: (string | undefined)[] = [];
  private readonly skipped: Record<Skip, number> = { malformed: 0, unknown_id: 0 };
  private readonly warnings: string[] = [];
  private lines = 0;
  private repeated = 0;

  constructor(private readonly o: OutputOptions) {
    o.ids.forEach((id, i) => this.index.set(id, i));
  }

  line(text: string, n: number): void {
    if (text === '' || (n === 1 && HEADERS.has(text.trim()))) return;
    this.lines++;
    const fields = csvFields(text.endsWith('\r') ? text.slice(0, -1) : text);
    if (this.o.format === 'clusters') this.clusterLine(fields, text, n);
    else this.pairLine(fields, text, n);
  }

  private pairLine(fields: string[] | undefined, text: string, n: number): void {
    const want = this.o.scored ? 3 : 2;
    if (fields === undefined || fields.length < 2 || fields.length > 3 || (this.o.scored && fields.length !== 3)) {
      return this.skip('malformed', n, `not doc_a,doc_b${this.o.scored ? ',score' : '[,score]'} (${want} fields)`, text);
    }
    const x = this.docIndex(fields[0] as string, n);
    const y = this.docIndex(fields[1] as string, n);
    if (x === undefined || y === undefined) return;
    if (x === y) return this.skip('malformed', n, 'a document paired with itself', text);
    let s = 1;
    if (this.o.scored) {
      const raw = (fields[2] as string).trim();
      s = raw === '' ? NaN : Number(raw);
      if (!(s >= 0 && s <= 1)) return this.skip('malformed', n, 'the score is not a number in [0, 1]', text);
    }
    this.addPair(Math.min(x, y), Math.max(x, y), s);
  }

  private clusterLine(fields: string[] | undefined, text: string, n: number): void {
    if (fields === undefined || fields.length !== 2 || fields[1] === '') return this.skip('malformed', n, 'not doc,cluster (2 fields)', text);
    const d = this.docIndex(fields[0] as string, n);
    if (d === undefined) return;
    const was = this.clusterOf[d];
    if (was !== undefined && was !== fields[1]) return this.skip('malformed', n, 'a document listed in two clusters', text);
    this.clusterOf[d] = fields[1];
  }

  private docIndex(id: string, n: number): number | undefined {
    const i = this.index.get(id);
    if (i === undefined) this.skip('unknown_id', n, 'a document id not in the corpus', id);
    return i;
  }

  private addPair(a: number, b: number, s: number): void {
    const key = a * this.o.ids.length + b;
    const at = this.pairIndex.get(key);
    if (at !== undefined) {
      // Written twice (both orders, or by two buckets): one pair, at its higher score.
      this.repeated++;
      this.score[at] = Math.max(this.score[at] as number, s);
      return;
    }
    this.pairIndex.set(key, this.a.length);
    this.a.push(a);
    this.b.push(b);
    this.score.push(s);
  }

  private skip(kind: Skip, n: number, why: string, text: string): void {
    const shown = JSON.stringify(text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text);
    const message = `${this.o.where}:${n}: ${why}: ${shown}`;
    if (this.o.strict) throw new InputFileError(`${message} (strict mode)`);
    this.skipped[kind]++;
    if (this.warnings.length < NAMED_SKIPS) this.warnings.push(`${message} (skipped)`);
  }

  result(): OutputReading {
    const clusters = this.o.format === 'clusters' ? this.inducedPairs() : undefined;
    const skippedAll = this.skipped.malformed + this.skipped.unknown_id;
    const warnings = [...this.warnings];
    if (skippedAll > this.warnings.length) warnings.push(`${this.o.where}: ${skippedAll - this.warnings.length} more lines skipped (${skippedAll} in all)`);
    if (this.lines === 0) warnings.push(`${this.o.where}: the command wrote no ${this.o.format}`);
    return {
      pairs: { a: Uint32Array.from(this.a), b: Uint32Array.from(this.b), score: Float64Array.from(this.score) },
      ...(clusters ? { clusters } : {}),
      counters: {
        lines_read: this.lines,
        lines_skipped_malformed: this.skipped.malformed,
        lines_skipped_unknown_id: this.skipped.unknown_id,
        pairs_repeated: this.repeated,
        output_pairs: this.a.length,
      },
      warnings,
    };
  }

  /** Every pair inside each cluster (score 1), and the table: each clustered document, the smallest index of its cluster, its size. */
  private inducedPairs(): SideRecord[] {
    const members = new Map<string, number[]>();
    this.clusterOf.forEach((label, d) => {
      if (label === undefined) return;
      const list = members.get(label);
      if (list) list.push(d);
      else members.set(label, [d]);
    });
    const records: SideRecord[] = [];
    for (const docs of members.values()) {
      // forEach visits indexes in order: docs is sorted and docs[0] is the smallest.
      if (docs.length < 2) continue;
      for (let i = 0; i < docs.length; i++) {
        records.push([String(docs[i]), `${docs[0]} ${docs.length}`]);
        for (let j = i + 1; j < docs.length; j++) this.addPair(docs[i] as number, docs[j] as number, 1);
      }
    }
    return records;
  }
}

/** Reads the command's output file. */
export async function readOutput(path: string, o: OutputOptions): Promise<OutputReading> {
  if (!existsSync(path)) throw new InputFileError(`${o.where}: the command ended without writing its output (${o.format}) to {output}`);
  const collector = new OutputCollector(o);
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  input.setEncoding('utf8');
  raw.on('error', (e) => input.destroy(e));
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) collector.line(text, ++n);
  return collector.result();
}
