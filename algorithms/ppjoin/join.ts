/**
 * The serial PPJoin / PPJoin+ join over typed arrays (Xiao et al. 2008, Algorithm 2), split by
 * probing document so that worker threads share one read-only index.
 *
 * Documents are visited in the order (size, index): `ord`. Each document's tokens are ascending
 * ranks in the global order (ascending document frequency, ties by fingerprint). The index holds,
 * for every rank, the documents (by ord, ascending) whose indexing prefix contains it and the
 * token's position there. A document x probes with its probing prefix and meets in each posting
 * list the documents before it in `ord` (those of size <= |x|): that is the paper's algorithm
 * with the index built in advance instead of as it goes, so documents can be probed in any order
 * and on any thread.
 *
 * Very large documents (10⁵ tokens and more) stay linear:
 * - Length filter: a document of size n meets only documents of size >= t·n. Postings are
 *   sorted by ord, hence by size, so a binary search skips every smaller document at once; a
 *   huge document never reads the entries of the small documents that share its tokens, and a
 *   small document never meets a huge one (it probes before the huge one is reached in `ord`).
 * - Prefixes: a document probes (1 − t)·n + 1 tokens and is indexed under
 *   (1 − t)/(1 + t)·n + 1, its rarest ones, whose posting lists are short (mostly only itself).
 * - Verification resumes after the last prefix match with the overlap counted so far and stops
 *   as soon as the rest cannot reach α: at most |x| + |y| steps per candidate, and candidates of
 *   a huge document are only documents of comparable size.
 * - The suffix filter does O(2^depth) binary searches per candidate, the signature filter a few
 *   word operations.
 * - Memory is the token arrays, the index (one entry per indexing-prefix token) and, per thread,
 *   seven 4-byte arrays and one byte array over the documents; nothing grows with the square of
 *   a size.
 */
import { jaccard, minOverlap, minPartnerSize, positionBound } from './bounds.ts';
import { BELOW_THRESHOLD, decideCandidate, PRUNED_BY_SIGNATURE, PRUNED_BY_SUFFIX } from './pair.ts';
import { signatureDistance } from './signature.ts';
import { probeLength, type JoinSettings } from './settings.ts';
import { lowerBound } from './sets.ts';

/** The corpus as the join sees it; every array lives on a SharedArrayBuffer. */
export interface JoinIndex {
  readonly docs: number;
  /** CSR over documents: the ranks of document d are `ranks[docStart[d] .. docStart[d+1])`, ascending */
  readonly docStart: Uint32Array;
  readonly ranks: Uint32Array;
  /** documents in `ord` order, and their sizes in that order */
  readonly ordDoc: Uint32Array;
  readonly ordSize: Uint32Array;
  /** CSR over ranks: the documents (ord) indexed under rank r and the token's position in each */
  readonly postStart: Uint32Array;
  readonly postOrd: Uint32Array;
  readonly postPos: Uint32Array;
  /** `signatureWords` words per document (by index), empty when the signature filter is off */
  readonly signatures: Uint32Array;
}

export interface JoinPayload extends JoinIndex {
  readonly settings: JoinSettings;
  /** probe the documents of ord [from, to) */
  readonly from: number;
  readonly to: number;
}

export interface JoinCounts {
  prefixMatches: number;
  afterPrefix: number;
  afterPosition: number;
  afterSuffix: number;
  afterSignature: number;
}

export interface JoinResult {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
  readonly counts: JoinCounts;
}

const UNSEEN = 0;
const ACTIVE = 1;
const PRUNED = 2;

/** First ord whose size is at least `size` (sizes ascend along ord). */
export function firstOrdOfSize(ordSize: Uint32Array, size: number): number {
  return lowerBound(ordSize, 0, ordSize.length, size);
}

/** Runs in a worker thread: every qualifying pair whose larger document (in ord) is in [from, to). */
export function joinRange(p: JoinPayload): JoinResult {
  const s = p.settings;
  const n = p.docs;
  const { docStart, ranks, ordDoc, ordSize, postStart, postOrd, postPos, signatures } = p;
  const words = s.signatureWords;
  const state = new Uint8Array(n);
  const common = new Int32Array(n);
  const alphaOf = new Int32Array(n);
  const firstI = new Int32Array(n);
  const firstJ = new Int32Array(n);
  const lastI = new Int32Array(n);
  const lastJ = new Int32Array(n);
  const touched = new Uint32Array(n);
  const counts: JoinCounts = { prefixMatches: 0, afterPrefix: 0, afterPosition: 0, afterSuffix: 0, afterSignature: 0 };
  const out = new PairBuffer();

  for (let ox = p.from; ox < p.to; ox++) {
    const nx = ordSize[ox] as number;
    if (nx === 0) continue;
    const dx = ordDoc[ox] as number;
    const xs = docStart[dx] as number;
    const px = probeLength(nx, s);
    const lo = s.length ? firstOrdOfSize(ordSize, minPartnerSize(nx, s.t)) : 0;
    let nt = 0;
    for (let i = 0; i < px; i++) {
      const r = ranks[xs + i] as number;
      const pe = postStart[r + 1] as number;
      let q = postStart[r] as number;
      // Skip the documents too small to qualify: a binary search when the list is long.
      if (lo > 0 && q < pe && (postOrd[q] as number) < lo) q = pe - q > 8 ? lowerBound(postOrd, q, pe, lo) : skipLinear(postOrd, q, pe, lo);
      for (; q < pe; q++) {
        const oy = postOrd[q] as number;
        if (oy >= ox) break;
        counts.prefixMatches++;
        const st = state[oy] as number;
        if (st === PRUNED) continue;
        const j = postPos[q] as number;
        const ny = ordSize[oy] as number;
        if (st === UNSEEN) {
          state[oy] = ACTIVE;
          touched[nt++] = oy;
          common[oy] = 0;
          alphaOf[oy] = minOverlap(nx, ny, s.t);
          firstI[oy] = i;
          firstJ[oy] = j;
        }
        if (s.position && positionBound(common[oy] as number, i, nx, j, ny) < (alphaOf[oy] as number)) {
          state[oy] = PRUNED;
          continue;
        }
        common[oy] = (common[oy] as number) + 1;
        lastI[oy] = i;
        lastJ[oy] = j;
      }
    }
    counts.afterPrefix += nt;
    for (let k = 0; k < nt; k++) {
      const oy = touched[k] as number;
      const st = state[oy];
      state[oy] = UNSEEN;
      if (st === PRUNED) continue;
      counts.afterPosition++;
      const dy = ordDoc[oy] as number;
      const ny = ordSize[oy] as number;
      const o = decideCandidate(
        {
          x: ranks,
          xs,
          nx,
          y: ranks,
          ys: docStart[dy] as number,
          ny,
          alpha: alphaOf[oy] as number,
          firstI: firstI[oy] as number,
          firstJ: firstJ[oy] as number,
          resumeI: (lastI[oy] as number) + 1,
          resumeJ: (lastJ[oy] as number) + 1,
          common: common[oy] as number,
          signatureDistance: s.signature ? signatureDistance(signatures, dx * words, signatures, dy * words, words) : 0,
        },
        s,
      );
      if (o === PRUNED_BY_SUFFIX) continue;
      counts.afterSuffix++;
      if (o === PRUNED_BY_SIGNATURE) continue;
      counts.afterSignature++;
      if (o === BELOW_THRESHOLD) continue;
      out.push(Math.min(dx, dy), Math.max(dx, dy), jaccard(o, nx, ny));
    }
  }
  return { ...out.result(), counts };
}

function skipLinear(a: Uint32Array, q: number, end: number, lo: number): number {
  while (q < end && (a[q] as number) < lo) q++;
  return q;
}

/** Growable (a, b, score) columns. */
class PairBuffer {
  private cap = 1 << 10;
  private n = 0;
  private a = new Uint32Array(this.cap);
  private b = new Uint32Array(this.cap);
  private s = new Float64Array(this.cap);

  push(a: number, b: number, score: number): void {
    if (this.n === this.cap) {
      this.cap *= 2;
      const a2 = new Uint32Array(this.cap);
      a2.set(this.a);
      this.a = a2;
      const b2 = new Uint32Array(this.cap);
      b2.set(this.b);
      this.b = b2;
      const s2 = new Float64Array(this.cap);
      s2.set(this.s);
      this.s = s2;
    }
    this.a[this.n] = a;
    this.b[this.n] = b;
    this.s[this.n] = score;
    this.n++;
  }

  result(): { a: Uint32Array; b: Uint32Array; score: Float64Array } {
    return { a: this.a.slice(0, this.n), b: this.b.slice(0, this.n), score: this.s.slice(0, this.n) };
  }
}
