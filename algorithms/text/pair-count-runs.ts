/**
 * Pair counting in bounded memory: a join adds (a, b) increments to a hash table
 * (`PairCounts`); when the table is full it is sorted by (a, b) and written as a run of
 * (a, b, count) records, cut into parts by ranges of `a`; in the end every range's parts are
 * merged (`mergePairCounts`), summing the counts of a pair over all runs. Each range can be
 * merged on its own worker thread, and the pairs come out in (a, b) order.
 *
 * This is MR#1's reducer output and MR#2's sum over binary records: the counts equal the text
 * jobs' pair counts, whatever the number of spills.
 */
import { PairCounts } from './pair-counts.ts';
import { sortRecords } from '../../kernels/sort/records.ts';
import { mergeRunChunks, throwIfStopped, writeRun, type RunPart } from './sorted-runs.ts';

/** Words of a pair record: a, b, count. */
export const PAIR_RECORD = 3;

/** Bytes a spiller of `capacityPairs` holds: its table, and the records and sort copy of a spill. */
export function pairSpillerBytes(capacityPairs: number): number {
  return PairCounts.bytesFor(capacityPairs) + 2 * capacityPairs * PAIR_RECORD * 4;
}

/**
 * The largest capacity whose spiller fits in `bytes`, a power of two, at least 64 pairs (a
 * budget that small spills often, which is how tests make it spill).
 */
export function pairCapacityFor(bytes: number): number {
  let capacity = 64;
  while (pairSpillerBytes(capacity * 2) <= bytes) capacity *= 2;
  return capacity;
}

/**
 * Range bounds over documents for `parts` ranges holding about equal numbers of pairs (a, b),
 * a < b, when pairs are spread evenly: document a is the smaller of n - a - 1 pairs, so the
 * bounds are n (1 - sqrt(1 - q / parts)).
 */
export function pairRanges(documents: number, parts: number): number[] {
  const bounds = [0];
  for (let q = 1; q < parts; q++) bounds.push(Math.max(bounds[q - 1] as number, Math.min(documents, Math.round(documents * (1 - Math.sqrt(1 - q / parts))))));
  bounds.push(documents);
  return bounds;
}

/** A spilled run: its file, and where each range of `a` starts in it (records; `ranges + 1` bounds). */
export interface PairRun {
  readonly path: string;
  readonly cuts: readonly number[];
}

export class PairCountSpiller {
  private readonly table: PairCounts;
  private readonly records: Uint32Array;
  readonly runs: PairRun[] = [];
  bytes = 0;

  /**
   * `bounds` are the ranges of `a` (`pairRanges`); runs are written to `${pathPrefix}-<n>`.
   */
  constructor(
    readonly capacityPairs: number,
    private readonly bounds: readonly number[],
    private readonly pathPrefix: string,
    private readonly stop?: Int32Array,
  ) {
    this.table = new PairCounts(capacityPairs);
    this.records = new Uint32Array(capacityPairs * PAIR_RECORD);
  }

  /** Adds one to the count of (a, b); spills when the table is full. */
  increment(a: number, b: number): void {
    this.table.increment(a, b);
    if (this.table.size >= this.capacityPairs) this.spill();
  }

  /** Writes the table as a sorted run (nothing when it is empty). */
  spill(): void {
    throwIfStopped(this.stop);
    const n = this.table.drainRecords(this.records);
    if (n === 0) return;
    const sorted = sortRecords(this.records, { width: PAIR_RECORD, keyWords: 2, count: n }).records;
    const path = `${this.pathPrefix}-${this.runs.length}`;
    this.bytes += writeRun(path, sorted, PAIR_RECORD, n);
    const cuts: number[] = [0];
    let at = 0;
    for (let q = 1; q < this.bounds.length - 1; q++) {
      const bound = this.bounds[q] as number;
      while (at < n && (sorted[at * PAIR_RECORD] as number) < bound) at++;
      cuts.push(at);
    }
    cuts.push(n);
    this.runs.push({ path, cuts });
  }

  /** Spills what is left; returns the runs. */
  finish(): PairRun[] {
    this.spill();
    return this.runs;
  }
}

/** The parts of `runs` holding range `q`. */
export function rangeParts(runs: readonly PairRun[], q: number): RunPart[] {
  return runs.map((r) => ({ path: r.path, from: r.cuts[q] as number, to: r.cuts[q + 1] as number })).filter((p) => p.to > p.from);
}

/** Merges pair runs in (a, b) order, calling `visit` once per pair with its summed count. */
export function mergePairCounts(
  parts: readonly RunPart[],
  visit: (a: number, b: number, count: number) => void,
  opts: { readonly bufferRecords?: number; readonly stop?: Int32Array } = {},
): void {
  let a = -1;
  let b = -1;
  let c = 0;
  mergeRunChunks(
    parts,
    PAIR_RECORD,
    2,
    (w, records) => {
      for (let at = 0, end = records * PAIR_RECORD; at < end; at += PAIR_RECORD) {
        const x = w[at] as number;
        const y = w[at + 1] as number;
        if (x === a && y === b) {
          c += w[at + 2] as number;
          continue;
        }
        if (a >= 0) visit(a, b, c);
        a = x;
        b = y;
        c = w[at + 2] as number;
      }
    },
    opts,
  );
  if (a >= 0) visit(a, b, c);
  throwIfStopped(opts.stop);
}
