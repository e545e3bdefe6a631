/**
 * The explanation of one pair (issue 26): what is common to every detector, computed here
 * (both documents' sizes, the exact resemblance and the shared text from the ground truth's
 * features, the variant's score and decision from its run, and what the decision was against
 * the truth), and the detector's own evidence, asked of its adapter (contract/explain.ts).
 * Nothing here knows a detector.
 */
import type { AdapterExplain, AlgorithmAdapter, DecisionRule, DocumentSet, Evidence, ExplainContext, FeatureOccurrences, JsonValue, StoreCodec } from '../../../contract/index.ts';
import { normalizedWordCount } from '../../../algorithms/text/normalize.ts';
import { featureJaccard, numberedFeatures, sharedText, type NumberedFeatures, type SharedSpan, type SharedText } from './shared-text.ts';
import { clusterChain, type ChainLinks } from './chain.ts';

/** A variant of a run as an explanation needs it. */
export interface ExplainedVariant {
  readonly name: string;
  readonly adapter: AlgorithmAdapter;
  readonly params: unknown;
  readonly decisions: DecisionRule;
}

export interface PairQuestion {
  readonly docs: DocumentSet;
  /** document indexes, a < b */
  readonly a: number;
  readonly b: number;
  readonly variant: ExplainedVariant;
  readonly truth: ExplainedVariant;
  /** evaluate.threshold: a pair is a near-duplicate when its exact resemblance is at least this */
  readonly threshold: number;
  /** the variant's score of the pair as its run reported it; null when it did not report the pair */
  readonly score: number | null;
  readonly seed: number;
  /** columns the evidence's lines must fit in */
  readonly width: number;
  /** values earlier runs kept for these documents (contract/explain.ts) */
  storedIfAny?<T>(codec: StoreCodec<T>): T | undefined;
  /** values the run's kernels computed (contract/explain.ts) */
  computedIfAny?<T>(value: string | StoreCodec<T>): Promise<T | undefined>;
  /** collection statistics shared by the explanations of one run (contract/explain.ts) */
  cached?<T>(key: string, compute: () => T): T;
  /** the run's interrupt, for evidence that passes over the collection (contract/explain.ts) */
  readonly signal?: AbortSignal;
  /** each document's words (evaluate/size-groups.ts DocumentSizes.words), when the run counted them already; else counted here */
  readonly words?: ArrayLike<number>;
  /** the files the variant's run kept (contract/explain.ts) */
  kept?(name: string): Uint8Array | undefined;
  /** a clustered variant's clusters and the links they were closed from: the explanation gives the chain that joined the pair */
  readonly clusters?: VariantClusters;
}

/** A clustered variant's output as its chains need it (chain.ts). */
export interface VariantClusters {
  /** each document's cluster label, −1: in none */
  readonly clusterOf: Int32Array;
  /** the links the clusters were closed from */
  readonly links: { readonly a: ArrayLike<number>; readonly b: ArrayLike<number> };
  readonly madeOf: ChainLinks;
}

/** The chain of links that put the pair in one cluster (chain.ts), by document id. */
export interface ExplainedChain {
  readonly cluster_size: number;
  /** what the links are: the pairs the detector decided before closure, or every pair inside the cluster when those are not known */
  readonly made_of: ChainLinks;
  /** the weakest link's exact resemblance, the highest any chain of these links reaches */
  readonly bottleneck: number;
  /** the documents from A to B */
  readonly path: readonly string[];
  /** the links, the weakest first; `step`: the link's place along the path, 1-based */
  readonly links: readonly { readonly from: string; readonly to: string; readonly resemblance: number; readonly step: number }[];
  /** present when the search stopped at its bound (chain.ts): the chain shown is the one of fewest links */
  readonly bounded?: string;
}

export type Verdict = 'true positive' | 'false positive' | 'false negative' | 'true negative';

export interface DocumentSide {
  readonly id: string;
  readonly index: number;
  readonly chars: number;
  readonly words: number;
  /** distinct features of the ground truth (its shingles) */
  readonly features: number;
  /** the shared text: [start, end) of the original text, and the shared feature occurrences in it */
  readonly spans: readonly (readonly [number, number, number])[];
}

export interface PairExplanation {
  readonly variant: string;
  readonly algorithm: string;
  readonly a: DocumentSide;
  readonly b: DocumentSide;
  /** the ground truth's resemblance, computed again from both texts (docs/design.md §4.3) */
  readonly exact: { readonly variant: string; readonly resemblance: number | null; readonly shared: number; readonly near_duplicate: boolean };
  readonly threshold: number;
  /** the variant's score from its run (null: not reported) and its decision by its rule */
  readonly run: { readonly score: number | null; readonly decided: boolean; readonly rule: string };
  readonly verdict: Verdict;
  /** how wrong the decision is: how far the exact resemblance lies from the threshold on the wrong side; 0 for a right decision */
  readonly wrongness: number;
  readonly evidence: Evidence | null;
  /** a clustered variant: the pair read as its clusters read it (every pair inside a cluster decided, docs/design.md §8.8) */
  readonly clusters?: ClusterReading;
  /** a clustered variant, the pair in one of its clusters: the strongest chain of links that joined them */
  readonly chain?: ExplainedChain;
}

/** A pair read as a clustered variant's clusters read it. */
export interface ClusterReading {
  /** both documents lie in one cluster: a pipeline keeps one of them */
  readonly together: boolean;
  /** documents of the cluster of each (1: in none) */
  readonly size_a: number;
  readonly size_b: number;
  /** the verdict and how wrong it is, with `together` as the decision */
  readonly verdict: Verdict;
  readonly wrongness: number;
}

function side(docs: DocumentSet, i: number, features: number, spans: readonly SharedSpan[], words: number): DocumentSide {
  const text = docs.texts.at(i) as string;
  return { id: docs.ids[i] as string, index: i, chars: text.length, words, features, spans: spans.map((s) => [s.start, s.end, s.occurrences] as const) };
}

/** Whether the variant decided the pair is a near-duplicate, by its rule. */
export function decidedBy(rule: DecisionRule, score: number | null, threshold: number): boolean {
  if (score === null) return false;
  return rule.kind === 'every-reported-pair' || score >= threshold;
}

export function verdictOf(decided: boolean, nearDuplicate: boolean): Verdict {
  if (decided) return nearDuplicate ? 'true positive' : 'false positive';
  return nearDuplicate ? 'false negative' : 'true negative';
}

export async function explainPair(q: PairQuestion): Promise<PairExplanation> {
  const { a, b } = q;
  if (!(a < b)) throw new Error(`explainPair: document indexes must be a < b, got ${a}, ${b}`);
  const features = q.truth.adapter.explain?.features;
  if (!features) throw new Error(`the ground truth's detector ${q.truth.adapter.name} gives no features to compute the exact resemblance from`);
  // A document's features are the same in every explanation of a run: computed once there, by
  // number (shared-text.ts), keys numbered alike for every document of the run. What the truth
  // says of a pair is too: a pair is an error of many variants of a run (every SCT above its
  // copies misses it). Both kept by number, one look-up of the run's cache an explanation.
  // This function only puts the pieces together, each made by a function of its own: V8
  // compiled it with all it inlined, the error step's largest compilation (docs/performance.md).
  const known = q.cached ? q.cached(`truth-side:${q.truth.name}`, () => new TruthKnown()) : new TruthKnown();
  const pair = known.pairOf(q, features);
  const chain = q.clusters ? chainOf(q.clusters, q.docs, a, b, (x, y) => featureJaccard(known.featuresOf(q, features, x).numbered, known.featuresOf(q, features, y).numbered)) : undefined;
  const explain = q.variant.adapter.explain;
  const evidence = explain ? await explain.evidence(q.variant.params as never, evidenceContext(q)) : null;
  return explanationOf(q, { pair, evidence, chain });
}

/** What a detector's evidence is asked with (contract/explain.ts): one shape, absent parts undefined (errors.ts says why). */
function evidenceContext(q: PairQuestion): ExplainContext {
  return { docs: q.docs, a: q.a, b: q.b, seed: q.seed, width: q.width, storedIfAny: q.storedIfAny, computedIfAny: q.computedIfAny, cached: q.cached, signal: q.signal, kept: q.kept };
}

/** The explanation, given what the truth says of the pair, the detector's evidence and a clustered variant's chain. */
function explanationOf(q: PairQuestion, o: { readonly pair: TruthPair; readonly evidence: Evidence | null; readonly chain: ExplainedChain | undefined }): PairExplanation {
  const { pair, evidence, chain } = o;
  const rr = pair.shared.resemblance;
  const nearDuplicate = rr !== null && rr >= q.threshold;
  const decided = decidedBy(q.variant.decisions, q.score, q.threshold);
  const verdict = verdictOf(decided, nearDuplicate);
  const clusters = q.clusters ? clusterReading(q.clusters.clusterOf, q.a, q.b, nearDuplicate, rr ?? 0, q.threshold) : undefined;
  return {
    variant: q.variant.name,
    algorithm: q.variant.adapter.name,
    a: pair.a,
    b: pair.b,
    exact: { variant: q.truth.name, resemblance: rr, shared: pair.shared.shared, near_duplicate: nearDuplicate },
    threshold: q.threshold,
    run: { score: q.score, decided, rule: ruleOf(q.variant.decisions, q.threshold) },
    verdict,
    wrongness: wrongness(verdict, rr ?? 0, q.threshold),
    evidence,
    ...(clusters ? { clusters } : {}),
    ...(chain ? { chain } : {}),
  };
}

/** A decision rule as the explanation says it. */
function ruleOf(rule: DecisionRule, threshold: number): string {
  return rule.kind === 'every-reported-pair' ? 'every pair it reports' : `score ≥ ${threshold}`;
}

interface TruthFeatures {
  readonly occ: FeatureOccurrences;
  readonly numbered: NumberedFeatures;
  readonly words: number;
}

/** The ground truth's adapter's features of a text (contract/explain.ts). */
type TruthFeaturesOf = NonNullable<AdapterExplain<unknown>['features']>;

/** What the ground truth says of a pair: the shared text and each document's side. */
interface TruthPair {
  readonly shared: SharedText;
  readonly a: DocumentSide;
  readonly b: DocumentSide;
}

/** What the ground truth says of the documents and pairs a run (or one explanation) explains. */
class TruthKnown {
  /** the features' keys numbered alike for every document, when the adapter gives no ids */
  readonly numbering = new Map<string, number>();
  /** by document index */
  readonly features = new Map<number, TruthFeatures>();
  /** by a · documents + b */
  readonly pairs = new Map<number, TruthPair>();

  featuresOf(q: PairQuestion, features: TruthFeaturesOf, i: number): TruthFeatures {
    let f = this.features.get(i);
    if (!f) {
      const text = q.docs.texts.at(i) as string;
      const occ = features(q.truth.params, text);
      f = { occ, numbered: numberedFeatures(occ, this.numbering), words: q.words ? (q.words[i] as number) : normalizedWordCount(text) };
      this.features.set(i, f);
    }
    return f;
  }

  pairOf(q: PairQuestion, features: TruthFeaturesOf): TruthPair {
    const { docs, a, b } = q;
    const key = a * docs.ids.length + b;
    let pair = this.pairs.get(key);
    if (!pair) {
      const fa = this.featuresOf(q, features, a);
      const fb = this.featuresOf(q, features, b);
      const shared = sharedText(fa.occ, fb.occ, { a: fa.numbered, b: fb.numbered });
      pair = { shared, a: side(docs, a, shared.featuresA, shared.spansA, fa.words), b: side(docs, b, shared.featuresB, shared.spansB, fb.words) };
      this.pairs.set(key, pair);
    }
    return pair;
  }
}

/** Each cluster's size by label, counted once a variant's clusters (its errors are explained together). */
const clusterSizes = new WeakMap<Int32Array, Map<number, number>>();

function sizesOf(clusterOf: Int32Array): Map<number, number> {
  let sizes = clusterSizes.get(clusterOf);
  if (!sizes) {
    sizes = new Map();
    for (const c of clusterOf) if (c >= 0) sizes.set(c, (sizes.get(c) ?? 0) + 1);
    clusterSizes.set(clusterOf, sizes);
  }
  return sizes;
}

function clusterReading(clusterOf: Int32Array, a: number, b: number, nearDuplicate: boolean, rr: number, threshold: number): ClusterReading {
  const ca = clusterOf[a] as number;
  const cb = clusterOf[b] as number;
  const sizes = sizesOf(clusterOf);
  const together = ca >= 0 && ca === cb;
  const verdict = verdictOf(together, nearDuplicate);
  return { together, size_a: ca < 0 ? 1 : (sizes.get(ca) as number), size_b: cb < 0 ? 1 : (sizes.get(cb) as number), verdict, wrongness: wrongness(verdict, rr, threshold) };
}

function chainOf(c: VariantClusters, docs: DocumentSet, a: number, b: number, resemblance: (x: number, y: number) => number): ExplainedChain | undefined {
  const found = clusterChain({ clusterOf: c.clusterOf, links: c.links, madeOf: c.madeOf, a, b, resemblance });
  if (!found) return undefined;
  const id = (i: number): string => docs.ids[i] as string;
  return {
    cluster_size: found.cluster_size,
    made_of: found.made_of,
    bottleneck: found.bottleneck,
    path: found.path.map(id),
    links: found.links.map((l) => ({ from: id(l.from), to: id(l.to), resemblance: l.resemblance, step: l.step })),
    ...(found.bounded ? { bounded: found.bounded } : {}),
  };
}

/** How wrong an error is: how far the exact resemblance lies from the threshold on the wrong side (0 for a right decision). */
export function wrongness(verdict: Verdict, rr: number, threshold: number): number {
  if (verdict === 'false positive') return threshold - rr;
  if (verdict === 'false negative') return rr - threshold;
  return 0;
}

/** The explanation as JSON values (for `--json`, the error files and the report). */
export function explanationJson(e: PairExplanation): JsonValue {
  return JSON.parse(JSON.stringify(e)) as JsonValue;
}
