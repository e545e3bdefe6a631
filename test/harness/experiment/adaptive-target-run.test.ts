/**
 * Adaptive sampling from a precision target (Ye et al. section 6) through `bench run`, on a
 * generated corpus of small (40-word) and large (400-word) documents with near-duplicates at
 * several edit rates: the calibration runs are rows of their own, the choice per size group
 * follows from their size-groups.csv rows by the rule (largest modulus whose precision meets
 * the target), the share of fingerprints from their per-group counters, and the plan recorded
 * in run.json, run again as a plain adaptive config, gives the same pairs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** The choice by the rule, from the calibration rows of size-groups.csv (threshold 0.6 = the target's). */
function expectedModuli(): number[] {
  const rows = csv(dir, 'size-groups.csv');
  return [0, 1].map((g) => {
    const meets = (m: number): boolean => {
      const r = rows.find((x) => x.variant === `target/calibration/m=${m}` && x.group === String(g)) as Row;
      return r.precision_pairs === '' ? r.dup_pairs === '0' : Number(r.precision_pairs) >= TARGET;
    };
    return [...MODULI].reverse().find(meets) ?? 1;
  });
}

describe('adaptive-target', () => {
  it('runs one calibration run per modulus, then the chosen plan under the variant’s name', () => {
    expect(run.variants.map((v) => v.name)).toEqual(['ground-truth', 'target', ...MODULI.map((m) => `target/calibration/m=${m}`)]);
    for (const v of run.variants.slice(2)) expect(v.part_of).toEqual({ variant: 'target', role: 'calibration' });
  });

  it('chooses per size group the largest modulus whose precision meets the target', () => {
    const chosen = expectedModuli();
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

  it('reports the share of fingerprints processed from the calibration runs’ per-group counters', () => {
    const chosen = expectedModuli();
    const metrics = csv(dir, 'metrics.csv');
    const counter = (variant: string, name: string): number => Number(metrics.find((r) => r.variant === variant)?.[`mr1-shingle-pairs.${name}`]);
    const full = [0, 1].map((g) => counter('target/calibration/m=2', `group_${g}_fingerprints`));
    const kept = [0, 1].map((g) => (chosen[g] === 1 ? (full[g] as number) : counter(`target/calibration/m=${chosen[g]}`, `group_${g}_fingerprints_kept`)));
    const share = (100 * ((kept[0] as number) + (kept[1] as number))) / ((full[0] as number) + (full[1] as number));
    const target = run.variants.find((v) => v.name === 'target') as VariantRecord;
    expect((target.calibration?.details as { fingerprints_processed_pct: number }).fingerprints_processed_pct).toBeCloseTo(share, 12);
    // and the adaptive run itself keeps exactly that share
    expect(target.measures.fingerprints_kept_pct).toBeCloseTo(share, 12);
    const plan = csv(dir, 'adaptive-plans/target.csv').find((r) => Number(r.precision_target) === TARGET) as Row;
    expect([plan['m_0-99'], plan['m_100+'], Number(plan.fingerprints_pct_adaptive)]).toEqual([String(chosen[0]), String(chosen[1]), share]);
    expect(run.tables['adaptive-plans/target.csv']).toMatch(/Figure 4/);
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
