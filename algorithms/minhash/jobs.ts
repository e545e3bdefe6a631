/**
 * MinHash-LSH as MapReduce jobs over text records, runnable unchanged as Hadoop Streaming
 * mapper and reducer (keys and values as `codec.ts` and `contract/pairs.ts` write them):
 *
 * signatures     map only: document → (doc, "size slot…") (`codec.ts`), "0" without fingerprints
 * [sets]         map only, exact verification: document → (doc, "size fp…"), fingerprints sorted
 * bands          map: (doc, signature) → ("j:slots of band j", doc) for each band j;
 *                reduce: a bucket of m documents → each of its C(m, 2) pairs ("a:b", "1")
 * candidates     verified: a reduce-side join of the distinct pairs with the signatures of their
 *                first documents: map ("a:b", _) → (a, "p" b) and (d, sig) → (d, "s" sig);
 *                reduce at a → (b, "p" a " " sig_a) for each distinct partner b
 *                unverified: sum the band collisions of each pair → ("a:b", collisions / b)
 * verify         the join with the second documents' signatures: reduce at b scores each
 *                (a, sig_a) against sig_b (estimated or exact Jaccard) → ("a:b", score ≥ t)
 * clusters       one reduce group: union-find over the decided pairs → (doc, "cluster size")
 *
 * The counters have the names the kernel (`kernel.ts`) reports; a counter is created only when
 * it counts something, as the kernel's are.
 */
import { DOCUMENTS, formatScore, type JobSpec, type TaskContext } from '../../contract/index.ts';
import { distinctFingerprints } from '../text/distinct.ts';
import { fingerprintHex, shingleFingerprints } from '../text/fingerprint.ts';
import { normalize } from '../text/normalize.ts';
import { bandKey, decodeSignature, encodeSignature, matchingSlotStrings } from './codec.ts';
import { estimateResemblance } from './estimate.ts';
import { HashKernel } from './hash-kernel.ts';
import { type MinhashSettings, signatureKey } from './settings.ts';
import { residuesOf, signatures } from './sketch.ts';
import { clustersOf } from './union-find.ts';

export const SIGNATURES_JOB = 'minhash-signatures';
export const SETS_JOB = 'minhash-fingerprint-sets';
export const BANDS_JOB = 'minhash-bands';
export const CANDIDATES_JOB = 'minhash-candidates';
export const VERIFY_JOB = 'minhash-verify';
export const CLUSTERS_JOB = 'minhash-clusters';

export const SIGNATURES = 'signatures';
export const SETS = 'fingerprint-sets';
export const BAND_PAIRS = 'band-pairs';
export const CANDIDATES = 'candidates';
export const NEAR_DUPLICATES = 'near-duplicates';
export const CLUSTERS = 'clusters';

/** Adds to a counter unless the amount is zero (a job creates a counter only when it counts something). */
function add(ctx: TaskContext, group: string, name: string, amount: number): void {
  if (amount !== 0) ctx.count(group, name, amount);
}

let threadKernel: HashKernel | undefined;

export function signaturesJob(s: MinhashSettings): JobSpec {
  const k = s.sketch.k;
  return {
    name: SIGNATURES_JOB,
    description: `MinHash signature of each document: ${k} slots (${s.sketch.kind}${s.sketch.bits === null ? '' : `, ${s.sketch.bits}-bit`})`,
    inputs: [DOCUMENTS],
    output: SIGNATURES,
    mapKey: signatureKey(s),
    mapper: (ctx) => ({
      map(doc, text) {
        ctx.count(SIGNATURES_JOB, 'documents');
        const fps = distinctFingerprints(shingleFingerprints(normalize(text), s.shingle, s.fingerprint));
        if (fps.count === 0) {
          ctx.count(SIGNATURES_JOB, 'documents_without_fingerprints');
          ctx.emit(doc, '0');
          return;
        }
        ctx.count(SIGNATURES_JOB, 'fingerprints', fps.count);
        const residues = residuesOf(fps.data, fps.count, fps.width);
        const sig = signatures({ residues, starts: Uint32Array.of(0, fps.count) }, s.sketch, (threadKernel ??= new HashKernel()));
        add(ctx, SIGNATURES_JOB, 'densified_bins', sig.densified);
        ctx.emit(doc, encodeSignature(fps.count, sig.values, 0, k));
      },
    }),
  };
}

export function fingerprintSetsJob(s: MinhashSettings): JobSpec {
  return {
    name: SETS_JOB,
    description: 'the distinct fingerprints of each document, sorted, for exact verification',
    inputs: [DOCUMENTS],
    output: SETS,
    mapKey: JSON.stringify({ shingle: s.shingle, fingerprint: s.fingerprint }),
    mapper: (ctx) => ({
      map(doc, text) {
        const fps = distinctFingerprints(shingleFingerprints(normalize(text), s.shingle, s.fingerprint));
        // fixed-width hex: the strings sort as the numbers do, and the verify job merges them
        const hex = Array.from({ length: fps.count }, (_, i) => fingerprintHex(fps.data, i, fps.width)).sort();
        ctx.emit(doc, hex.length === 0 ? '0' : `${hex.length} ${hex.join(' ')}`);
      },
    }),
  };
}

export function bandsJob(s: MinhashSettings): JobSpec {
  return {
    name: BANDS_JOB,
    description: 'LSH buckets: documents whose slots agree on all rows of a band; every pair of each bucket',
    inputs: [SIGNATURES],
    output: BAND_PAIRS,
    mapper: (ctx) => {
      const { bands, rows } = s.lsh();
      return {
        map(doc, value) {
          const sig = decodeSignature(value);
          if (sig.size === 0) return;
          for (let j = 0; j < bands; j++) ctx.emit(bandKey(sig.slots, j, rows), doc);
        },
      };
    },
    reducer: (ctx) => ({
      reduce(_bucket, values) {
        if (values.length < 2) return;
        const docs = values.map(Number).sort((x, y) => x - y);
        ctx.count(BANDS_JOB, 'buckets');
        ctx.count(BANDS_JOB, 'bucket_pairs', (docs.length * (docs.length - 1)) / 2);
        for (let i = 0; i < docs.length; i++) {
          for (let j = i + 1; j < docs.length; j++) ctx.emit(`${docs[i]}:${docs[j]}`, '1');
        }
      },
    }),
  };
}

const sumOf = (values: readonly string[]): number => values.reduce((t, v) => t + Number(v), 0);

/** Unverified: each distinct candidate with the share of bands it collided in (the pairs dataset). */
export function unverifiedCandidatesJob(s: MinhashSettings): JobSpec {
  return {
    name: CANDIDATES_JOB,
    description: 'distinct candidate pairs, each scored by the share of bands in which it collided',
    inputs: [BAND_PAIRS],
    output: NEAR_DUPLICATES,
    mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
    combiner: (ctx) => ({ reduce: (k, values) => ctx.emit(k, String(sumOf(values))) }),
    reducer: (ctx) => {
      const { bands } = s.lsh();
      return {
        reduce(pair, values) {
          ctx.count(CANDIDATES_JOB, 'candidate_pairs');
          ctx.count(CANDIDATES_JOB, 'output_pairs');
          ctx.emit(pair, formatScore(sumOf(values) / bands));
        },
      };
    },
  };
}

/** The dataset verification reads each document's record from. */
function verificationInput(s: MinhashSettings): string {
  return s.verify === 'exact' ? SETS : SIGNATURES;
}

/** Verified: the distinct partners b > a of each document a, sent to b with a's record. */
export function candidatesJob(s: MinhashSettings): JobSpec {
  return {
    name: CANDIDATES_JOB,
    description: 'distinct candidate pairs, each sent to its second document with the record of its first',
    inputs: [BAND_PAIRS, verificationInput(s)],
    output: CANDIDATES,
    mapper: (ctx) => ({
      map(key, value) {
        const colon = key.indexOf(':');
        if (colon >= 0) ctx.emit(key.slice(0, colon), 'p' + key.slice(colon + 1));
        else ctx.emit(key, 's' + value);
      },
    }),
    // The same partner arrives once per band it collided in: one is enough (safe to repeat).
    combiner: (ctx) => ({
      reduce(key, values) {
        for (const v of new Set(values)) ctx.emit(key, v);
      },
    }),
    reducer: (ctx) => ({
      reduce(doc, values) {
        let record: string | undefined;
        const partners = new Set<number>();
        for (const v of values) {
          if (v.charCodeAt(0) === 0x73 /* s */) record = v.slice(1);
          else partners.add(Number(v.slice(1)));
        }
        if (partners.size === 0) return;
        if (record === undefined) throw new Error(`${CANDIDATES_JOB}: document ${doc} has candidates but no record`);
        add(ctx, CANDIDATES_JOB, 'candidate_pairs', partners.size);
        for (const b of [...partners].sort((x, y) => x - y)) ctx.emit(String(b), `p${doc} ${record}`);
      },
    }),
  };
}

export function verifyJob(s: MinhashSettings): JobSpec {
  const k = s.sketch.k;
  return {
    name: VERIFY_JOB,
    description:
      s.verify === 'exact'
        ? 'exact Jaccard of each candidate pair; the pairs at or above the threshold'
        : 'estimated Jaccard of each candidate pair from the signatures; the pairs at or above the threshold',
    inputs: [CANDIDATES, verificationInput(s)],
    output: NEAR_DUPLICATES,
    mapper: (ctx) => ({
      map(key, value) {
        ctx.emit(key, value.charCodeAt(0) === 0x70 /* p */ ? value : 's' + value);
      },
    }),
    reducer: (ctx) => ({
      reduce(doc, values) {
        let own: string | undefined;
        const firsts: string[] = [];
        for (const v of values) {
          if (v.charCodeAt(0) === 0x73 /* s */) own = v.slice(1);
          else firsts.push(v.slice(1));
        }
        if (firsts.length === 0) return;
        if (own === undefined) throw new Error(`${VERIFY_JOB}: document ${doc} has candidates but no record`);
        const mine = decodeSignature(own);
        let output = 0;
        for (const f of firsts) {
          const space = f.indexOf(' ');
          const a = f.slice(0, space);
          const theirs = decodeSignature(f.slice(space + 1));
          const score =
            s.verify === 'exact'
              ? sortedJaccard(theirs.slots, mine.slots)
              : estimateResemblance(matchingSlotStrings(theirs.slots, mine.slots), k, s.sketch.bits, theirs.size, mine.size);
          if (score >= s.floor) {
            output++;
            ctx.emit(`${a}:${doc}`, formatScore(score));
          }
        }
        ctx.count(VERIFY_JOB, 'verified_pairs', firsts.length);
        add(ctx, VERIFY_JOB, 'output_pairs', output);
      },
    }),
  };
}

/** |A ∩ B| / |A ∪ B| of two ascending lists of distinct strings. */
function sortedJaccard(x: readonly string[], y: readonly string[]): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < x.length && j < y.length) {
    const u = x[i] as string;
    const v = y[j] as string;
    if (u === v) {
      common++;
      i++;
      j++;
    } else if (u < v) i++;
    else j++;
  }
  return common / (x.length + y.length - common);
}

export function clustersJob(pairs: string): JobSpec {
  return {
    name: CLUSTERS_JOB,
    description: 'clusters of near-duplicates: connected components of the decided pairs (union-find in one reduce group)',
    inputs: [pairs, SIGNATURES],
    output: CLUSTERS,
    mapper: (ctx) => ({ map: (key) => ctx.emit('', key) }),
    reducer: (ctx) => ({
      reduce(_all, values) {
        let documents = 0;
        const a: number[] = [];
        const b: number[] = [];
        for (const v of values) {
          const colon = v.indexOf(':');
          if (colon < 0) documents++;
          else {
            a.push(Number(v.slice(0, colon)));
            b.push(Number(v.slice(colon + 1)));
          }
        }
        const c = clustersOf(documents, a, b);
        let clusters = 0;
        let clustered = 0;
        for (let d = 0; d < documents; d++) {
          const size = c.size[d] as number;
          if (size > 1) {
            clustered++;
            if (c.cluster[d] === d) clusters++;
          }
          ctx.emit(String(d), `${c.cluster[d]} ${size}`);
        }
        add(ctx, CLUSTERS_JOB, 'clusters', clusters);
        add(ctx, CLUSTERS_JOB, 'clustered_documents', clustered);
      },
    }),
  };
}

/** The jobs of a plan, in order, and the dataset holding its pairs. */
export function minhashJobs(s: MinhashSettings): { jobs: JobSpec[]; pairs: string } {
  const jobs = [signaturesJob(s)];
  if (s.verify === 'exact') jobs.push(fingerprintSetsJob(s));
  jobs.push(bandsJob(s));
  if (s.verify === 'none') jobs.push(unverifiedCandidatesJob(s));
  else jobs.push(candidatesJob(s), verifyJob(s));
  jobs.push(clustersJob(NEAR_DUPLICATES));
  return { jobs, pairs: NEAR_DUPLICATES };
}
