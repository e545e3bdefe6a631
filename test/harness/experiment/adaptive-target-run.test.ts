/**
 * Adaptive sampling from a precision target (Ye et al. section 6) through `bench run`, on a
 * generated corpus of small (40-word) and large (400-word) documents with near-duplicates at
 * several edit rates. The expected choice, share and pairs are computed here by brute force,
 * from the readable shingle reference (`charShingles`) and the 64-bit Rabin fingerprint of each
 * shingle as a BigInt: every pair's Jaccard on the full and on the `fp mod m = 0` sets, the
 * precision per size group at each modulus, the largest modulus meeting the target, the
 * fingerprints kept, and the final adaptive run's pairs (a pair across groups compared at the
 * coarser modulus). Nothing expected is read from the run's own output.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rabin64 } from '../../../algorithms/text/rabin64.ts';
import { charShingles } from '../../../algorithms/text/shingles.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import type { RunRecord, VariantRecord } from '../../../harness/results/types.ts';
import { runOptions } from '../../support/run-options.ts';

/** Deterministic pseudo-random words (an LCG). */
function randomWords(n: number, seed: number): string[] {
  let x = seed >>> 0;
  const next = (): number => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
  return Array.from({ length: n }, () => {
    let w = '';
    for (let k = 3 + (next() % 5); k > 0; k--) w += String.fromCharCode(97 + (next() % 26));
    return w;
  });
}

/** A base text and copies with every k-th word replaced, for k = 40, 20 and 10 (resemblances about .85, .72 and .54 with char-16 shingles). */
function family(words: number, seed: number): string[] {
  const base = randomWords(words, seed);
  const noise = randomWords(words, seed + 7919);
  return [base, ...[40, 20, 10].map((k) => base.map((w, i) => (i % k === k - 1 ? (noise[i] as string) : w)))].map((ws) => ws.join(' '));
}

const TEXTS = [...Array.from({ length: 30 }, (_, i) => family(40, 1 + i)).flat(), ...Array.from({ length: 8 }, (_, i) => family(400, 500 + i)).flat()];
const MODULI = [2, 4, 8, 16];
const TARGET = 0.9;

let root: string;
let dir: string;
let run: RunRecord;
type Row = Record<string, string>;
const csv = (d: string, file: string): Row[] => parse(readFileSync(join(d, file), 'utf8'), { columns: true }) as Row[];
const yaml = (name: string, corpus: string, sampling: string): string => `experiment: ${name}
corpus: { format: jsonl, path: ${corpus} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    name: target
    params: { shingle: { unit: char, size: 16 }, sampling: ${sampling} }
evaluate: { threshold: 0.6, min_score: 0.1, size_groups: [{ min_words: 0, max_words: 99 }, { min_words: 100 }] }
backend: { kind: local, workers: 1 }
`;

async function runConfig(name: string, sampling: string): Promise<{ dir: string; run: RunRecord }> {
  const corpus = join(root, 'docs.jsonl');
  const file = join(root, `${name}.yaml`);
  writeFileSync(file, yaml(name, corpus, sampling));
  const r = await runExperiment(runOptions(file, join(root, 'results')));
  if (r.kind !== 'completed') throw new Error('expected a completed run');
  return { dir: r.dir, run: r.record };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'adaptive-target-'));
  writeFileSync(join(root, 'docs.jsonl'), TEXTS.map((text, i) => JSON.stringify({ id: `d${String(i).padStart(3, '0')}`, text })).join('\n') + '\n');
  const r = await runConfig('target', `{ method: adaptive-target, precision: ${TARGET}, threshold: 0.6, m: [${MODULI.join(', ')}] }`);
  dir = r.dir;
  run = r.run;
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

// ---- the brute-force reference ----------------------------------------------------------

const THRESHOLD = 0.6;
const MIN_SCORE = 0.1;
const ids = TEXTS.map((_, i) => `d${String(i).padStart(3, '0')}`);
/** Each document's distinct fingerprints (char-16 shingles starting at words, Rabin 64-bit). */
const sets = TEXTS.map((t) => new Set(charShingles(t, 16).map((sh) => { const f = rabin64(sh); return (BigInt(f[0] as number) << 32n) | BigInt(f[1] as number); })));
/** Size group by words (the texts are words separated by single spaces): 0-99 → 0, 100+ → 1. */
const groupOf = TEXTS.map((t) => (t.split(' ').length <= 99 ? 0 : 1));
const words = TEXTS.map((t) => t.split(' ').length);
const sampled = (d: number, m: number): Set<bigint> => new Set([...(sets[d] as Set<bigint>)].filter((f) => f % BigInt(m) === 0n));
function jaccard(a: Set<bigint>, b: Set<bigint>): number | null {
  if (a.size === 0 || b.size === 0) return null; // a document with no fingerprint is in no pair
  let both = 0;
  for (const f of a) if (b.has(f)) both++;
  return both / (a.size + b.size - both);
}
const pairs: [number, number][] = [];
for (let a = 0; a < TEXTS.length; a++) for (let b = a + 1; b < TEXTS.length; b++) pairs.push([a, b]);
/** A pair's group: its smaller document's. */
const pairGroup = ([a, b]: [number, number]): number => groupOf[(words[a] as number) <= (words[b] as number) ? a : b] as number;
const truth = pairs.map(([a, b]) => jaccard(sets[a] as Set<bigint>, sets[b] as Set<bigint>) ?? 0);

/** Whether modulus m meets the target in group g: precision >= target, or nothing to find and nothing called. */
function meets(m: number, g: number): boolean {
  let res = 0;
  let both = 0;
  let dup = 0;
  pairs.forEach((p, i) => {
    if (pairGroup(p) !== g) return;
    const isDup = (truth[i] as number) >= THRESHOLD;
    const isRes = (jaccard(sampled(p[0], m), sampled(p[1], m)) ?? 0) >= THRESHOLD;
    if (isDup) dup++;
    if (isRes) res++;
    if (isDup && isRes) both++;
  });
  return res > 0 ? both / res >= TARGET : dup === 0;
}
const expectedModuli = [0, 1].map((g) => [...MODULI].reverse().find((m) => meets(m, g)) ?? 1);
const fingerprintsIn = (g: number, m: number): number =>
  TEXTS.reduce((s, _, d) => s + (groupOf[d] === g ? (m === 1 ? (sets[d] as Set<bigint>).size : sampled(d, m).size) : 0), 0);
const expectedShare = (100 * (fingerprintsIn(0, expectedModuli[0] as number) + fingerprintsIn(1, expectedModuli[1] as number))) / (fingerprintsIn(0, 1) + fingerprintsIn(1, 1));
/** The adaptive run's pairs at or above min_score: each document sampled at its group's modulus, a pair at the coarser one. */
const expectedPairs = pairs.flatMap(([a, b]) => {
  const m = Math.max(expectedModuli[groupOf[a] as number] as number, expectedModuli[groupOf[b] as number] as number);
  const score = jaccard(sampled(a, m), sampled(b, m));
  return score !== null && score >= MIN_SCORE ? [`${ids[a]},${ids[b]}`] : [];
});

describe('adaptive-target', () => {
  it('runs one calibration run per modulus, then the chosen plan under the variant’s name', () => {
    expect(run.variants.map((v) => v.name)).toEqual(['ground-truth', 'target', ...MODULI.map((m) => `target/calibration/m=${m}`)]);
    for (const v of run.variants.slice(2)) expect(v.part_of).toEqual({ variant: 'target', role: 'calibration' });
  });

  it('chooses per size group the largest modulus whose precision meets the target', () => {
    const chosen = expectedModuli;
    const target = run.variants.find((v) => v.name === 'target') as VariantRecord;
    expect(target.params).toEqual({
      shingle: { unit: 'char', size: 16, start: 'word' },
      fingerprint: 'rabin64',
      sampling: { method: 'adaptive', by: 'words', groups: [{ max_size: 99, m: chosen[0] }, { max_size: null, m: chosen[1] }] },
    });
    expect(target.calibration?.params_given).toMatchObject({ sampling: { method: 'adaptive-target', precision: TARGET } });
    // small documents need the finer sample, as Ye et al. find (here 1/2 against 1/16)
    expect(chosen).toEqual([2, 16]);
  });

  it('reports the share of fingerprints processed, and the adaptive run keeps exactly it', () => {
    const target = run.variants.find((v) => v.name === 'target') as VariantRecord;
    expect((target.calibration?.details as { fingerprints_processed_pct: number }).fingerprints_processed_pct).toBeCloseTo(expectedShare, 12);
    expect(target.measures.fingerprints_kept_pct).toBeCloseTo(expectedShare, 12);
    const plan = csv(dir, 'adaptive-plans/target.csv').find((r) => Number(r.precision_target) === TARGET) as Row;
    expect([plan['m_0-99'], plan['m_100+']]).toEqual(expectedModuli.map(String));
    expect(Number(plan.fingerprints_pct_adaptive)).toBeCloseTo(expectedShare, 12);
    expect(run.tables['adaptive-plans/target.csv']).toMatch(/Figure 4/);
  });

  it('reports the pairs of the chosen plan', () => {
    const rows = gunzipSync(readFileSync(join(dir, 'pairs', 'target.csv.gz'))).toString('utf8').trim().split('\n').slice(1);
    expect(rows.map((r) => r.split(',').slice(0, 2).join(',')).sort()).toEqual([...expectedPairs].sort());
  });

  it('gives the same pairs when the recorded plan is run as a plain adaptive config', async () => {
    const target = run.variants.find((v) => v.name === 'target') as VariantRecord;
    const sampling = JSON.stringify((target.params as { sampling: unknown }).sampling);
    const again = await runConfig('reuse', sampling);
    const pairs = (d: string): string => gunzipSync(readFileSync(join(d, 'pairs', 'target.csv.gz'))).toString('utf8');
    expect(pairs(again.dir)).toEqual(pairs(dir));
    expect(again.run.variants.map((v) => v.name)).toEqual(['ground-truth', 'target']);
  });
});
