/**
 * Each document's join entries reordered so that the ids a sampling keeps come first, for the
 * samplings whose kept ids can be ordered that way: mod 2^k with residue 0 keeps a fingerprint
 * whose lowest k bits are 0 (so, ordered by trailing zero bits, most first, every such modulus
 * keeps a prefix), and SCT keeps an id held by at most `threshold` documents (so, ordered by
 * document frequency, least first, every threshold keeps a prefix). A sweep's variants then
 * each read a prefix of one shared order instead of testing every entry against a mask: the
 * entries a sampling drops are never touched, and the test was a cache miss per entry.
 *
 * ScanCount counts a pair once per shared id whatever the order of a document's ids, so the
 * pairs and scores are those of the features' own order.
 */
import type { StoreCodec } from '../../contract/index.ts';
import { sharedU32 } from '../text/chunks.ts';
import { codeDigest } from '../text/code-digest.ts';
import type { DocumentFeatures } from '../text/features.ts';
import type { Sampling } from './params.ts';

/** This folder, whose code the stored values' keys digest (made once: a key is asked for each explanation too). */
const THIS_FOLDER = new URL('./', import.meta.url);

export type EntryOrderKind = 'trailing-zeros' | 'document-frequency';

export interface EntryOrder {
  readonly kind: EntryOrderKind;
  /** the features' `ids` and `entryPos`, each document's entries in this order (same `docStart`) */
  readonly ids: Uint32Array;
  readonly entryPos: Uint32Array;
  /** each entry's ScanCount work: the entries after it in its id's posting list (df - entryPos - 1) */
  readonly tail: Uint32Array;
  /**
   * By key K (32 minus trailing zeros; document frequency): how many ids have a key of at most
   * K, and the pairs C(df, 2) they give MR#1's reducer; so a variant's counters are two reads
   */
  readonly idsUpTo: Float64Array;
  readonly pairsUpTo: Float64Array;
}

/**
 * An order as `KernelContext.stored` keeps it across runs, beside the features it orders
 * (`featuresKey`: their codec's key, which names their shingling and code).
 */
export function entryOrderCodec(featuresKey: string, kind: EntryOrderKind): StoreCodec<EntryOrder> {
  const words = (a: Float64Array): Uint32Array => new Uint32Array(a.buffer, a.byteOffset, a.length * 2);
  const doubles = (a: Uint32Array): Float64Array => new Float64Array(a.buffer, a.byteOffset, a.length / 2);
  return {
    key: `${featuresKey}:order:${kind}:${codeDigest(THIS_FOLDER)}`,
    describe: `an entry order by ${kind === 'trailing-zeros' ? 'trailing zero bits' : 'document frequency'} (Broder's samplings)`,
    encode: (o) => ({ meta: { kind: o.kind }, arrays: [o.ids, o.entryPos, o.tail, words(o.idsUpTo), words(o.pairsUpTo)] }),
    decode: ({ arrays }) => {
      const [ids, entryPos, tail, idsUpTo, pairsUpTo] = arrays as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];
      return { kind, ids, entryPos, tail, idsUpTo: doubles(idsUpTo), pairsUpTo: doubles(pairsUpTo) };
    },
  };
}

/** The largest key a sampling keeps: every id of key <= it is joined. */
export function keptKey(order: EntryOrder, sampling: Sampling): number {
  if (order.kind === 'trailing-zeros' && sampling.method === 'mod') return 32 - Math.log2(sampling.m);
  if (order.kind === 'document-frequency' && sampling.method === 'sct') return Math.min(sampling.threshold, order.idsUpTo.length - 1);
  throw new Error(`broder: the ${order.kind} order does not keep ${sampling.method} sampling's ids as a prefix`);
}

/** The order whose prefixes a sampling keeps; null when its kept ids are not a prefix of one. */
export function entryOrderFor(sampling: Sampling): EntryOrderKind | null {
  if (sampling.method === 'sct') return 'document-frequency';
  if (sampling.method === 'mod' && sampling.residues === undefined && sampling.residue === 0 && (sampling.m & (sampling.m - 1)) === 0) return 'trailing-zeros';
  return null;
}

/** Trailing zero bits of a fingerprint's lowest 32-bit word (32 for a zero word): mod 2^k keeps it when this is >= k. */
export function trailingZeros(f: DocumentFeatures, id: number): number {
  const low = f.words[id * f.width + f.width - 1] as number;
  return low === 0 ? 32 : 31 - Math.clz32(low & -low);
}

export function documentFrequency(f: DocumentFeatures, id: number): number {
  return (f.postStart[id + 1] as number) - (f.postStart[id] as number);
}

export function buildEntryOrder(f: DocumentFeatures, kind: EntryOrderKind): EntryOrder {
  const ids = sharedU32(f.ids.length);
  const entryPos = sharedU32(f.ids.length);
  if (kind === 'trailing-zeros') {
    // Each id's key read once, in id order (the fingerprints are 8 or 16 bytes an id, the keys 1).
    const key = new Uint8Array(f.fingerprints);
    for (let id = 0; id < f.fingerprints; id++) key[id] = 32 - trailingZeros(f, id);
    // A counting sort per document over 33 keys, most zeros first.
    const count = new Uint32Array(34);
    for (let d = 0; d < f.docs; d++) {
      const start = f.docStart[d] as number;
      const end = f.docStart[d + 1] as number;
      count.fill(0);
      for (let e = start; e < end; e++) count[(key[f.ids[e] as number] as number) + 1]!++;
      count[0] = start;
      for (let k = 1; k < 34; k++) count[k] = (count[k] as number) + (count[k - 1] as number);
      for (let e = start; e < end; e++) {
        const at = count[key[f.ids[e] as number] as number]!++;
        ids[at] = f.ids[e] as number;
        entryPos[at] = f.entryPos[e] as number;
      }
    }
  } else {
    // Two stable counting sorts over all entries: by document frequency, then by document,
    // which leaves each document's entries ordered by frequency.
    const n = f.ids.length;
    const dfOf = new Uint32Array(n);
    let maxDf = 0;
    for (let e = 0; e < n; e++) {
      const df = documentFrequency(f, f.ids[e] as number);
      dfOf[e] = df;
      if (df > maxDf) maxDf = df;
    }
    const count = new Uint32Array(maxDf + 2);
    for (let e = 0; e < n; e++) count[(dfOf[e] as number) + 1]!++;
    for (let k = 1; k < count.length; k++) count[k] = (count[k] as number) + (count[k - 1] as number);
    const byDf = new Uint32Array(n);
    for (let e = 0; e < n; e++) byDf[count[dfOf[e] as number]!++] = e;
    const docOf = dfOf; // reused: the frequencies are in byDf's order now
    for (let d = 0; d < f.docs; d++) docOf.fill(d, f.docStart[d] as number, f.docStart[d + 1] as number);
    const fill = f.docStart.slice(0, f.docs);
    for (let k = 0; k < n; k++) {
      const e = byDf[k] as number;
      const at = fill[docOf[e] as number]!++;
      ids[at] = f.ids[e] as number;
      entryPos[at] = f.entryPos[e] as number;
    }
  }
  const tail = new Uint32Array(ids.length);
  for (let e = 0; e < ids.length; e++) tail[e] = documentFrequency(f, ids[e] as number) - (entryPos[e] as number) - 1;
  let maxKey = 32;
  const keyOf = (id: number): number => (kind === 'trailing-zeros' ? 32 - trailingZeros(f, id) : documentFrequency(f, id));
  for (let id = 0; id < f.fingerprints; id++) maxKey = Math.max(maxKey, keyOf(id));
  const idsUpTo = new Float64Array(maxKey + 1);
  const pairsUpTo = new Float64Array(maxKey + 1);
  for (let id = 0; id < f.fingerprints; id++) {
    const k = keyOf(id);
    const df = documentFrequency(f, id);
    idsUpTo[k]!++;
    pairsUpTo[k]! += (df * (df - 1)) / 2;
  }
  for (let k = 1; k <= maxKey; k++) {
    idsUpTo[k]! += idsUpTo[k - 1]!;
    pairsUpTo[k]! += pairsUpTo[k - 1]!;
  }
  return { kind, ids, entryPos, tail, idsUpTo, pairsUpTo };
}

/**
 * Where each document's kept prefix ends in `order`: the first entry `kept` is false for, found
 * by bisection (kept is true on a prefix of every document's entries, by the order's choice).
 */
export function keptPrefixEnds(f: DocumentFeatures, order: EntryOrder, kept: (id: number) => boolean): Uint32Array {
  const ends = sharedU32(f.docs);
  for (let d = 0; d < f.docs; d++) {
    let lo = f.docStart[d] as number;
    let hi = f.docStart[d + 1] as number;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (kept(order.ids[mid] as number)) lo = mid + 1;
      else hi = mid;
    }
    ends[d] = lo;
  }
  return ends;
}
