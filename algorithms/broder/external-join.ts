/**
 * The worker-thread halves of the out-of-core Broder kernel (`external.ts`): MR#1's reducer
 * over one partition of the fingerprint runs, and MR#2 over one range of the pair runs. The
 * same decisions as the in-memory join (`join.ts`) and the text jobs (`jobs.ts`), from
 * `sampling.ts`, so the pairs, scores and counters are the same.
 */
import { PairBuffer } from '../text/pair-buffer.ts';
import { fingerprintMod } from '../text/fingerprint.ts';
import { mergePairCounts, PairCountSpiller, type PairRun } from '../text/pair-count-runs.ts';
import { forEachSharedFingerprint } from '../text/fingerprint-runs.ts';
import { mergeRunChunks, throwIfStopped, type RunPart } from '../text/sorted-runs.ts';
import type { Sampling } from './params.ts';
import { commonalityLimit, pairsOf, singleModulus, usesSampledSize } from './sampling.ts';

export interface JoinPartitionPayload {
  /** the partition's fingerprints held by two documents or more, grouped (`fingerprint-runs.ts`) */
  readonly shared: RunPart;
  /** its fingerprints held by one document: read only when the mapper samples, for the sizes */
  readonly single: RunPart | null;
  readonly width: 2 | 4;
  readonly sampling: Sampling;
  /** distinct fingerprints of every document (the full sizes) */
  readonly sizes: Uint32Array;
  readonly docs: number;
  /** ranges of the smaller document of a pair, for the pair runs (`pairRanges`) */
  readonly bounds: readonly number[];
  readonly capacityPairs: number;
  readonly bufferRecords: number;
  /** pair runs are written to `${pathPrefix}-<n>` */
  readonly pathPrefix: string;
  readonly stop?: Int32Array;
}

export interface JoinPartitionResult {
  /** entries each document's mapper keeps, when the mapper samples (else null: all of them) */
  readonly own: Uint32Array | null;
  readonly overSct: number;
  readonly outputPairs: number;
  readonly runs: PairRun[];
  readonly bytes: number;
}

/**
 * Runs in a worker thread: merges the partition's runs into fingerprint groups (each group's
 * documents ascending), applies the mapper's sampling and the reducer's SCT, and counts every
 * pair of documents that share a kept fingerprint.
 */
export function joinPartition(p: JoinPartitionPayload): JoinPartitionResult {
  const width = p.width;
  const record = width + 1;
  const limit = commonalityLimit(p.sampling);
  const sampled = usesSampledSize(p.sampling);
  // Mod sampling keeps a fingerprint in every document or in none: one decision per group.
  const mod = sampled ? singleModulus(p.sampling) : null;
  const own = sampled ? new Uint32Array(p.docs) : null;
  const spiller = new PairCountSpiller(p.capacityPairs, p.bounds, p.pathPrefix, p.stop);
  let overSct = 0;
  let outputPairs = 0;

  forEachSharedFingerprint(p.shared, { width, bufferRecords: p.bufferRecords, stop: p.stop }, (fp, group, size) => {
    let df = size;
    if (mod && own) {
      // The mapper's sampling: a document emits the fingerprint when fp mod m == residue.
      if (residueOf(fp, width, mod.m) !== mod.residue) df = 0;
      for (let i = 0; i < df; i++) own[group[i] as number] = (own[group[i] as number] as number) + 1;
    }
    if (df > limit) {
      overSct++;
      return;
    }
    if (df < 2) return;
    outputPairs += pairsOf(df);
    for (let i = 0; i < df; i++) {
      const a = group[i] as number;
      for (let j = i + 1; j < df; j++) spiller.increment(a, group[j] as number);
    }
  });
  if (p.single && mod && own) {
    // A fingerprint of one document pairs with nothing; it only counts in the document's size.
    const fp = new Uint32Array(width);
    mergeRunChunks(
      [p.single],
      record,
      width,
      (w, records) => {
        for (let at = 0, end = records * record; at < end; at += record) {
          for (let x = 0; x < width; x++) fp[x] = w[at + x] as number;
          if (residueOf(fp, width, mod.m) !== mod.residue) continue;
          const d = w[at + width] as number;
          own[d] = (own[d] as number) + 1;
        }
      },
      { bufferRecords: p.bufferRecords, ...(p.stop ? { stop: p.stop } : {}) },
    );
  }
  const runs = spiller.finish();
  return { own, overSct, outputPairs, runs, bytes: spiller.bytes };
}

export interface ScoreRangePayload {
  readonly parts: readonly RunPart[];
  /** the size that enters the RR denominator, per document */
  readonly sizes: Uint32Array;
  readonly floor: number;
  readonly bufferRecords: number;
  readonly stop?: Int32Array;
}

export interface ScoreRangeResult {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
  /** pairs with at least one shared fingerprint (MR#2's reduce calls) */
  readonly distinct: number;
}

/** Runs in a worker thread: MR#2 over one range of the pair runs, pairs in (a, b) order. */
export function scoreRange(p: ScoreRangePayload): ScoreRangeResult {
  const out = new PairBuffer(1 << 12);
  let distinct = 0;
  mergePairCounts(
    p.parts,
    (a, b, c) => {
      distinct++;
      // Same expression as `resemblance()` in sampling.ts.
      const rr = c / ((p.sizes[a] as number) + (p.sizes[b] as number) - c);
      if (rr < p.floor) return;
      out.push(a, b, rr);
    },
    { bufferRecords: p.bufferRecords, ...(p.stop ? { stop: p.stop } : {}) },
  );
  throwIfStopped(p.stop);
  return { ...out.result(), distinct };
}

/** fp mod m; a power of two is the low bits (fingerprintMod's own shortcut, without its checks). */
function residueOf(fp: Uint32Array, width: 2 | 4, m: number): number {
  return (m & (m - 1)) === 0 ? (fp[width - 1] as number) & (m - 1) : fingerprintMod(fp, 0, width, m);
}
