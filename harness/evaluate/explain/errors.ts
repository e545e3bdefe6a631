/**
 * A variant's errors against the ground truth (issue 26), for `errors/<variant>.jsonl`: its
 * false positives (pairs it decided whose exact resemblance is below the threshold) and false
 * negatives (pairs at or above it that it did not decide), a seeded sample of each, ordered by
 * how wrong they are, each with its explanation (pair.ts).
 *
 * The sample: of each kind, the `size` errors with the smallest hash of (seed, a, b), a
 * uniform choice that depends on nothing but the documents' indexes, which are the reading
 * order, the same on every backend. Then ordered by wrongness (how far the exact resemblance
 * lies from the threshold on the wrong side), the most wrong first; ties by (a, b).
 */
import type { DocumentSet, JsonValue, PairList, StoreCodec } from '../../../contract/index.ts';
import { sortPairs } from '../sorted-pairs.ts';
import { decidedBy, explainPair, wrongness, type ExplainedVariant, type PairExplanation, type Verdict } from './pair.ts';

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

export interface ErrorSample {
  /** how many of each there are */
  readonly falsePositives: number;
  readonly falseNegatives: number;
  /** the sample: false positives, then false negatives, each the most wrong first */
  readonly sample: readonly ErrorPair[];
}

/** A 32-bit hash of (seed, a, b): murmur3's finalizer over a mix of the three. */
export function pairHash(seed: number, a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35) ^ Math.imul(seed | 0, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface SampleArgs {
  /** the variant's pairs (any order) and the ground truth's, sorted (sortPairs) */
  readonly pairs: PairList;
  readonly truth: PairList;
  readonly documents: number;
  readonly decisions: ExplainedVariant['decisions'];
  readonly threshold: number;
  readonly seed: number;
  /** errors of each kind kept */
  readonly size: number;
}

export function sampleErrors(s: SampleArgs): ErrorSample {
  const v = sortPairs(s.pairs, s.documents, 'variant');
  const t = s.truth;
  const fp: ErrorPair[] = [];
  const fn: ErrorPair[] = [];
  let i = 0;
  let j = 0;
  // One walk over both lists in (a, b) order: a pair of either, with the other's score or none.
  while (i < v.a.length || j < t.a.length) {
    const va = i < v.a.length ? (v.a[i] as number) : Infinity;
    const vb = i < v.a.length ? (v.b[i] as number) : Infinity;
    const ta = j < t.a.length ? (t.a[j] as number) : Infinity;
    const tb = j < t.a.length ? (t.b[j] as number) : Infinity;
    const inV = va < ta || (va === ta && vb <= tb);
    const inT = ta < va || (ta === va && tb <= vb);
    const a = inV ? va : ta;
    const b = inV ? vb : tb;
    const score = inV ? (v.score[i++] as number) : null;
    const rr = inT ? (t.score[j++] as number) : 0;
    const decided = decidedBy(s.decisions, score, s.threshold);
    const near = rr >= s.threshold;
    if (decided && !near) fp.push({ a, b, score, truth: rr, kind: 'false positive', wrongness: wrongness('false positive', rr, s.threshold) });
    else if (!decided && near) fn.push({ a, b, score, truth: rr, kind: 'false negative', wrongness: wrongness('false negative', rr, s.threshold) });
  }
  const pick = (xs: ErrorPair[]): ErrorPair[] =>
    xs
      .map((e) => ({ e, h: pairHash(s.seed, e.a, e.b) }))
      .sort((x, y) => x.h - y.h || x.e.a - y.e.a || x.e.b - y.e.b)
      .slice(0, s.size)
      .map((x) => x.e)
      .sort((x, y) => y.wrongness - x.wrongness || x.a - y.a || x.b - y.b);
  return { falsePositives: fp.length, falseNegatives: fn.length, sample: [...pick(fp), ...pick(fn)] };
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
}

/** `errors/<variant>.jsonl`: one line an error of the sample, `{kind, rank, explanation}`. */
export async function errorsJsonl(sample: ErrorSample, o: ErrorFileArgs): Promise<Buffer> {
  const lines: string[] = [];
  const rank = { 'false positive': 0, 'false negative': 0 };
  for (const e of sample.sample) {
    const explanation: PairExplanation = await explainPair({
      docs: o.docs,
      a: e.a,
      b: e.b,
      variant: o.variant,
      truth: o.truth,
      threshold: o.threshold,
      score: e.score,
      seed: o.seed,
      width: o.width,
      ...(o.cached ? { cached: o.cached } : {}),
      ...(o.storedIfAny ? { storedIfAny: o.storedIfAny } : {}),
    });
    const line: JsonValue = { kind: e.kind, rank: ++rank[e.kind], of: e.kind === 'false positive' ? sample.falsePositives : sample.falseNegatives, explanation: JSON.parse(JSON.stringify(explanation)) as JsonValue };
    lines.push(JSON.stringify(line));
  }
  return Buffer.from(lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}
