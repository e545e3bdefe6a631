/**
 * Human judgments (harness/evaluate/judgments.ts): on a judged set of the small corpus, labelled
 * by a stated rule, every measure of a run equals a computation written here from the
 * definitions, the ground truth's resemblance computed naively from shingle sets.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charShingles } from '../../../algorithms/text/shingles.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { prCurve } from '../../../harness/evaluate/judgments.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { isUserError } from '../../../harness/errors.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { SMALL_JSONL, smallCorpus } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

const docs = smallCorpus();

/** The rule: two versions of one text (b0, b0-edit, …) grade 2; two mails of one list (list0, list1) grade 1; anything else 0. */
function grade(a: string, b: string): number {
  const base = (id: string): string => id.split('-')[0] as string;
  if (/^b\d/.test(a) && base(a) === base(b)) return 2;
  if (a.startsWith('list') && b.startsWith('list')) return 1;
  return 0;
}

/** Every pair of these documents, judged by the rule. */
const JUDGED_IDS = ['b0', 'b0-edit', 'b0-cut', 'b0-copy', 'b1', 'b1-shout', 'b2', 'b2-cut', 'list0', 'list1', 'list2', 'b3', 'unicode'];
const judged: [string, string, number][] = [];
for (let i = 0; i < JUDGED_IDS.length; i++) for (let j = i + 1; j < JUDGED_IDS.length; j++) judged.push([JUDGED_IDS[i] as string, JUDGED_IDS[j] as string, grade(JUDGED_IDS[i] as string, JUDGED_IDS[j] as string)]);

/** The full-shingle resemblance (char-16 shingles as strings), naively. */
function rr(a: string, b: string): number {
  const text = (id: string): string => docs.texts.at(docs.ids.indexOf(id)) as string;
  const A = new Set(charShingles(normalize(text(a)), 16));
  const B = new Set(charShingles(normalize(text(b)), 16));
  let common = 0;
  for (const s of A) if (B.has(s)) common++;
  const union = A.size + B.size - common;
  return union === 0 ? 0 : common / union;
}

/** P, R, F1 of `decided` on the judged pairs (duplicate: grade ≥ 2). */
function prf(decided: (a: string, b: string) => boolean): { p: number; r: number; f1: number } {
  const pos = judged.filter((j) => j[2] >= 2);
  const res = judged.filter((j) => decided(j[0], j[1]));
  const tp = res.filter((j) => j[2] >= 2).length;
  const p = tp / res.length;
  const r = tp / pos.length;
  return { p, r, f1: (2 * p * r) / (p + r) };
}

let root: string;
let record: RunRecord;
let dir: string;
// The decision-only detector's pairs: right on b0's versions, wrong on list0-b2 and b3-unicode.
const EXTERNAL_PAIRS = [
  ['b0', 'b0-edit'],
  ['b0-cut', 'b0'],
  ['list0', 'b2'],
  ['b3', 'unicode'],
  ['b1', 'b1-shout'],
];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'judgments-'));
  const lines = ['doc_a,doc_b,label', ...judged.map((j) => j.join(',')), 'b0,nobody,2', 'ghost,b1,0'];
  writeFileSync(join(root, 'judged.csv'), lines.join('\n') + '\n');
  writeFileSync(join(root, 'pairs.sh'), `printf "${EXTERNAL_PAIRS.map((p) => p.join(',')).join('\\n')}\\n" > "$1"\n`);
  writeFileSync(
    join(root, 'c.yaml'),
    `experiment: judged
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: external
    name: decider
    params: { program: pairs.sh, command: [sh, "{program}", "{output}"] }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.5], judgments: { path: judged.csv, duplicate_from: 2 } }
backend: { kind: local, workers: 1 }
`,
  );
  const out = await runExperiment(runOptions(join(root, 'c.yaml'), join(root, 'results')));
  if (out.kind !== 'completed') throw new Error(out.kind);
  record = out.record;
  dir = out.dir;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('measures on human judgments', () => {
  it('of the ground truth: P, R and F1 of RR >= t on the judged pairs, as computed here', () => {
    const m = record.variants[0]?.measures;
    const e = prf((a, b) => rr(a, b) >= 0.5);
    expect(m?.judged_pairs).toBe(judged.length);
    expect(m?.judged_precision).toBeCloseTo(e.p, 12);
    expect(m?.judged_recall).toBeCloseTo(e.r, 12);
    expect(m?.judged_f1).toBeCloseTo(e.f1, 12);
  });

  it("of the ground truth: the F1-maximizing threshold over its resemblance, by trying every threshold", () => {
    const scores = [...new Set(judged.map((j) => rr(j[0], j[1])).filter((s) => s > 0))].sort((x, y) => y - x);
    let best = { t: NaN, f1: -1 };
    for (const t of scores) {
      const f1 = prf((a, b) => rr(a, b) >= t).f1;
      if (f1 > best.f1 + 1e-12) best = { t, f1 };
    }
    const m = record.variants[0]?.measures;
    expect(m?.judged_best_threshold).toBeCloseTo(best.t, 12);
    expect(m?.judged_best_f1).toBeCloseTo(best.f1, 12);
    const curve = readFileSync(join(dir, 'judgments', 'ground-truth.csv'), 'utf8').trim().split('\n');
    expect(curve[0]).toBe('threshold,decided,precision,recall,f1');
    expect(curve.length - 1).toBe(scores.length);
  });

  it('of a decision-only detector: P, R and F1 of the pairs it wrote, and no curve', () => {
    const wrote = new Set(EXTERNAL_PAIRS.map(([a, b]) => [a, b].sort().join(' ')));
    const e = prf((a, b) => wrote.has([a, b].sort().join(' ')));
    const m = record.variants[1]?.measures;
    expect(m?.judged_precision).toBeCloseTo(e.p, 12);
    expect(m?.judged_recall).toBeCloseTo(e.r, 12);
    expect(m?.judged_f1).toBeCloseTo(e.f1, 12);
    expect(m?.judged_best_threshold).toBeUndefined();
    expect(record.variants[1]?.files.some((f) => f.file.startsWith('judgments/'))).toBe(false);
  });

  it("gives each sampled error the judges' label beside the exact truth, null where they did not judge it", () => {
    const lines = readFileSync(join(dir, 'errors', 'decider.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { explanation: { a: { id: string }; b: { id: string } }; judgment: unknown });
    expect(lines.length).toBeGreaterThan(0);
    const judgedIds = new Set(JUDGED_IDS);
    for (const l of lines) {
      const [a, b] = [l.explanation.a.id, l.explanation.b.id];
      const expected = judgedIds.has(a) && judgedIds.has(b) ? (grade(a, b) >= 2 || grade(b, a) >= 2 ? 'duplicate' : 'not a duplicate') : null;
      expect(l.judgment, `${a} ${b}`).toBe(expected);
    }
    expect(lines.some((l) => l.judgment !== null)).toBe(true);
  });

  it('counts the judgments naming documents not in the corpus in a warning', () => {
    expect(record.variants[0]?.warnings).toContain(
      "evaluate.judgments: 2 judged pairs name a document the corpus does not have (first: line " + (judged.length + 2) + ": nobody): left out of the judged measures",
    );
  });

  it('refuses a malformed judgment in one line naming the file and line', async () => {
    writeFileSync(join(root, 'judged.csv'), 'doc_a,doc_b,label\nb0,b0-edit,2\nb0,b1,maybe\n');
    const err = await runExperiment(runOptions(join(root, 'c.yaml'), join(root, 'results'), { runId: 'bad' })).catch((e: unknown) => e);
    expect(isUserError(err)).toBe(true);
    expect((err as Error).message).toBe(`${join(root, 'judged.csv')}: line 3: expected doc_a,doc_b,label with two different documents and a number, got b0,b1,maybe`);
  });
});

describe('prCurve', () => {
  it('has one point a distinct score, ties decided together', () => {
    const c = prCurve([{ score: 0.9, dup: true }, { score: 0.5, dup: false }, { score: 0.5, dup: true }, { score: 0.2, dup: false }], 3);
    expect(c.map((p) => [p.threshold, p.decided, p.precision, p.recall])).toEqual([
      [0.9, 1, 1, 1 / 3],
      [0.5, 3, 2 / 3, 2 / 3],
      [0.2, 4, 2 / 4, 2 / 3],
    ]);
  });
});
