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
import { sharedU32 } from '../text/chunks.ts';
import type { DocumentFeatures } from '../text/features.ts';
import type { Sampling } from './params.ts';

export type EntryOrderKind = 'trailing-zeros' | 'document-frequency';

export interface EntryOrder {
  readonly kind: EntryOrderKind;
  /** the features' `ids` and `entryPos`, each document's entries in this order (same `docStart`) */
  readonly ids: Uint32Array;
  readonly entryPos: Uint32Array;
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
    // A counting sort per document over 33 keys, most zeros first.
    const count = new Uint32Array(34);
    for (let d = 0; d < f.docs; d++) {
      const start = f.docStart[d] as number;
      const end = f.docStart[d + 1] as number;
      count.fill(0);
      for (let e = start; e < end; e++) count[32 - trailingZeros(f, f.ids[e] as number) + 1]!++;
      count[0] = start;
      for (let k = 1; k < 34; k++) count[k] = (count[k] as number) + (count[k - 1] as number);
      for (let e = start; e < end; e++) {
        const at = count[32 - trailingZeros(f, f.ids[e] as number)]!++;
        ids[at] = f.ids[e] as number;
        entryPos[at] = f.entryPos[e] as number;
      }
    }
  } else {
    // df * 2^26 + the entry's place in its document, sorted as numbers: df first, exact below 2^53.
    let longest = 0;
    for (let d = 0; d < f.docs; d++) longest = Math.max(longest, (f.docStart[d + 1] as number) - (f.docStart[d] as number));
    const keys = new Float64Array(longest);
    const PLACE = 2 ** 26;
    for (let d = 0; d < f.docs; d++) {
      const start = f.docStart[d] as number;
      const n = (f.docStart[d + 1] as number) - start;
      if (n > PLACE) throw new RangeError(`broder: a document of ${n} fingerprints is past what the SCT order holds (${PLACE})`);
      for (let i = 0; i < n; i++) keys[i] = documentFrequency(f, f.ids[start + i] as number) * PLACE + i;
      const sorted = keys.subarray(0, n).sort();
      for (let i = 0; i < n; i++) {
        const from = start + ((sorted[i] as number) % PLACE);
        ids[start + i] = f.ids[from] as number;
        entryPos[start + i] = f.entryPos[from] as number;
      }
    }
  }
  return { kind, ids, entryPos };
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
