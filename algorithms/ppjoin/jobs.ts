/**
 * MapDupReducer's pipeline (Wang et al. 2010, section 2.2 and Figure 2) as text jobs that Hadoop
 * Streaming runs unchanged:
 *
 * 1 lexer mapper / accumulator reducer: each document's distinct tokens (shingle fingerprints);
 *   a token's reducer sees every document holding it, so it knows the token's document
 *   frequency and hands the token back to each document as text whose byte order is the global
 *   order (ascending frequency, ties by fingerprint; `tokenText`), with no dictionary to
 *   broadcast.
 * 2 the pre-processed documents: each document's tokens sorted into that order, its size and
 *   its signature bitmap.
 * 3 prefix position mapper / inverted-index reducer: each document emits its probing-prefix
 *   tokens with their positions; a token's reducer pairs the documents holding it in their
 *   prefixes (the larger one's probing prefix against the smaller one's indexing prefix, within
 *   the length filter's bounds) and emits one record per pair and shared prefix token: the pair
 *   and the token's positions in both documents.
 * 4 group partitioner / position-filter reducer: keyed by the pair, so all its shared prefix
 *   tokens reach one reducer (the paper's partitioner on the key's prefix); the reducer applies
 *   the position filter and emits the surviving candidate under its smaller document.
 * 5 candidates by document (the input of the paper's signature-filter reducer: a document and
 *   the documents it may be similar to): joins each candidate with the smaller document's
 *   pre-processed record and sends that to the larger document.
 * 6 signature filter and verifier: the larger document's reducer has both sets; suffix filter
 *   (PPJoin+), signature filter, exact verification; emits `a:b` with the exact Jaccard.
 *
 * The paper's verifier fetches documents from its storage layer; Hadoop Streaming has none to
 * fetch from, so jobs 5 and 6 are a reduce-side join, each candidate carrying the smaller set
 * once. Reducers never depend on the order of their values. Every decision is made by the same
 * functions as the kernel's (`bounds.ts`, `pair.ts`), over the same order, so both report the
 * same pairs, scores and counters.
 */
import { DOCUMENTS, type JobSpec } from '../../contract/jobs.ts';
import { formatScore, pairKey } from '../../contract/pairs.ts';
import { fingerprintHex, shingleFingerprints } from '../text/fingerprint.ts';
import { normalize } from '../text/normalize.ts';
import type { FingerprintKind, ShingleSpec } from '../text/params.ts';
import { jaccard, minOverlap, minPartnerSize, positionBound } from './bounds.ts';
import { BELOW_THRESHOLD, decideCandidate, PRUNED_BY_SIGNATURE, PRUNED_BY_SUFFIX } from './pair.ts';
import { C, GROUP, indexLength, probeLength, type JoinSettings } from './settings.ts';
import { addToSignature, signatureDistance, signatureFromHex, signatureHex } from './signature.ts';
import { firstCommon } from './sets.ts';

export const JOB1 = 'ppjoin-1-token-frequencies';
export const JOB2 = 'ppjoin-2-ordered-sets';
export const JOB3 = 'ppjoin-3-prefix-pairs';
export const JOB4 = 'ppjoin-4-position-filter';
export const JOB5 = 'ppjoin-5-candidate-sets';
export const JOB6 = 'ppjoin-6-verify';
export const TOKEN_DOCUMENTS = 'ppjoin-token-documents';
export const ORDERED_SETS = 'ppjoin-ordered-sets';
export const PREFIX_MATCHES = 'ppjoin-prefix-matches';
export const CANDIDATES = 'ppjoin-candidates';
export const CANDIDATE_SETS = 'ppjoin-candidate-sets';
export const PAIRS = 'ppjoin-pairs';

/** Value tags of the joined datasets (a pre-processed document's value starts with its size, a digit). */
const CANDIDATE = 'c';
const SHIPPED = 'p';

export interface TokenSpec {
  readonly shingle: ShingleSpec;
  readonly fingerprint: FingerprintKind;
}

/**
 * A token as the later jobs see it: its document frequency in 8 hex digits, then its fingerprint
 * in hex. Its byte order is the global order (ascending frequency, ties by fingerprint), the
 * order of the kernel's ranks (`tokens.ts`); the last 8 digits give its signature bit.
 */
export function tokenText(df: number, fingerprintHexDigits: string): string {
  return df.toString(16).padStart(8, '0') + fingerprintHexDigits;
}

export function tokenFrequenciesJob(spec: TokenSpec): JobSpec {
  return {
    name: JOB1,
    description: 'tokens of every document; each token back to its documents with its document frequency',
    inputs: [DOCUMENTS],
    output: TOKEN_DOCUMENTS,
    mapKey: JSON.stringify(spec),
    mapper: (ctx) => ({
      map(doc, text) {
        ctx.count(GROUP, C.documents);
        const fps = shingleFingerprints(normalize(text), spec.shingle, spec.fingerprint);
        const distinct = new Set<string>();
        for (let i = 0; i < fps.count; i++) distinct.add(fingerprintHex(fps.data, i, fps.width));
        if (distinct.size === 0) {
          ctx.count(GROUP, C.documentsWithoutTokens);
          return;
        }
        ctx.count(GROUP, C.tokens, distinct.size);
        for (const hex of distinct) ctx.emit(hex, doc);
      },
    }),
    reducer: (ctx) => ({
      reduce(hex, docs) {
        ctx.count(GROUP, C.distinctTokens);
        const token = tokenText(docs.length, hex);
        for (const doc of docs) ctx.emit(doc, token);
      },
    }),
  };
}

/** A pre-processed document: size, signature (hex, or '-' when unused) and tokens in the global order. */
export interface OrderedSet {
  readonly size: number;
  readonly signature: string;
  readonly tokens: readonly string[];
}

export function formatOrderedSet(s: OrderedSet): string {
  return `${s.size} ${s.signature} ${s.tokens.join(' ')}`;
}

export function parseOrderedSet(value: string): OrderedSet {
  const parts = value.split(' ');
  return { size: Number(parts[0]), signature: parts[1] as string, tokens: parts.slice(2) };
}

export function orderedSetsJob(spec: TokenSpec, s: JoinSettings): JobSpec {
  const bits = 32 * s.signatureWords;
  return {
    name: JOB2,
    description: "each document's tokens in ascending document frequency, with its size and signature bitmap",
    inputs: [TOKEN_DOCUMENTS],
    output: ORDERED_SETS,
    mapKey: JSON.stringify(spec),
    mapper: (ctx) => ({ map: (doc, token) => ctx.emit(doc, token) }),
    reducer: (ctx) => ({
      reduce(doc, values) {
        const tokens = [...values].sort();
        let signature = '-';
        if (s.signature) {
          const sig = new Uint32Array(s.signatureWords);
          for (const t of tokens) addToSignature(sig, 0, parseInt(t.slice(-8), 16), bits);
          signature = signatureHex(sig);
        }
        ctx.emit(doc, formatOrderedSet({ size: tokens.length, signature, tokens }));
      },
    }),
  };
}

interface PrefixEntry {
  readonly doc: number;
  readonly size: number;
  readonly pos: number;
}

export function prefixPairsJob(s: JoinSettings): JobSpec {
  return {
    name: JOB3,
    description: 'prefix tokens with their positions; pairs of documents sharing one, within the length bounds',
    inputs: [ORDERED_SETS],
    output: PREFIX_MATCHES,
    mapper: (ctx) => ({
      map(doc, value) {
        const set = parseOrderedSet(value);
        const p = probeLength(set.size, s);
        ctx.count(GROUP, C.prefixTokens, p);
        for (let i = 0; i < p; i++) ctx.emit(set.tokens[i] as string, `${doc} ${set.size} ${i}`);
      },
    }),
    reducer: (ctx) => ({
      reduce(_token, values) {
        // Processing order (size, document): a pair's larger member x probes, the smaller y is indexed.
        const entries: PrefixEntry[] = values.map((v) => {
          const [doc, size, pos] = v.split(' ').map(Number) as [number, number, number];
          return { doc, size, pos };
        });
        entries.sort((p, q) => p.size - q.size || p.doc - q.doc);
        for (let k = 1; k < entries.length; k++) {
          const x = entries[k] as PrefixEntry;
          const smallest = s.length ? minPartnerSize(x.size, s.t) : 0;
          for (let m = k - 1; m >= 0; m--) {
            const y = entries[m] as PrefixEntry;
            if (y.size < smallest) break;
            if (y.pos >= indexLength(y.size, s)) continue;
            ctx.count(GROUP, C.prefixMatches);
            ctx.emit(`${x.doc} ${x.size} ${y.doc} ${y.size}`, `${x.pos} ${y.pos}`);
          }
        }
      },
    }),
  };
}

export function positionFilterJob(s: JoinSettings): JobSpec {
  return {
    name: JOB4,
    description: 'position filter over the prefix tokens each candidate pair shares',
    inputs: [PREFIX_MATCHES],
    output: CANDIDATES,
    mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
    reducer: (ctx) => ({
      reduce(key, values) {
        ctx.count(GROUP, C.afterPrefix);
        const [x, nx, y, ny] = key.split(' ').map(Number) as [number, number, number, number];
        if (s.position) {
          // The bound never grows along the shared tokens: the last one decides (bounds.ts).
          let lastI = -1;
          let lastJ = -1;
          for (const v of values) {
            const space = v.indexOf(' ');
            const i = Number(v.slice(0, space));
            if (i > lastI) {
              lastI = i;
              lastJ = Number(v.slice(space + 1));
            }
          }
          if (positionBound(values.length - 1, lastI, nx, lastJ, ny) < minOverlap(nx, ny, s.t)) return;
        }
        ctx.count(GROUP, C.afterPosition);
        ctx.emit(String(y), `${CANDIDATE} ${x}`);
      },
    }),
  };
}

export function candidateSetsJob(): JobSpec {
  return {
    name: JOB5,
    description: "each candidate pair joined with its smaller document's pre-processed set, sent to the larger document",
    inputs: [CANDIDATES, ORDERED_SETS],
    output: CANDIDATE_SETS,
    mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
    reducer: (ctx) => ({
      reduce(doc, values) {
        const own = values.find((v) => !v.startsWith(`${CANDIDATE} `));
        const larger = values.filter((v) => v.startsWith(`${CANDIDATE} `));
        if (larger.length === 0) return;
        if (own === undefined) throw new Error(`${JOB5}: candidate document ${doc} has no pre-processed set`);
        for (const c of larger) ctx.emit(c.slice(CANDIDATE.length + 1), `${SHIPPED} ${doc} ${own}`);
      },
    }),
  };
}

/**
 * Both sets of a pair as ranks local to the pair: a merge of the two sorted token lists, equal
 * tokens getting equal ranks. Only comparisons matter to the filters and the verification, so
 * these ranks decide exactly as the kernel's global ones.
 */
export function localRanks(x: readonly string[], y: readonly string[]): [Uint32Array, Uint32Array] {
  const rx = new Uint32Array(x.length);
  const ry = new Uint32Array(y.length);
  let i = 0;
  let j = 0;
  let r = 0;
  while (i < x.length || j < y.length) {
    const a = x[i];
    const b = y[j];
    if (b === undefined || (a !== undefined && a < b)) rx[i++] = r++;
    else if (a === undefined || b < a) ry[j++] = r++;
    else {
      rx[i++] = r;
      ry[j++] = r++;
    }
  }
  return [rx, ry];
}

export function verifyJob(s: JoinSettings): JobSpec {
  return {
    name: JOB6,
    description: 'suffix filter, signature filter and exact verification of each candidate pair',
    inputs: [CANDIDATE_SETS, ORDERED_SETS],
    output: PAIRS,
    mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
    reducer: (ctx) => ({
      reduce(doc, values) {
        const shipped = values.filter((v) => v.startsWith(`${SHIPPED} `));
        if (shipped.length === 0) return;
        const ownValue = values.find((v) => !v.startsWith(`${SHIPPED} `));
        if (ownValue === undefined) throw new Error(`${JOB6}: candidate document ${doc} has no pre-processed set`);
        const dx = Number(doc);
        const x = parseOrderedSet(ownValue);
        const sigX = s.signature ? signatureFromHex(x.signature, s.signatureWords) : null;
        for (const v of shipped) {
          const space = v.indexOf(' ', SHIPPED.length + 1);
          const dy = Number(v.slice(SHIPPED.length + 1, space));
          const y = parseOrderedSet(v.slice(space + 1));
          const [rx, ry] = localRanks(x.tokens, y.tokens);
          const first = firstCommon(rx, x.size, ry, y.size);
          if (first === null) throw new Error(`${JOB6}: candidates ${dx} and ${dy} share no token`);
          const sigY = sigX ? signatureFromHex(y.signature, s.signatureWords) : null;
          const o = decideCandidate(
            {
              x: rx,
              xs: 0,
              nx: x.size,
              y: ry,
              ys: 0,
              ny: y.size,
              alpha: minOverlap(x.size, y.size, s.t),
              firstI: first[0],
              firstJ: first[1],
              resumeI: first[0] + 1,
              resumeJ: first[1] + 1,
              common: 1,
              signatureDistance: sigX && sigY ? signatureDistance(sigX, 0, sigY, 0, s.signatureWords) : 0,
            },
            s,
          );
          if (o === PRUNED_BY_SUFFIX) continue;
          ctx.count(GROUP, C.afterSuffix);
          if (o === PRUNED_BY_SIGNATURE) continue;
          ctx.count(GROUP, C.afterSignature);
          if (o === BELOW_THRESHOLD) continue;
          ctx.count(GROUP, C.outputPairs);
          ctx.emit(pairKey(Math.min(dx, dy), Math.max(dx, dy)), formatScore(jaccard(o, x.size, y.size)));
        }
      },
    }),
  };
}

export function ppjoinJobs(spec: TokenSpec, s: JoinSettings): JobSpec[] {
  return [tokenFrequenciesJob(spec), orderedSetsJob(spec, s), prefixPairsJob(s), positionFilterJob(s), candidateSetsJob(), verifyJob(s)];
}
