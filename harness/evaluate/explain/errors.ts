/**
 * A variant's errors against the ground truth (issue 26), for `errors/<variant>.jsonl`: its
 * false positives (pairs it decided whose exact resemblance is below the threshold) and false
 * negatives (pairs at or above it that it did not decide), a seeded sample of each, ordered by
 * how wrong they are, each with its explanation (pair.ts).
 *
 * The sample: of each kind, the `size` errors with the smallest hash of (seed, a, b), a
 * uniform choice that depends on nothing but the documents' indexes, which are the reading
 * order, the same on every backend. Then ordered by wrongness (how far the exact resemblance
 * lies from the threshold on the wrong side), the most wrong first; ties by (a, b). The errors
 * against the ground truth are drawn as the comparison meets them (ErrorSampler).
 */
import type { DocumentSet, PairList, StoreCodec } from '../../../contract/index.ts';
import { fmix32 } from '../../../algorithms/text/lexicon.ts';
import type { WrongPairs } from '../compare.ts';
import { sortPairs } from '../sorted-pairs.ts';
import { Utf8Builder } from '../../../kernels/io/utf8-builder.ts';
import { explainPair, wrongness, type ExplainedVariant, type PairExplanation, type VariantClusters, type Verdict } from './pair.ts';

export interface ErrorPair {
  readonly a: number;
  readonly b: number;
  /** the variant's score, null when it did not report the pair */
  readonly score: number | null;
  /** the ground truth's resemblance (0 when it did not report the pair) */
  readonly truth: number;
  readonly kind: Extract<Verdict, 'false positive' | 'false negative'>;
  readonly wrongness: number;
}

/** What an error is an error against: the exact ground truth, or the judges (`evaluate.judgments`). */
export type Against = 'ground truth' | 'judgments';

export interface ErrorSample {
  /** how many of each there are */
  readonly falsePositives: number;
  readonly falseNegatives: number;
  /** the sample: false positives, then false negatives, each the most wrong first */
  readonly sample: readonly ErrorPair[];
}

/** A 32-bit hash of (seed, a, b): murmur3's finalizer over a mix of the three. */
export function pairHash(seed: number, a: number, b: number): number {
  return fmix32(Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35) ^ Math.imul(seed | 0, 0x27d4eb2f));
}

/**
 * The `size` errors of smallest hash seen so far, kept sorted by (hash, a, b): a run's variants
 * may have a hundred thousand errors of a kind, and no object is made for one that is not kept.
 */
class SmallestHashes {
  readonly kept: { h: number; e: ErrorPair }[] = [];
  count = 0;

  constructor(private readonly size: number) {}

  /** Counts an error and says whether it is kept: then `insert` it (no object is made for one that is not). */
  accepts(h: number, a: number, b: number): boolean {
    this.count++;
    const k = this.kept;
    if (this.size === 0) return false;
    if (k.length < this.size) return true;
    const last = k[k.length - 1] as { h: number; e: ErrorPair };
    return h < last.h || (h === last.h && (a < last.e.a || (a === last.e.a && b < last.e.b)));
  }

  insert(h: number, e: ErrorPair): void {
    const k = this.kept;
    let at = k.length;
    while (at > 0) {
      const p = k[at - 1] as { h: number; e: ErrorPair };
      if (p.h < h || (p.h === h && (p.e.a < e.a || (p.e.a === e.a && p.e.b < e.b)))) break;
      at--;
    }
    k.splice(at, 0, { h, e });
    if (k.length > this.size) k.pop();
  }

  /** The kept errors, the most wrong first; ties by (a, b). */
  sample(): ErrorPair[] {
    return this.kept.map((x) => x.e).sort((x, y) => y.wrongness - x.wrongness || x.a - y.a || x.b - y.b);
  }
}

/** The first index in [lo, hi) whose pair is not before (a, b) in a list sorted by (a, b), else hi (binary search). */
function lowerBound(p: PairList, lo: number, hi: number, a: number, b: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const ma = p.a[mid] as number;
    if (ma < a || (ma === a && (p.b[mid] as number) < b)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of pair (a, b) in a list sorted by (a, b), or -1. */
function indexOf(p: PairList, a: number, b: number): number {
  const at = lowerBound(p, 0, p.a.length, a, b);
  return at < p.a.length && p.a[at] === a && p.b[at] === b ? at : -1;
}

/** The pairs of `p` scoring at least `threshold`, in the same order. */
export function nearDuplicatesOf(p: PairList, threshold: number): PairList {
  const { a, b, score } = p;
  let n = 0;
  for (let i = 0; i < score.length; i++) if ((score[i] as number) >= threshold) n++;
  const out = { a: new Uint32Array(n), b: new Uint32Array(n), score: new Float64Array(n) };
  for (let i = 0, o = 0; o < n; i++) {
    const s = score[i] as number;
    if (s < threshold) continue;
    out.a[o] = a[i] as number;
    out.b[o] = b[i] as number;
    out.score[o++] = s;
  }
  return out;
}

/**
 * The seeded sample of a variant's errors, drawn while the comparison with the ground truth
 * walks the pairs (compare.ts WrongPairs): the errors are the pairs precision and recall count
 * wrong, and no pass of their own looks them up again. Of each kind, the `size` of smallest
 * pairHash; `sample()` then orders them, the most wrong first.
 */
export class ErrorSampler implements WrongPairs {
  private readonly fp: SmallestHashes;
  private readonly fn: SmallestHashes;

  constructor(private readonly o: { readonly seed: number; readonly threshold: number; readonly size: number }) {
    this.fp = new SmallestHashes(o.size);
    this.fn = new SmallestHashes(o.size);
  }

  falsePositive(a: number, b: number, score: number, truth: number): void {
    const h = pairHash(this.o.seed, a, b);
    if (this.fp.accepts(h, a, b)) this.fp.insert(h, { a, b, score, truth, kind: 'false positive', wrongness: wrongness('false positive', truth, this.o.threshold) });
  }

  falseNegative(a: number, b: number, score: number | null, truth: number): void {
    const h = pairHash(this.o.seed, a, b);
    if (this.fn.accepts(h, a, b)) this.fn.insert(h, { a, b, score, truth, kind: 'false negative', wrongness: wrongness('false negative', truth, this.o.threshold) });
  }

  sample(): ErrorSample {
    return { falsePositives: this.fp.count, falseNegatives: this.fn.count, sample: [...this.fp.sample(), ...this.fn.sample()] };
  }
}

export interface ClusterSampleArgs {
  /** each document's cluster label, −1: in none (clusters.ts clustersFromTable) */
  readonly clusterOf: Int32Array;
  /** the variant's pairs (any order), for the score of an error it reported */
  readonly pairs: PairList;
  /** the ground truth's pairs, sorted (sortPairs), and those at or above the threshold (nearDuplicatesOf) */
  readonly truth: PairList;
  readonly truthNear?: PairList;
  readonly documents: number;
  readonly threshold: number;
  readonly seed: number;
  readonly size: number;
  /** induced pairs looked at, at most (CLUSTER_PAIRS_LOOKED_AT) */
  readonly budget?: number;
}

/**
 * Induced pairs a cluster sample looks at, at most: all of them when the clusters hold no more,
 * else this many seeded draws. One look is two binary searches (under a microsecond on the
 * bundled mail), and one cluster of n documents holds n(n − 1)/2.
 */
export const CLUSTER_PAIRS_LOOKED_AT = 200_000;

export interface ClusterErrorSample extends ErrorSample {
  /** induced pairs there are, and those the false positives were sought among (all, or that many drawn) */
  readonly induced: number;
  readonly lookedAt: number;
}

/** Document indexes by cluster, each ascending, the clusters in order of their smallest document; clusters of one left out. */
function clusterMembers(clusterOf: Int32Array): number[][] {
  const byLabel = new Map<number, number[]>();
  for (let d = 0; d < clusterOf.length; d++) {
    const c = clusterOf[d] as number;
    if (c < 0) continue;
    let m = byLabel.get(c);
    if (!m) byLabel.set(c, (m = []));
    m.push(d);
  }
  return [...byLabel.values()].filter((m) => m.length > 1);
}

/**
 * The errors of a clustered variant read as its clusters (docs/design.md §8.8): a pipeline
 * removes all but one document of each cluster, so every pair inside a cluster (an induced
 * pair) counts as decided, reported or not. False positives: induced pairs below the threshold
 * in the ground truth, which transitive closure adds (their count is the cluster measures'
 * induced_pairs_below_threshold). False negatives: pairs at or above it whose documents lie in
 * different clusters, or in none.
 *
 * Sampled as ErrorSampler samples (the `size` of smallest pairHash, the most wrong first), the
 * false positives among the induced pairs looked at: every one when there are at most `budget`,
 * else `budget` draws of an induced pair, uniform and seeded (a cluster of thousands of documents
 * holds millions of pairs; the draws never list them). Ordered by the truth's resemblance: 0 for
 * a pair the ground truth did not report (below its floor); the error file orders them again by
 * the exact resemblance the explanation computes.
 */
export function sampleClusterErrors(s: ClusterSampleArgs): ClusterErrorSample {
  const v = sortPairs(s.pairs, s.documents, 'variant');
  const t = s.truth;
  const near = s.truthNear ?? nearDuplicatesOf(t, s.threshold);
  const th = s.threshold;
  const clusterOf = s.clusterOf;
  const fp = new SmallestHashes(s.size);
  const fn = new SmallestHashes(s.size);
  const scoreOf = (a: number, b: number): number | null => {
    const at = indexOf(v, a, b);
    return at < 0 ? null : (v.score[at] as number);
  };
  // False negatives, and the near-duplicates inside a cluster (to count the false positives).
  let nearInside = 0;
  for (let j = 0; j < near.a.length; j++) {
    const a = near.a[j] as number;
    const b = near.b[j] as number;
    const c = clusterOf[a] as number;
    if (c >= 0 && c === clusterOf[b]) {
      nearInside++;
      continue;
    }
    const h = pairHash(s.seed, a, b);
    const rr = near.score[j] as number;
    if (fn.accepts(h, a, b)) fn.insert(h, { a, b, score: scoreOf(a, b), truth: rr, kind: 'false negative', wrongness: wrongness('false negative', rr, th) });
  }
  const members = clusterMembers(clusterOf);
  // pairs before each cluster's, in the order of `members`
  const before = new Float64Array(members.length + 1);
  members.forEach((m, i) => (before[i + 1] = (before[i] as number) + (m.length * (m.length - 1)) / 2));
  const induced = before[members.length] as number;
  const look = (a: number, b: number): void => {
    if (indexOf(near, a, b) >= 0) return;
    // not a near-duplicate: counted by fp.count below instead of here, since a draw may repeat
    const h = pairHash(s.seed, a, b);
    if (!fp.accepts(h, a, b) || fp.kept.some((k) => k.e.a === a && k.e.b === b)) return;
    const at = indexOf(t, a, b);
    const rr = at < 0 ? 0 : (t.score[at] as number);
    fp.insert(h, { a, b, score: scoreOf(a, b), truth: rr, kind: 'false positive', wrongness: wrongness('false positive', rr, th) });
  };
  const budget = s.budget ?? CLUSTER_PAIRS_LOOKED_AT;
  let lookedAt: number;
  if (induced <= budget) {
    for (const m of members) for (let i = 0; i < m.length; i++) for (let k = i + 1; k < m.length; k++) look(m[i] as number, m[k] as number);
    lookedAt = induced;
  } else {
    for (let draw = 0; draw < budget; draw++) {
      const [a, b] = inducedPair(members, before, drawn(s.seed, draw, induced));
      look(a, b);
    }
    lookedAt = budget;
  }
  return { falsePositives: induced - nearInside, falseNegatives: fn.count, sample: [...fp.sample(), ...fn.sample()], induced, lookedAt };
}

/** The draw-th seeded number in [0, range): 53 bits of two pairHashes, scaled (range ≤ 2^53). */
function drawn(seed: number, draw: number, range: number): number {
  const hi = pairHash(seed ^ 0x5bd1e995, draw, 0x2545f491) >>> 5; // 27 bits
  const lo = pairHash(seed ^ 0x68e31da4, draw, 0x9e3779b9) >>> 6; // 26 bits
  return Math.floor(((hi * 67108864 + lo) / 9007199254740992) * range);
}

/** The r-th induced pair: clusters in the order of `members`, each's pairs (i < k) row by row. */
export function inducedPair(members: readonly (readonly number[])[], before: Float64Array, r: number): [number, number] {
  let lo = 0;
  let hi = members.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((before[mid] as number) <= r) lo = mid;
    else hi = mid - 1;
  }
  const m = members[lo] as readonly number[];
  const n = m.length;
  let q = r - (before[lo] as number);
  // row i holds the n − 1 − i pairs (i, k > i): the row from the closed form, then corrected for rounding
  let i = Math.floor((2 * n - 1 - Math.sqrt((2 * n - 1) ** 2 - 8 * q)) / 2);
  const rowStart = (x: number): number => x * n - (x * (x + 1)) / 2;
  while (i > 0 && rowStart(i) > q) i--;
  while (i < n - 2 && rowStart(i + 1) <= q) i++;
  q -= rowStart(i);
  return [m[i] as number, m[i + 1 + q] as number];
}

export interface JudgedSampleArgs {
  /** the variant's pairs (any order) and the ground truth's, sorted (sortPairs) */
  readonly pairs: PairList;
  readonly truth: PairList;
  /** judged pair key (a · documents + b, a < b) → whether the judges called it a duplicate (harness/evaluate/judgments.ts) */
  readonly judged: ReadonlyMap<number, boolean>;
  readonly documents: number;
  readonly decisions: ExplainedVariant['decisions'];
  readonly threshold: number;
  readonly seed: number;
  readonly size: number;
}

/**
 * The variant's errors against the judges: judged duplicates it did not decide (false
 * negatives) and judged non-duplicates it decided (false positives), sampled as ErrorSampler
 * samples, ordered by how far its score lies on the wrong side of the judges' label: a false
 * positive by its score (1 when every reported pair is a decision), a false negative by one less
 * its score (an unreported pair scores 0). Each error's `truth` is the exact resemblance.
 */
export function sampleJudgedErrors(s: JudgedSampleArgs): ErrorSample {
  const v = sortPairs(s.pairs, s.documents, 'variant');
  const fp = new SmallestHashes(s.size);
  const fn = new SmallestHashes(s.size);
  const everyReported = s.decisions.kind === 'every-reported-pair';
  const n = s.documents;
  // The judged pairs in (a, b) order, so that the sample does not depend on the judgments file's order.
  const keys = [...s.judged.keys()].sort((x, y) => x - y);
  for (const key of keys) {
    const a = Math.floor(key / n);
    const b = key - a * n;
    const at = indexOf(v, a, b);
    const score = at < 0 ? null : (v.score[at] as number);
    const decided = score !== null && (everyReported || score >= s.threshold);
    const duplicate = s.judged.get(key) as boolean;
    if (decided === duplicate) continue;
    const t = indexOf(s.truth, a, b);
    const rr = t < 0 ? 0 : (s.truth.score[t] as number);
    const h = pairHash(s.seed, a, b);
    if (decided) {
      if (fp.accepts(h, a, b)) fp.insert(h, { a, b, score, truth: rr, kind: 'false positive', wrongness: everyReported ? 1 : (score as number) });
    } else if (fn.accepts(h, a, b)) fn.insert(h, { a, b, score, truth: rr, kind: 'false negative', wrongness: 1 - (score ?? 0) });
  }
  return { falsePositives: fp.count, falseNegatives: fn.count, sample: [...fp.sample(), ...fn.sample()] };
}

export interface ErrorFileArgs {
  readonly docs: DocumentSet;
  readonly variant: ExplainedVariant;
  readonly truth: ExplainedVariant;
  readonly threshold: number;
  readonly seed: number;
  readonly width: number;
  /** collection statistics shared by the explanations of a run (contract/explain.ts) */
  cached?<T>(key: string, compute: () => T): T;
  storedIfAny?<T>(codec: StoreCodec<T>): T | undefined;
  /** what the run's kernels computed (contract/explain.ts) */
  computedIfAny?<T>(value: string | StoreCodec<T>): Promise<T | undefined>;
  /** the run's interrupt (contract/explain.ts) */
  readonly signal?: AbortSignal;
  /** each document's words, counted once a run (pair.ts PairQuestion.words) */
  readonly words?: ArrayLike<number>;
  /** the files the variant's run kept (contract/explain.ts) */
  kept?(name: string): Uint8Array | undefined;
  /** a clustered variant: its clusters and their links, for each error's chain (pair.ts) */
  readonly clusters?: VariantClusters;
  /** what the sample's errors are errors against (absent: the ground truth) */
  readonly against?: Against;
  /** `clusters`: the errors of the variant's clusters (sampleClusterErrors), ordered by the exact resemblance their explanations compute */
  readonly from?: 'clusters';
  /** `evaluate.judgments`: whether the judges called the pair a duplicate; undefined when they did not judge it */
  judgedOf?(a: number, b: number): boolean | undefined;
}

/**
 * How much of each document's text an error carries, in UTF-16 code units: the report shows the
 * texts side by side, so a run's errors must carry them, and a few thousand errors must stay a
 * page a browser opens. A longer text is cut at this length (one less when that would split a
 * surrogate pair); the explanation's `chars` says how long it was, and spans keep their offsets.
 */
export const CARRIED_TEXT = 10_000;

/** The start of `text` an error carries (CARRIED_TEXT). */
export function carriedText(text: string): string {
  if (text.length <= CARRIED_TEXT) return text;
  const last = text.charCodeAt(CARRIED_TEXT - 1);
  const next = text.charCodeAt(CARRIED_TEXT);
  const splitsPair = last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
  return text.slice(0, splitsPair ? CARRIED_TEXT - 1 : CARRIED_TEXT);
}

/** A line of `errors/<variant>.jsonl`. */
export interface ErrorLine {
  readonly kind: ErrorPair['kind'];
  /** `judgments`: an error against the judges (a judged duplicate it missed, a judged non-duplicate it decided); absent: against the ground truth */
  readonly against?: 'judgments';
  /** `clusters`: an error of the variant's clusters (every pair inside a cluster decided, sampleClusterErrors); absent: of the pairs it reported */
  readonly from?: 'clusters';
  /** 1-based, the most wrong first, within its kind */
  readonly rank: number;
  /** how many errors of this kind the variant made */
  readonly of: number;
  readonly explanation: PairExplanation;
  /** both documents' texts, each cut to CARRIED_TEXT characters (shorter than `explanation.a.chars`: cut) */
  readonly texts: { readonly a: string; readonly b: string };
  /** with `evaluate.judgments`: the judges' label of the pair beside the exact truth (null: not judged) */
  readonly judgment?: Judgment;
}

export type Judgment = 'duplicate' | 'not a duplicate' | null;

function judgmentOf(judged: boolean | undefined): Judgment {
  return judged === undefined ? null : judged ? 'duplicate' : 'not a duplicate';
}

/** An error sample explained: the lines of `errors/<variant>.jsonl` as bytes, and as the values they hold. */
export interface ExplainedErrors {
  readonly bytes: Buffer;
  /** JSON.parse of each line of `bytes`: the run hands them to its report, which then need not read them back */
  readonly lines: readonly ErrorLine[];
}

/**
 * `errors/<variant>.jsonl`: one line an error of the sample (ErrorLine). The explanations start
 * together, so that collection statistics they all need are gathered in one pass
 * (feature-counts.ts PassCounts) instead of one pass an error; the lines keep the sample's order.
 */
export async function errorsJsonl(sample: ErrorSample, o: ErrorFileArgs): Promise<ExplainedErrors> {
  // Every question in one shape, absent parts undefined: questions made by conditional spreads
  // copied objects of many shapes, a cost an explanation (docs/performance.md).
  const explanations = await Promise.all(
    sample.sample.map((e) =>
      explainPair({
        docs: o.docs,
        a: e.a,
        b: e.b,
        variant: o.variant,
        truth: o.truth,
        threshold: o.threshold,
        score: e.score,
        seed: o.seed,
        width: o.width,
        cached: o.cached,
        storedIfAny: o.storedIfAny,
        computedIfAny: o.computedIfAny,
        signal: o.signal,
        words: o.words,
        kept: o.kept,
        clusters: o.clusters,
      }),
    ),
  );
  // A cluster error the ground truth did not report (below its floor) was sampled with
  // resemblance 0: its explanation computes the exact one, and the sample is ordered by it.
  const order = sample.sample.map((_, i) => i);
  if (o.from === 'clusters') {
    const how = (i: number): number => (explanations[i] as PairExplanation).clusters?.wrongness ?? 0;
    const kindOf = (i: number): number => ((sample.sample[i] as ErrorPair).kind === 'false positive' ? 0 : 1);
    order.sort((i, j) => kindOf(i) - kindOf(j) || how(j) - how(i) || (sample.sample[i] as ErrorPair).a - (sample.sample[j] as ErrorPair).a || (sample.sample[i] as ErrorPair).b - (sample.sample[j] as ErrorPair).b);
  }
  const rank = { 'false positive': 0, 'false negative': 0 };
  // A document's text is most of a line, and the same document is in the errors of many
  // variants of a run: its JSON's bytes are made once there, and copied into the lines.
  const texts = o.cached ? o.cached('carried-texts', () => new Map<number, CarriedText>()) : new Map<number, CarriedText>();
  const carried = (i: number): CarriedText => {
    let t = texts.get(i);
    if (t === undefined) {
      const text = carriedText(o.docs.texts.at(i) as string);
      texts.set(i, (t = { text, json: Buffer.from(JSON.stringify(text)) }));
    }
    return t;
  };
  // Room for the texts and about 3 KB of explanation a line: a file grown by doubling copies itself (docs/performance.md).
  const file = new Utf8Builder(sample.sample.reduce((n, e) => n + carried(e.a).json.length + carried(e.b).json.length + 3072, 0));
  const lines: ErrorLine[] = [];
  for (const i of order) {
    const e = sample.sample[i] as ErrorPair;
    const before: Omit<ErrorLine, 'explanation' | 'texts' | 'judgment'> = {
      kind: e.kind,
      ...(o.against === 'judgments' ? { against: 'judgments' as const } : {}),
      ...(o.from === 'clusters' ? { from: 'clusters' as const } : {}),
      rank: ++rank[e.kind],
      of: e.kind === 'false positive' ? sample.falsePositives : sample.falseNegatives,
    };
    const explanation = explanations[i] as PairExplanation;
    // JSON.stringify of the whole ErrorLine, its keys in this order, with the explanation's and
    // the texts' JSON spliced in.
    const judged = o.judgedOf ? { judgment: judgmentOf(o.judgedOf(e.a, e.b)) } : undefined;
    const judgment = judged ? `,"judgment":${JSON.stringify(judged.judgment)}` : '';
    const ta = carried(e.a);
    const tb = carried(e.b);
    const x = explanationJsons(explanation);
    file.text(`${JSON.stringify(before).slice(0, -1)},"explanation":${x.file},"texts":{"a":`).bytes(ta.json).text(',"b":').bytes(tb.json).text(`}${judgment}}\n`);
    const line: ErrorLine = { ...before, explanation, texts: { a: ta.text, b: tb.text }, ...judged };
    pageJsons.set(line, x.page);
    lines.push(line);
  }
  return { bytes: file.result(), lines };
}

/**
 * An explanation's JSON as its error line holds it (JSON.stringify of it), and as the report's
 * error browser holds it: without the evidence's data (its lines say it), the evidence last. The
 * run's report is written from the lines it holds (harness/report/error-browser.ts): serializing
 * its explanations again was most of the error browser's cost, and the shared pieces (all but the
 * evidence's data) are serialized once here.
 */
function explanationJsons(x: PairExplanation): { readonly file: string; readonly page: string } {
  const { evidence, ...rest } = x;
  const restJson = JSON.stringify(rest).slice(0, -1);
  if (evidence === null) {
    const page = `${restJson},"evidence":null}`;
    return { file: x.clusters === undefined && x.chain === undefined ? page : JSON.stringify(x), page };
  }
  const summary = JSON.stringify(evidence.summary);
  const evidenceLines = JSON.stringify(evidence.lines);
  const page = `${restJson},"evidence":{"summary":${summary},"lines":${evidenceLines}}}`;
  // The line's own order: the evidence before a clustered variant's clusters and chain, its keys as the adapter wrote them.
  const inOrder = x.clusters === undefined && x.chain === undefined && hasKeys(evidence, EVIDENCE_KEYS);
  return { file: inOrder ? `${restJson},"evidence":{"summary":${summary},"data":${JSON.stringify(evidence.data)},"lines":${evidenceLines}}}` : JSON.stringify(x), page };
}

const EVIDENCE_KEYS = ['summary', 'data', 'lines'] as const;

/** Whether `o`'s own keys are `keys`, in that order. */
function hasKeys(o: object, keys: readonly string[]): boolean {
  let k = 0;
  for (const key in o) if (!Object.prototype.hasOwnProperty.call(o, key) || key !== keys[k++]) return false;
  return k === keys.length;
}

/** Each line errorsJsonl made, its explanation as the report's error browser holds it (explanationJsons). */
const pageJsons = new WeakMap<ErrorLine, string>();

/** The JSON of `line`'s explanation as the report's error browser holds it, when this run made the line (errorsJsonl), else undefined. */
export function pageExplanationJson(line: object): string | undefined {
  return pageJsons.get(line as ErrorLine);
}

/** A document's text as an error carries it (carriedText), and its JSON. */
interface CarriedText {
  readonly text: string;
  /** JSON.stringify(text) in UTF-8 */
  readonly json: Buffer;
}


