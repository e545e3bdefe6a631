/**
 * Residue averaging (Ye et al. 4.4) through `bench run`: `sampling: { method: mod, m: 4,
 * residues: all }` is one variant whose measures are the means of its four trials, each trial
 * a row of its own. Checked against four separate runs, one per residue, averaged here.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import type { RunRecord, VariantRecord } from '../../../harness/results/types.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

const M = 4;
let root: string;
let averaged: { dir: string; run: RunRecord };
const separate: VariantRecord[] = [];
const separateGroups: Record<string, string>[][] = [];

const config = (name: string, sampling: string): string => `experiment: ${name}
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    name: mod
    params: { shingle: { unit: char, size: 16 }, sampling: ${sampling} }
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.5, 0.1], size_groups: [{ min_words: 0, max_words: 40 }, { min_words: 41 }] }
backend: { kind: local, workers: 1 }
`;

async function run(name: string, sampling: string): Promise<{ dir: string; run: RunRecord }> {
  const file = join(root, `${name}.yaml`);
  writeFileSync(file, config(name, sampling));
  const r = await runExperiment(runOptions(file, join(root, 'results')));
  if (r.kind !== 'completed') throw new Error('expected a completed run');
  return { dir: r.dir, run: r.record };
}

type Row = Record<string, string>;
const csv = (dir: string, file: string): Row[] => parse(readFileSync(join(dir, file), 'utf8'), { columns: true }) as Row[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'trials-'));
  averaged = await run('averaged', `{ method: mod, m: ${M}, residues: all }`);
  for (let r = 0; r < M; r++) {
    const one = await run(`residue-${r}`, `{ method: mod, m: ${M}, residue: ${r} }`);
    separate.push(one.run.variants.find((v) => v.name === 'mod') as VariantRecord);
    separateGroups.push(csv(one.dir, 'size-groups.csv').filter((x) => x.variant === 'mod'));
  }
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const QUALITY = ['pairs', 'avg_error', 'correlation', 'precision_docs', 'recall_docs', 'precision_pairs', 'recall_pairs', 'f1_pairs', 'mr1_output_pairs', 'mr1_reduction_pct', 'fingerprints_kept_pct'];

/** The mean of the runs that define the value, as Ye et al. average trials. */
function meanOf(xs: (number | null | undefined)[]): number | null {
  const d = xs.filter((x): x is number => typeof x === 'number');
  return d.length === 0 ? null : d.reduce((s, x) => s + x, 0) / d.length;
}

describe('residues: all', () => {
  it('is one variant followed by a row per trial, named by residue', () => {
    expect(averaged.run.variants.map((v) => v.name)).toEqual(['ground-truth', 'mod', 'mod/residue=0', 'mod/residue=1', 'mod/residue=2', 'mod/residue=3']);
    const metrics = csv(averaged.dir, 'metrics.csv');
    expect(metrics.map((r) => `${r.variant} ${r['sampling.residue']}`)).toEqual(['ground-truth ', 'mod ', 'mod/residue=0 0', 'mod/residue=1 1', 'mod/residue=2 2', 'mod/residue=3 3']);
  });

  it('gives each trial the measures of a separate run at that residue', () => {
    for (let r = 0; r < M; r++) {
      const trial = averaged.run.variants.find((v) => v.name === `mod/residue=${r}`);
      for (const k of QUALITY) expect([k, trial?.measures[k]]).toEqual([k, separate[r]?.measures[k]]);
      expect(trial?.part_of).toEqual({ variant: 'mod', role: 'trial' });
    }
  });

  it('gives the variant the mean of the separate runs, measure by measure', () => {
    const mean = averaged.run.variants.find((v) => v.name === 'mod');
    for (const k of QUALITY) {
      const expected = meanOf(separate.map((s) => s.measures[k]));
      if (expected === null) expect(mean?.measures[k]).toBeNull();
      else expect(mean?.measures[k]).toBeCloseTo(expected, 12);
    }
    expect(mean?.trials?.runs).toEqual(['mod/residue=0', 'mod/residue=1', 'mod/residue=2', 'mod/residue=3']);
    // the four trials differ: averaging is not a no-op
    expect(new Set(separate.map((s) => s.measures.avg_error)).size).toBeGreaterThan(1);
  });

  it('writes the spread of each measure to trials.csv: population standard deviation, minimum and maximum', () => {
    const rows = csv(averaged.dir, 'trials.csv').filter((r) => r.variant === 'mod');
    const err = rows.find((r) => r.measure === 'avg_error') as Row;
    const xs = separate.map((s) => s.measures.avg_error as number);
    const m = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Number(err.trials)).toBe(M);
    expect(Number(err.mean)).toBeCloseTo(m, 12);
    expect(Number(err.sd)).toBeCloseTo(Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length), 12);
    expect([Number(err.min), Number(err.max)]).toEqual([Math.min(...xs), Math.max(...xs)]);
  });

  it('averages the size groups too', () => {
    const rows = csv(averaged.dir, 'size-groups.csv').filter((r) => r.variant === 'mod');
    expect(rows).toHaveLength(2);
    rows.forEach((row, g) => {
      for (const k of ['res_pairs', 'both_pairs', 'recall_pairs', 'recall_docs']) {
        const expected = meanOf(separateGroups.map((s) => (s[g]?.[k] === '' ? null : Number(s[g]?.[k]))));
        expect(row[k] === '' ? null : Number(row[k])).toBeCloseTo(expected as number, 12);
      }
    });
  });

  it('counts the run’s runtime once: the variant’s is the sum of its trials’, left out of the total', () => {
    const mean = averaged.run.variants.find((v) => v.name === 'mod') as VariantRecord;
    const trials = averaged.run.variants.filter((v) => v.part_of?.variant === 'mod');
    expect(mean.measures.runtime_s).toBeCloseTo(trials.reduce((s, t) => s + (t.measures.runtime_s ?? 0), 0), 9);
    const gt = averaged.run.variants[0] as VariantRecord;
    expect(averaged.run.totals.runtime_s).toBeCloseTo((gt.measures.runtime_s ?? 0) + (mean.measures.runtime_s ?? 0), 9);
  });
});
