/**
 * From the ranked token sets (`tokens.ts`) to what the join reads: the processing order of the
 * documents and the prefix index. Linear passes over typed arrays on the calling thread; the
 * arrays are shared with the join's worker threads.
 */
import { sharedU32 } from '../text/chunks.ts';
import type { JoinIndex } from './join.ts';
import { indexLength, probeLength, type JoinSettings } from './settings.ts';
import type { RankedSets } from './tokens.ts';

/**
 * Documents in the order (size, index): two stable counting passes over 16-bit digits of the
 * size (no comparison sort, and no limit on sizes).
 */
export function processingOrder(sets: RankedSets): { ordDoc: Uint32Array; ordSize: Uint32Array } {
  const n = sets.docs;
  let order = new Uint32Array(n);
  for (let d = 0; d < n; d++) order[d] = d;
  let other = new Uint32Array(n);
  const size = (d: number): number => (sets.docStart[d + 1] as number) - (sets.docStart[d] as number);
  const count = new Uint32Array(65537);
  for (const shift of [0, 16]) {
    count.fill(0);
    for (let k = 0; k < n; k++) {
      const digit = (size(order[k] as number) >>> shift) & 0xffff;
      count[digit + 1] = (count[digit + 1] as number) + 1;
    }
    for (let v = 1; v <= 65536; v++) count[v] = (count[v] as number) + (count[v - 1] as number);
    for (let k = 0; k < n; k++) {
      const d = order[k] as number;
      const digit = (size(d) >>> shift) & 0xffff;
      const at = count[digit] as number;
      count[digit] = at + 1;
      other[at] = d;
    }
    [order, other] = [other, order];
  }
  const ordDoc = sharedU32(n);
  ordDoc.set(order);
  const ordSize = sharedU32(n);
  for (let o = 0; o < n; o++) ordSize[o] = size(ordDoc[o] as number);
  return { ordDoc, ordSize };
}

/**
 * The index the documents probe: for each rank, the documents (by ord, ascending) whose indexing
 * prefix holds it, with its position there. Also the probe tokens in total (the
 * `prefix_tokens` counter) and a work estimate per ord for balancing the threads.
 */
export function buildIndex(
  sets: RankedSets,
  order: { ordDoc: Uint32Array; ordSize: Uint32Array },
  signatureArray: Uint32Array,
  s: JoinSettings,
): { index: JoinIndex; prefixTokens: number; work: Float64Array } {
  const { ordDoc, ordSize } = order;
  const n = sets.docs;
  const postStart = sharedU32(sets.distinct + 1);
  let entries = 0;
  for (let o = 0; o < n; o++) {
    const start = sets.docStart[ordDoc[o] as number] as number;
    const len = indexLength(ordSize[o] as number, s);
    entries += len;
    for (let j = 0; j < len; j++) {
      const r = sets.ranks[start + j] as number;
      postStart[r + 1] = (postStart[r + 1] as number) + 1;
    }
  }
  for (let r = 0; r < sets.distinct; r++) postStart[r + 1] = (postStart[r + 1] as number) + (postStart[r] as number);
  const fill = postStart.slice(0, sets.distinct);
  const postOrd = sharedU32(entries);
  const postPos = sharedU32(entries);
  for (let o = 0; o < n; o++) {
    const start = sets.docStart[ordDoc[o] as number] as number;
    const len = indexLength(ordSize[o] as number, s);
    for (let j = 0; j < len; j++) {
      const r = sets.ranks[start + j] as number;
      const at = fill[r] as number;
      fill[r] = at + 1;
      postOrd[at] = o;
      postPos[at] = j;
    }
  }
  let prefixTokens = 0;
  const work = new Float64Array(n);
  for (let o = 0; o < n; o++) {
    const start = sets.docStart[ordDoc[o] as number] as number;
    const len = probeLength(ordSize[o] as number, s);
    prefixTokens += len;
    let w = len;
    for (let i = 0; i < len; i++) {
      const r = sets.ranks[start + i] as number;
      w += (postStart[r + 1] as number) - (postStart[r] as number);
    }
    work[o] = w;
  }
  return {
    index: { docs: n, docStart: sets.docStart, ranks: sets.ranks, ordDoc, ordSize, postStart, postOrd, postPos, signatures: signatureArray },
    prefixTokens,
    work,
  };
}
