/**
 * From the ranked token sets (`tokens.ts`) to what the join reads: the processing order of the
 * documents and the prefix index. Linear passes over typed arrays on the calling thread; the
 * arrays are shared with the join's worker threads.
 */
import { invertLists } from '../../kernels/postings.ts';
import { stableOrder } from '../../kernels/sort/stable-order.ts';
import { sharedU32 } from '../text/chunks.ts';
import type { JoinIndex } from './join.ts';
import { indexLength, probeLength, type JoinSettings } from './settings.ts';
import type { RankedSets } from './tokens.ts';

/** Documents in the order (size, index): a stable radix order, no comparison sort and no limit on sizes. */
export function processingOrder(sets: RankedSets): { ordDoc: Uint32Array; ordSize: Uint32Array } {
  const n = sets.docs;
  const sizes = new Uint32Array(n);
  for (let d = 0; d < n; d++) sizes[d] = (sets.docStart[d + 1] as number) - (sets.docStart[d] as number);
  const ordDoc = sharedU32(n);
  ordDoc.set(stableOrder([sizes]));
  const ordSize = sharedU32(n);
  for (let o = 0; o < n; o++) ordSize[o] = sizes[ordDoc[o] as number] as number;
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
  // Each document's indexing prefix is a list of ranks: the index is their postings.
  const listStart = new Uint32Array(n);
  const listEnd = new Uint32Array(n);
  for (let o = 0; o < n; o++) {
    const start = sets.docStart[ordDoc[o] as number] as number;
    listStart[o] = start;
    listEnd[o] = start + indexLength(ordSize[o] as number, s);
  }
  const postings = invertLists({ keys: sets.distinct, entries: sets.ranks, listStart, listEnd, positions: 'in-list', allocate: sharedU32 });
  const { start: postStart, lists: postOrd, positions: postPos } = postings;
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
