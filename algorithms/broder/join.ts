/**
 * The typed-array form of MR#1's reducer and MR#2: sampling decides which fingerprint ids of a
 * document enter the join, postings list the documents of each id, and a ScanCount pass per
 * document counts the fingerprints it shares with every later document. The counts equal MR#2's
 * pair counts, so the scores equal the text jobs' scores bit for bit.
 */
import { listOffsets } from '../../kernels/list-offsets.ts';
import { invertLists } from '../../kernels/postings.ts';
import { fingerprintMod } from '../text/fingerprint.ts';
import { sharedU32, sharedU8 } from '../text/chunks.ts';
import type { DocumentFeatures } from '../text/features.ts';
import { keptKey, keptPrefixEnds, type EntryOrder } from './entry-order.ts';
import type { Sampling } from './params.ts';
import { adaptiveGroup, commonalityLimit, documentLevel, groupCounters, pairsOf, samplingLevels, usesSampledSize, type SamplingLevels } from './sampling.ts';

export interface SampledFeatures {
  readonly docs: number;
  /** CSR over documents of the ids that enter the join (after mapper sampling and SCT) */
  readonly docStart: Uint32Array;
  /** where each document's joined entries end when they are a prefix of its entries (entry-order.ts); null: at the next document's start */
  readonly docEnd: Uint32Array | null;
  readonly ids: Uint32Array;
  /** position of each join entry's document inside its id's posting list */
  readonly entryPos: Uint32Array;
  /** CSR over fingerprint ids of the documents holding them, ascending */
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  /**
   * The size that enters the RR denominator: per document, or, with `levels` > 1 (adaptive
   * sampling with several moduli), per document and level, `sizes[d * levels + l]`, the
   * document's sample at modulus level l >= its own (`docLevel`)
   */
  readonly sizes: Uint32Array;
  readonly levels: number;
  /** each document's level when `levels` > 1, else empty */
  readonly docLevel: Uint8Array;
  /** ScanCount work per document (posting entries after it), for balancing chunks */
  readonly work: Float64Array;
  readonly counters: Record<string, number>;
}

function scanWork(docStart: Uint32Array, ids: Uint32Array, entryPos: Uint32Array, postStart: Uint32Array, docs: number): Float64Array {
  const work = new Float64Array(docs);
  for (let d = 0; d < docs; d++) {
    let w = 0;
    for (let e = docStart[d] as number; e < (docStart[d + 1] as number); e++) {
      const id = ids[e] as number;
      w += (postStart[id + 1] as number) - (postStart[id] as number) - (entryPos[e] as number) - 1;
    }
    work[d] = w;
  }
  return work;
}

/**
 * MR#1 as the kernel sees it: the mapper's sampling (which entries a document emits, and the
 * size it emits with them), then the reducer's SCT and the pairs it would emit.
 */
export function sampleFeatures(f: DocumentFeatures, sampling: Sampling, words?: Uint32Array, order?: EntryOrder): SampledFeatures {
  const levels = samplingLevels(sampling);
  // Adaptive sampling counts per size group, even with one modulus for every group (a calibration run).
  return sampling.method === 'adaptive' ? sampleByLevels(f, sampling, levels, words) : singleModulusFeatures(f, sampling, levels, order);
}

/**
 * One modulus for every document (none, sct, mod): whether an id is kept is the same in every
 * document holding it, so a kept id's posting list is the features' own, whole, and only the
 * documents' side of the join changes: each document's kept entries. They are a prefix of its
 * entries in an entry order (entry-order.ts) when the kernel has one for this sampling (a sweep),
 * else a compact copy made from the kept ids' postings, in time proportional to what is kept.
 */
function singleModulusFeatures(f: DocumentFeatures, sampling: Sampling, levels: SamplingLevels, order?: EntryOrder): SampledFeatures {
  const F = f.fingerprints;
  const limit = commonalityLimit(sampling);
  const m = levels.moduli[0];
  // mod 2^k reads the fingerprint's lowest k bits (fingerprintMod), here without a call per id.
  const lowBits = m !== undefined && (m & (m - 1)) === 0 ? m - 1 : -1;
  const lowWord = f.width - 1;
  /** Whether the mappers emit id (every id when none samples). */
  const emitted = (id: number): boolean =>
    m === undefined || (lowBits >= 0 ? (f.words[id * f.width + lowWord] as number) & lowBits : fingerprintMod(f.words, id, f.width, m)) === levels.residue;
  const df = (id: number): number => (f.postStart[id + 1] as number) - (f.postStart[id] as number);
  const work = new Float64Array(f.docs);
  let overSct = 0;
  let outputPairs = 0;
  let docStart = f.docStart;
  let docEnd: Uint32Array | null = null;
  let ids = f.ids;
  let entryPos = f.entryPos;
  /** each document's entries the mappers emit (mod), when they are not all of them */
  let emittedOf: ((d: number) => number) | null = null;
  if (order) {
    // The order's counts by key give the reducer's counters (keptKey refuses an order made for
    // another sampling); each document's prefix gives its entries and, through their tails, its work.
    const k = keptKey(order, sampling);
    outputPairs = order.pairsUpTo[k] as number;
    if (sampling.method === 'sct') overSct = F - (order.idsUpTo[k] as number);
    const ends = keptPrefixEnds(f, order, (id) => emitted(id) && df(id) <= limit);
    for (let d = 0; d < f.docs; d++) {
      let w = 0;
      for (let e = f.docStart[d] as number; e < (ends[d] as number); e++) w += order.tail[e] as number;
      work[d] = w;
    }
    ({ ids, entryPos } = order);
    docEnd = ends;
    if (m !== undefined) emittedOf = (d) => (ends[d] as number) - (f.docStart[d] as number);
  } else {
    // Along the postings, whose reads are sequential, adding to per-document arrays small enough
    // to stay in cache: along the documents' lists the postings are read at random (8 times slower).
    const joined = new Uint32Array(f.docs);
    const own = m === undefined ? null : new Uint32Array(f.docs);
    const keep = new Uint8Array(F);
    let dropped = 0;
    for (let id = 0; id < F; id++) {
      if (!emitted(id)) {
        dropped++;
        continue;
      }
      const start = f.postStart[id] as number;
      const end = f.postStart[id + 1] as number;
      if (own) for (let q = start; q < end; q++) own[f.postDocs[q] as number]!++;
      if (end - start > limit) {
        overSct++;
        dropped++;
        continue;
      }
      // An id in one document pairs it with none: out of the join, whose every entry costs two
      // reads at random in postStart (most ids of a collection are such; the sizes count them).
      if (end - start < 2) {
        dropped++;
        continue;
      }
      keep[id] = 1;
      outputPairs += pairsOf(end - start);
      for (let q = start; q < end; q++) {
        const d = f.postDocs[q] as number;
        joined[d]!++;
        work[d] = (work[d] as number) + (end - q - 1);
      }
    }
    if (own) emittedOf = (d) => own[d] as number;
    if (dropped > 0) {
      // The documents' kept entries, ids ascending as in the features, from the kept ids' postings.
      docStart = listOffsets(joined, { into: sharedU32(f.docs + 1) });
      const kept = invertLists({ keys: f.docs, entries: f.postDocs, listStart: f.postStart, keep, start: docStart, positions: 'in-list', allocate: sharedU32 });
      ({ lists: ids, positions: entryPos } = kept);
    }
  }
  const sampled = usesSampledSize(sampling);
  const sizes = sharedU32(f.docs);
  let kept = 0;
  let empty = 0;
  for (let d = 0; d < f.docs; d++) {
    const full = (f.docStart[d + 1] as number) - (f.docStart[d] as number);
    // Without a modulus every mapper emits its document whole.
    const mine = emittedOf ? emittedOf(d) : full;
    sizes[d] = sampled ? mine : full;
    kept += mine;
    if (mine === 0) empty++;
  }
  return {
    docs: f.docs,
    docStart,
    docEnd,
    ids,
    entryPos,
    postStart: f.postStart,
    postDocs: f.postDocs,
    sizes,
    levels: 1,
    docLevel: sharedU8(0),
    work,
    counters: {
      documents: f.docs,
      fingerprints: f.ids.length,
      fingerprints_kept: kept,
      documents_without_fingerprints: empty,
      fingerprints_over_sct: overSct,
      output_pairs: outputPairs,
    },
  };
}

/**
 * Adaptive sampling with several moduli: a document keeps an id by its own level's modulus, so
 * an id's posting list depends on who holds it and the join's postings are built anew.
 */
function sampleByLevels(f: DocumentFeatures, sampling: Sampling, levels: SamplingLevels, words?: Uint32Array): SampledFeatures {
  const sampled = usesSampledSize(sampling);
  const limit = commonalityLimit(sampling);
  const L = Math.max(1, levels.moduli.length);
  const F = f.fingerprints;
  const fullSize = (d: number): number => (f.docStart[d + 1] as number) - (f.docStart[d] as number);
  const wordsOf = (d: number): number => (words ? (words[d] as number) : 0);

  // Which ids each level keeps: one table per modulus, ids kept at a coarser level are kept at every finer one.
  const tables = levels.moduli.map((m) => {
    const t = new Uint8Array(F);
    for (let id = 0; id < F; id++) t[id] = fingerprintMod(f.words, id, f.width, m) === levels.residue ? 1 : 0;
    return t;
  });
  const docLevel = sharedU8(L > 1 ? f.docs : 0);
  const docKeep: (Uint8Array | null)[] = new Array<Uint8Array | null>(f.docs);
  for (let d = 0; d < f.docs; d++) {
    const level = documentLevel(sampling, levels, fullSize(d), wordsOf(d));
    docKeep[d] = level >= 0 ? (tables[level] as Uint8Array) : null;
    if (L > 1) docLevel[d] = level;
  }

  // Pass 1: what the mappers emit (everything, when no mapper samples), and each document's
  // sample at every level from its own up.
  const keptDf = new Uint32Array(F);
  const atLevel = new Uint32Array(f.docs * L);
  const own = new Uint32Array(f.docs);
  if (tables.length === 0) {
    for (let id = 0; id < F; id++) keptDf[id] = (f.postStart[id + 1] as number) - (f.postStart[id] as number);
    for (let d = 0; d < f.docs; d++) own[d] = fullSize(d);
  }
  for (let id = 0; id < F && tables.length > 0; id++) {
    let df = 0;
    for (let q = f.postStart[id] as number; q < (f.postStart[id + 1] as number); q++) {
      const d = f.postDocs[q] as number;
      const t = docKeep[d];
      if (t && t[id] === 0) continue;
      df++;
      own[d] = (own[d] as number) + 1;
      if (L > 1) for (let l = docLevel[d] as number; l < L; l++) if ((tables[l] as Uint8Array)[id] === 1) atLevel[d * L + l]!++;
    }
    keptDf[id] = df;
  }
  const sizes = sharedU32(L > 1 ? f.docs * L : f.docs);
  let fingerprints = 0;
  let kept = 0;
  let empty = 0;
  const groupCounts: Record<string, number> = {};
  const addTo = (name: string, n: number): void => {
    groupCounts[name] = (groupCounts[name] ?? 0) + n;
  };
  for (let d = 0; d < f.docs; d++) {
    const full = fullSize(d);
    const mine = own[d] as number;
    fingerprints += full;
    kept += mine;
    if (mine === 0) empty++;
    if (L > 1) for (let l = 0; l < L; l++) sizes[d * L + l] = atLevel[d * L + l] as number;
    else sizes[d] = sampled ? mine : full;
    const g = adaptiveGroup(sampling, full, wordsOf(d));
    if (g >= 0) {
      addTo(groupCounters(g).fingerprints, full);
      if (mine > 0) addTo(groupCounters(g).kept, mine);
    }
  }

  // The reducer: SCT drops ids held by too many documents; the rest emit C(df, 2) pairs.
  let overSct = 0;
  let outputPairs = 0;
  let joinEntries = 0;
  for (let id = 0; id < F; id++) {
    const df = keptDf[id] as number;
    if (df > limit) {
      overSct++;
      keptDf[id] = 0;
    } else {
      outputPairs += pairsOf(df);
      joinEntries += df;
    }
  }
  const counters = {
    documents: f.docs,
    fingerprints,
    fingerprints_kept: kept,
    documents_without_fingerprints: empty,
    fingerprints_over_sct: overSct,
    output_pairs: outputPairs,
    ...groupCounts,
  };

  if (joinEntries === f.ids.length) {
    // Nothing sampled out: the join runs on the features as they are.
    return {
      docs: f.docs,
      docStart: f.docStart,
      docEnd: null,
      ids: f.ids,
      entryPos: f.entryPos,
      postStart: f.postStart,
      postDocs: f.postDocs,
      sizes,
      levels: L,
      docLevel,
        work: scanWork(f.docStart, f.ids, f.entryPos, f.postStart, f.docs),
      counters,
    };
  }

  // Pass 2: postings of the ids that enter the join, documents still ascending.
  const postStart = sharedU32(F + 1);
  for (let id = 0; id < F; id++) postStart[id + 1] = (postStart[id] as number) + (keptDf[id] as number);
  const postDocs = sharedU32(joinEntries);
  const docStart = sharedU32(f.docs + 1);
  for (let id = 0; id < F; id++) {
    if (keptDf[id] === 0) continue;
    let at = postStart[id] as number;
    for (let q = f.postStart[id] as number; q < (f.postStart[id + 1] as number); q++) {
      const d = f.postDocs[q] as number;
      const t = docKeep[d];
      if (t && t[id] === 0) continue;
      postDocs[at++] = d;
      docStart[d + 1] = (docStart[d + 1] as number) + 1;
    }
  }
  for (let d = 0; d < f.docs; d++) docStart[d + 1] = (docStart[d + 1] as number) + (docStart[d] as number);

  // Pass 3: each document's join ids with its position in their postings.
  const { lists: ids, positions: entryPos } = invertLists({ keys: f.docs, entries: postDocs, listStart: postStart, lists: F, start: docStart, positions: 'in-list', allocate: sharedU32 });
  return {
    docs: f.docs,
    docStart,
    docEnd: null,
    ids,
    entryPos,
    postStart,
    postDocs,
    sizes,
    levels: L,
    docLevel,
    work: scanWork(docStart, ids, entryPos, postStart, f.docs),
    counters,
  };
}

export interface ScanPayload {
  readonly docStart: Uint32Array;
  readonly docEnd: Uint32Array | null;
  readonly ids: Uint32Array;
  readonly entryPos: Uint32Array;
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  readonly sizes: Uint32Array;
  readonly levels: number;
  readonly docLevel: Uint8Array;
  readonly docs: number;
  readonly from: number;
  readonly to: number;
  readonly floor: number;
}

export interface ScanResult {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
  /** pairs with at least one shared fingerprint (MR#2's reduce calls) */
  readonly distinct: number;
}

/** Runs in a worker thread: every pair (a, b > a) for a in [from, to) with its RR. */
export function scanCount(p: ScanPayload): ScanResult {
  const count = new Uint32Array(p.docs);
  const touched = new Uint32Array(p.docs);
  // The output arrays are grown inline, not through text/pair-buffer.ts: on this loop a method
  // call per pair measured 1.6x slower (bench:ci kernel.sample+join, 154 against 247 ms).
  let cap = 1 << 12;
  let outA = new Uint32Array(cap);
  let outB = new Uint32Array(cap);
  let outS = new Float64Array(cap);
  let n = 0;
  let distinct = 0;
  const docEnd = p.docEnd ?? p.docStart.subarray(1);
  for (let a = p.from; a < p.to; a++) {
    let nt = 0;
    const last = docEnd[a] as number;
    for (let e = p.docStart[a] as number; e < last; e++) {
      const id = p.ids[e] as number;
      const end = p.postStart[id + 1] as number;
      for (let q = (p.postStart[id] as number) + (p.entryPos[e] as number) + 1; q < end; q++) {
        const b = p.postDocs[q] as number;
        const c = count[b] as number;
        if (c === 0) touched[nt++] = b;
        count[b] = c + 1;
      }
    }
    const L = p.levels;
    const la = L > 1 ? (p.docLevel[a] as number) : 0;
    const sa = p.sizes[a] as number;
    // Sorted output lets the evaluation merge lists without sorting them (pairs by (a, b)).
    touched.subarray(0, nt).sort();
    for (let t = 0; t < nt; t++) {
      const b = touched[t] as number;
      const c = count[b] as number;
      count[b] = 0;
      let sizeA = sa;
      let sizeB = p.sizes[b] as number;
      if (L > 1) {
        // Both documents at the coarser of their two levels (sampling.ts).
        const lb = p.docLevel[b] as number;
        const level = la > lb ? la : lb;
        sizeA = p.sizes[a * L + level] as number;
        sizeB = p.sizes[b * L + level] as number;
      }
      // Same expression as `resemblance()` in sampling.ts, inlined on the hot path.
      const rr = c / (sizeA + sizeB - c);
      distinct++;
      if (rr < p.floor) continue;
      if (n === cap) {
        cap *= 2;
        const a2 = new Uint32Array(cap);
        a2.set(outA);
        outA = a2;
        const b2 = new Uint32Array(cap);
        b2.set(outB);
        outB = b2;
        const s2 = new Float64Array(cap);
        s2.set(outS);
        outS = s2;
      }
      outA[n] = a;
      outB[n] = b;
      outS[n] = rr;
      n++;
    }
  }
  return { a: outA.slice(0, n), b: outB.slice(0, n), score: outS.slice(0, n), distinct };
}

/**
 * MR#1's counters without sampling, as `sampleFeatures` gives them for `{ method: 'none' }`,
 * from the postings' lengths alone: its output pairs are counted, C(df, 2) an id, not made.
 */
export function unsampledCounters(f: DocumentFeatures): Record<string, number> {
  let outputPairs = 0;
  for (let id = 0; id < f.fingerprints; id++) outputPairs += pairsOf((f.postStart[id + 1] as number) - (f.postStart[id] as number));
  let empty = 0;
  for (let d = 0; d < f.docs; d++) if (f.docStart[d + 1] === f.docStart[d]) empty++;
  return {
    documents: f.docs,
    fingerprints: f.ids.length,
    fingerprints_kept: f.ids.length,
    documents_without_fingerprints: empty,
    fingerprints_over_sct: 0,
    output_pairs: outputPairs,
  };
}
