/**
 * The explanation of one pair (issue 26): what is common to every detector, computed here
 * (both documents' sizes, the exact resemblance and the shared text from the ground truth's
 * features, the variant's score and decision from its run, and what the decision was against
 * the truth), and the detector's own evidence, asked of its adapter (contract/explain.ts).
 * Nothing here knows a detector.
 */
import type { AlgorithmAdapter, DecisionRule, DocumentSet, Evidence, JsonValue, StoreCodec } from '../../../contract/index.ts';
import { normalizedWordCount } from '../../../algorithms/text/normalize.ts';
import { sharedText, type SharedSpan } from './shared-text.ts';

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
  /** collection statistics shared by the explanations of one run (contract/explain.ts) */
  cached?<T>(key: string, compute: () => T): T;
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
}

function side(docs: DocumentSet, i: number, features: number, spans: readonly SharedSpan[]): DocumentSide {
  const text = docs.texts[i] as string;
  return { id: docs.ids[i] as string, index: i, chars: text.length, words: normalizedWordCount(text), features, spans: spans.map((s) => [s.start, s.end, s.occurrences] as const) };
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
  const { docs, a, b } = q;
  if (!(a < b)) throw new Error(`explainPair: document indexes must be a < b, got ${a}, ${b}`);
  const features = q.truth.adapter.explain?.features;
  if (!features) throw new Error(`the ground truth's detector ${q.truth.adapter.name} gives no features to compute the exact resemblance from`);
  // A document's features are the same in every explanation of a run: computed once there.
  const of = (i: number) => {
    const compute = () => {
      const occ = features(q.truth.params as never, docs.texts[i] as string);
      return { occ, set: new Set(occ.keys) };
    };
    return q.cached ? q.cached(`truth-features:${q.truth.name}:${i}`, compute) : compute();
  };
  // A pair is an error of many variants of a run (every SCT above its copies misses it): what
  // the truth says of it is the same in each, computed once there.
  const truthSide = () => {
    const fa = of(a);
    const fb = of(b);
    const shared = sharedText(fa.occ, fb.occ, { a: fa.set, b: fb.set });
    return { shared, a: side(docs, a, shared.featuresA, shared.spansA), b: side(docs, b, shared.featuresB, shared.spansB) };
  };
  const pair = q.cached ? q.cached(`truth-pair:${q.truth.name}:${a}:${b}`, truthSide) : truthSide();
  const shared = pair.shared;
  const rr = shared.resemblance;
  const nearDuplicate = rr !== null && rr >= q.threshold;
  const decided = decidedBy(q.variant.decisions, q.score, q.threshold);
  const verdict = verdictOf(decided, nearDuplicate);
  const explain = q.variant.adapter.explain;
  const evidence = explain ? await explain.evidence(q.variant.params as never, { docs, a, b, seed: q.seed, width: q.width, ...(q.storedIfAny ? { storedIfAny: q.storedIfAny } : {}), ...(q.cached ? { cached: q.cached } : {}) }) : null;
  return {
    variant: q.variant.name,
    algorithm: q.variant.adapter.name,
    a: pair.a,
    b: pair.b,
    exact: { variant: q.truth.name, resemblance: rr, shared: shared.shared, near_duplicate: nearDuplicate },
    threshold: q.threshold,
    run: { score: q.score, decided, rule: q.variant.decisions.kind === 'every-reported-pair' ? 'every pair it reports' : `score ≥ ${q.threshold}` },
    verdict,
    wrongness: wrongness(verdict, rr ?? 0, q.threshold),
    evidence,
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
