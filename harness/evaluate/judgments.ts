/**
 * Human judgments as a ground truth (`evaluate.judgments`; docs/design.md §8.9): a CSV of judged
 * document pairs, `doc_a,doc_b,label`, the label a number (a grade: 0 not a duplicate, 2 a
 * duplicate, …), and the grade from which a pair counts as a duplicate. On the judged pairs J
 * with Pos those judged duplicates and Res the pairs a variant decided:
 * `judged_precision` = |Res ∩ J ∩ Pos| / |Res ∩ J|, `judged_recall` = |Res ∩ Pos| / |Pos|,
 * `judged_f1` their harmonic mean. A variant whose scores rank its pairs (not every pair scoring
 * 1) also gets its precision-recall curve on J (a pair it does not report scores 0, below every
 * threshold) and the threshold that maximizes F1 on it (the highest of equals). The ground truth
 * gets the same: how far the full-shingle resemblance agrees with the judges. A judged pair
 * naming a document the corpus does not have is left out and counted in a warning.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { DocumentSet, PairList } from '../../contract/index.ts';
import { clip, DataError, UserError } from '../errors.ts';

export interface JudgmentsSpec {
  readonly path: string;
  /** the lowest label that counts as a duplicate */
  readonly duplicate_from: number;
}

export interface CurvePoint {
  readonly threshold: number;
  /** judged pairs scoring at least the threshold */
  readonly decided: number;
  readonly precision: number;
  readonly recall: number | null;
  readonly f1: number | null;
}

export interface JudgedResult {
  readonly measures: Record<string, number | null>;
  /** the precision-recall curve, highest threshold first; absent for a variant whose scores do not rank */
  readonly curve?: readonly CurvePoint[];
}

export interface Judgments {
  /** judged pair key (a · n + b, a < b) → whether it is judged a duplicate */
  readonly judged: ReadonlyMap<number, boolean>;
  readonly positives: number;
  readonly warning?: string;
  measure(pairs: PairList, decided: (i: number) => boolean): JudgedResult;
}

const HEADER = 'doc_a,doc_b,label';

export function loadJudgments(spec: JudgmentsSpec, docs: DocumentSet): Judgments {
  const file = spec.path;
  let rows: string[][];
  try {
    rows = parse(readFileSync(file, 'utf8'), { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { lines?: number };
    if (err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'EISDIR') throw new UserError(`${file}: cannot read the judgments (${err.code})`);
    throw new DataError(`${file}: line ${err.lines ?? '?'}: ${(err.message ?? String(e)).split('\n')[0]}`);
  }
  const n = docs.ids.length;
  const index = new Map(docs.ids.map((id, i) => [id, i]));
  const judged = new Map<number, boolean>();
  let unknown = 0;
  let firstUnknown = '';
  const start = rows[0]?.join(',') === HEADER ? 1 : 0;
  for (let r = start; r < rows.length; r++) {
    const row = rows[r] as string[];
    const line = r + 1;
    const [a, b, label] = row;
    const grade = label === undefined || label.trim() === '' ? NaN : Number(label);
    if (row.length !== 3 || a === undefined || b === undefined || a === b || !Number.isFinite(grade)) {
      throw new DataError(`${file}: line ${line}: expected doc_a,doc_b,label with two different documents and a number, got ${clip(row.join(','))}`);
    }
    const x = index.get(a);
    const y = index.get(b);
    if (x === undefined || y === undefined) {
      if (unknown === 0) firstUnknown = `line ${line}: ${clip(x === undefined ? a : b)}`;
      unknown++;
      continue;
    }
    const key = Math.min(x, y) * n + Math.max(x, y);
    const dup = grade >= spec.duplicate_from;
    if (judged.has(key) && judged.get(key) !== dup) throw new DataError(`${file}: line ${line}: the pair ${clip(a)}, ${clip(b)} is judged twice, once a duplicate and once not`);
    judged.set(key, dup);
  }
  let positives = 0;
  for (const d of judged.values()) if (d) positives++;
  const warning =
    unknown > 0 ? `evaluate.judgments: ${unknown} judged pairs name a document the corpus does not have (first: ${firstUnknown}): left out of the judged measures` : undefined;
  return { judged, positives, ...(warning ? { warning } : {}), measure: (pairs, decided) => measureOnJudged(judged, positives, n, pairs, decided) };
}

const ratio = (x: number, y: number): number | null => (y === 0 ? null : x / y);
const f1Of = (p: number | null, r: number | null): number | null => (p === null || r === null ? null : p + r === 0 ? 0 : (2 * p * r) / (p + r));

function measureOnJudged(judged: ReadonlyMap<number, boolean>, positives: number, n: number, pairs: PairList, decided: (i: number) => boolean): JudgedResult {
  let decidedJudged = 0;
  let decidedPositive = 0;
  let ranks = false;
  // The scores of the judged pairs the variant reports; the others score 0.
  const scored: { score: number; dup: boolean }[] = [];
  for (let i = 0; i < pairs.a.length; i++) {
    const s = pairs.score[i] as number;
    if (s !== 1) ranks = true;
    const dup = judged.get((pairs.a[i] as number) * n + (pairs.b[i] as number));
    if (dup === undefined) continue;
    if (s > 0) scored.push({ score: s, dup });
    if (decided(i)) {
      decidedJudged++;
      if (dup) decidedPositive++;
    }
  }
  const precision = ratio(decidedPositive, decidedJudged);
  const recall = ratio(decidedPositive, positives);
  const measures: Record<string, number | null> = {
    judged_pairs: judged.size,
    judged_precision: precision,
    judged_recall: recall,
    judged_f1: f1Of(precision, recall),
  };
  if (!ranks) return { measures };
  const curve = prCurve(scored, positives);
  let best: CurvePoint | undefined;
  for (const p of curve) if (p.f1 !== null && (best === undefined || p.f1 > (best.f1 as number))) best = p;
  return { measures: { ...measures, judged_best_threshold: best?.threshold ?? null, judged_best_f1: best?.f1 ?? null }, curve };
}

/** Precision and recall at each distinct score of the judged pairs, highest first. */
export function prCurve(scored: readonly { readonly score: number; readonly dup: boolean }[], positives: number): CurvePoint[] {
  const sorted = [...scored].sort((x, y) => y.score - x.score);
  const curve: CurvePoint[] = [];
  let tp = 0;
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i] as { score: number; dup: boolean };
    if (p.dup) tp++;
    // A point at the last pair of each score: every pair at or above it is decided.
    if (i + 1 < sorted.length && (sorted[i + 1] as { score: number }).score === p.score) continue;
    const precision = tp / (i + 1);
    const recall = ratio(tp, positives);
    curve.push({ threshold: p.score, decided: i + 1, precision, recall, f1: f1Of(precision, recall) });
  }
  return curve;
}

/** The curve as `judgments/<variant>.csv`. */
export function curveCsv(curve: readonly CurvePoint[]): string {
  const cell = (x: number | null): string => (x === null ? '' : String(x));
  return ['threshold,decided,precision,recall,f1', ...curve.map((p) => [p.threshold, p.decided, p.precision, p.recall, p.f1].map(cell).join(','))].join('\n') + '\n';
}
