/**
 * The typed-array form of MR#1's reducer and MR#2: sampling decides which fingerprint ids of a
 * document enter the join, postings list the documents of each id, and a ScanCount pass per
 * document counts the fingerprints it shares with every later document. The counts equal MR#2's
 * pair counts, so the scores equal the text jobs' scores bit for bit.
 */
import { fingerprintMod } from '../text/fingerprint.ts';
import type { DocumentFeatures } from './features.ts';
import type { Sampling } from './params.ts';
import { commonalityLimit, documentModulus, pairsOf, usesSampledSize } from './sampling.ts';

export interface SampledFeatures {
  readonly docs: number;
  /** CSR over documents of the ids that enter the join (after mapper sampling and SCT) */
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  /** position of each join entry's document inside its id's posting list */
  readonly entryPos: Uint32Array;
  /** CSR over fingerprint ids of the documents holding them, ascending */
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  /** the size that enters the RR denominator, per document */
  readonly sizes: Uint32Array;
  /** ScanCount work per document (posting entries after it), for balancing chunks */
  readonly work: Float64Array;
  readonly counters: Record<string, number>;
}

function sharedU32(length: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(Math.max(1, length) * 4));
}

export function sampleFeatures(f: DocumentFeatures, sampling: Sampling): SampledFeatures {
  const sampled = usesSampledSize(sampling);
  const limit = commonalityLimit(sampling);
  const keepByModulus = new Map<string, Uint8Array>();
  const keepTable = (m: number, residue: number): Uint8Array => {
    const key = `${m}/${residue}`;
    let t = keepByModulus.get(key);
    if (!t) {
      t = new Uint8Array(f.fingerprints);
      for (let id = 0; id < f.fingerprints; id++) t[id] = fingerprintMod(f.words, id, f.width, m) === residue ? 1 : 0;
      keepByModulus.set(key, t);
    }
    return t;
  };

  // Mapper: which entries each document emits, and the size it emits with them.
  const mapped = new Uint8Array(f.ids.length);
  const sizes = sharedU32(f.docs);
  const keptDf = new Uint32Array(f.fingerprints);
  let fingerprints = 0;
  let kept = 0;
  let empty = 0;
  for (let d = 0; d < f.docs; d++) {
    const start = f.docStart[d] as number;
    const end = f.docStart[d + 1] as number;
    const size = end - start;
    fingerprints += size;
    const modulus = documentModulus(sampling, size);
    const keep = modulus ? keepTable(modulus.m, modulus.residue) : null;
    let own = 0;
    for (let e = start; e < end; e++) {
      const id = f.ids[e] as number;
      if (keep && keep[id] === 0) continue;
      mapped[e] = 1;
      keptDf[id] = (keptDf[id] as number) + 1;
      own++;
    }
    if (own === 0) empty++;
    kept += own;
    sizes[d] = sampled ? own : size;
  }

  // Reducer of MR#1: drop ids over the commonality threshold; the rest emit C(df, 2) pairs.
  let overSct = 0;
  let outputPairs = 0;
  const postStart = sharedU32(f.fingerprints + 1);
  for (let id = 0; id < f.fingerprints; id++) {
    const df = keptDf[id] as number;
    let joined = df;
    if (df > limit) {
      overSct++;
      joined = 0;
      keptDf[id] = 0;
    } else {
      outputPairs += pairsOf(df);
    }
    postStart[id + 1] = (postStart[id] as number) + joined;
  }

  const docStart = sharedU32(f.docs + 1);
  let joinEntries = 0;
  for (let d = 0; d < f.docs; d++) {
    for (let e = f.docStart[d] as number; e < (f.docStart[d + 1] as number); e++) {
      if (mapped[e] === 1 && (keptDf[f.ids[e] as number] as number) > 0) joinEntries++;
    }
    docStart[d + 1] = joinEntries;
  }
  const ids = sharedU32(joinEntries);
  const entryPos = sharedU32(joinEntries);
  const postDocs = sharedU32(postStart[f.fingerprints] as number);
  const fill = new Uint32Array(f.fingerprints);
  const work = new Float64Array(f.docs);
  let at = 0;
  for (let d = 0; d < f.docs; d++) {
    for (let e = f.docStart[d] as number; e < (f.docStart[d + 1] as number); e++) {
      const id = f.ids[e] as number;
      if (mapped[e] !== 1 || (keptDf[id] as number) === 0) continue;
      const pos = fill[id] as number;
      fill[id] = pos + 1;
      postDocs[(postStart[id] as number) + pos] = d;
      ids[at] = id;
      entryPos[at] = pos;
      work[d] = (work[d] as number) + (keptDf[id] as number) - pos - 1;
      at++;
    }
  }
  return {
    docs: f.docs,
    docStart,
    ids,
    entryPos,
    postStart,
    postDocs,
    sizes,
    work,
    counters: {
      documents: f.docs,
      fingerprints,
      fingerprints_kept: kept,
      documents_without_fingerprints: empty,
      fingerprints_over_sct: overSct,
      output_pairs: outputPairs,
    },
  };
}

export interface ScanPayload {
  readonly docStart: Uint32Array;
  readonly ids: Uint32Array;
  readonly entryPos: Uint32Array;
  readonly postStart: Uint32Array;
  readonly postDocs: Uint32Array;
  readonly sizes: Uint32Array;
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
  let cap = 1 << 12;
  let outA = new Uint32Array(cap);
  let outB = new Uint32Array(cap);
  let outS = new Float64Array(cap);
  let n = 0;
  let distinct = 0;
  for (let a = p.from; a < p.to; a++) {
    let nt = 0;
    for (let e = p.docStart[a] as number; e < (p.docStart[a + 1] as number); e++) {
      const id = p.ids[e] as number;
      const end = p.postStart[id + 1] as number;
      for (let q = (p.postStart[id] as number) + (p.entryPos[e] as number) + 1; q < end; q++) {
        const b = p.postDocs[q] as number;
        const c = count[b] as number;
        if (c === 0) touched[nt++] = b;
        count[b] = c + 1;
      }
    }
    const sa = p.sizes[a] as number;
    for (let t = 0; t < nt; t++) {
      const b = touched[t] as number;
      const c = count[b] as number;
      count[b] = 0;
      // Same expression as `resemblance()` in sampling.ts, inlined on the hot path.
      const rr = c / (sa + (p.sizes[b] as number) - c);
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

/** Cuts [0, docs) into about `chunks` ranges of equal ScanCount work. */
export function balancedRanges(work: Float64Array, chunks: number): [number, number][] {
  let total = 0;
  for (const w of work) total += w + 1;
  const target = total / Math.max(1, chunks);
  const ranges: [number, number][] = [];
  let from = 0;
  let acc = 0;
  for (let d = 0; d < work.length; d++) {
    acc += (work[d] as number) + 1;
    if (acc >= target && ranges.length < chunks - 1) {
      ranges.push([from, d + 1]);
      from = d + 1;
      acc = 0;
    }
  }
  if (from < work.length || ranges.length === 0) ranges.push([from, work.length]);
  return ranges;
}
