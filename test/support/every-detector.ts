/**
 * One config with every detector (Broder with each sampling, simhash, I-Match, PPJoin, PDC-MR
 * with each signature, document-level SpotSigs, MinHash-LSH) on a slice of the bundled corpus
 * (40 SpamAssassin mails with 12 planted runs of copied sentences, so that every detector finds
 * pairs and PDC-MR finds spans), and what a test compares between two runs of it: every pairs
 * and spans file byte for byte, metrics.csv without its timings, every variant's counters.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { newCorpusStats, readCorpus } from '../../harness/corpus/read.ts';
import { oracleCsv } from '../../harness/evaluate/oracle-file.ts';
import type { RunRecord } from '../../harness/results/types.ts';
import { VARYING_COLUMNS } from '../../harness/results/measures.ts';
import { synthPartial } from '../../harness/synth/partial.ts';

export const EVERY_DETECTOR_RUNS = `runs:
  - { algorithm: broder, name: mod, params: { shingle: { unit: char, size: 16 }, sampling: { method: mod, m: 2 } } }
  - { algorithm: broder, name: sct, params: { shingle: { unit: char, size: 16 }, sampling: { method: sct, threshold: 3 } } }
  - algorithm: broder
    name: adaptive
    params: { shingle: { unit: char, size: 16 }, sampling: { method: adaptive, groups: [{ max_size: 300, m: 2 }, { max_size: null, m: 4 }] } }
  - { algorithm: simhash, name: simhash, params: { k: 3 } }
  - { algorithm: imatch, name: imatch, params: { extra_lexicons: 2 } }
  - { algorithm: ppjoin, name: ppjoin, params: { threshold: 0.3 } }
  - { algorithm: minhash, name: minhash, params: { permutations: 32, threshold: 0.3 } }
  - { algorithm: pdc-mr, name: pdc-shingles, params: { signature: { method: shingles, n: 3 }, tau: 0.8, gamma: 2 } }
  - { algorithm: pdc-mr, name: pdc-imatch, params: { signature: { method: imatch }, gamma: 2 } }
  - { algorithm: pdc-mr, name: pdc-spotsigs, params: { signature: { method: spotsigs, antecedents: 20 }, tau: 0.5, gamma: 1 } }
  - { algorithm: spotsigs, name: spotsigs, params: { antecedents: 5, tau: 0.2 } }
`;

/**
 * One variant a set of jobs (for `only`): PDC-MR with I-Match signatures runs every PDC-MR job,
 * the document-frequency side job included; the shingle and SpotSigs signatures run the same jobs
 * with another mapper.
 */
export const ONE_VARIANT_PER_JOB_SET = ['ground-truth', 'mod', 'sct', 'adaptive', 'simhash', 'imatch', 'ppjoin', 'minhash', 'pdc-imatch', 'spotsigs'];

/**
 * Writes the slice and its oracle into `root/data` (once) and a config `name` into `root` with
 * `backends` (YAML lines `- {…}`); returns the config's path.
 */
export async function writeEveryDetectorConfig(root: string, backends: readonly string[], name = 'every.yaml'): Promise<string> {
  if (!existsSync(join(root, 'data', 'oracle.csv'))) await writeSlice(root);
  const config = join(root, name);
  writeFileSync(
    config,
    `experiment: every
corpus: { format: jsonl, path: data/corpus.jsonl }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
${EVERY_DETECTOR_RUNS}evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.5, 0.1], oracle: data/oracle.csv }
backend: { kind: local, workers: 2 }
${backends.length > 0 ? `backends:\n${backends.map((b) => `  ${b}`).join('\n')}\n` : ''}`,
  );
  return config;
}

async function writeSlice(root: string): Promise<void> {
  const corpus: { id: string; text: string }[] = [];
  for await (const d of readCorpus({ format: 'spamassassin', options: { groups: ['hard-ham-1'] } }, newCorpusStats())) corpus.push(d);
  const s = synthPartial(corpus.slice(0, 120), { plants: 12, documents: 40, minRun: 3, maxRun: 6, editRate: 0.2, minWords: 3, seed: 3 });
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'data', 'corpus.jsonl'), s.docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  writeFileSync(join(root, 'data', 'oracle.csv'), oracleCsv(s.oracle));
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
      .sort();
  } catch {
    return [];
  }
}

function withoutTimings(csv: string): string {
  const rows = csv.trim().split('\n').map((r) => r.split(','));
  const keep = (rows[0] as string[]).map((c) => !VARYING_COLUMNS.includes(c));
  return rows.map((r) => r.filter((_, i) => keep[i]).join(',')).join('\n');
}

/** Asserts that run `dir` wrote what run `reference` wrote: pairs, spans, metrics (timings aside), counters. */
export function expectSameResults(dir: string, reference: string, label: string): void {
  expectSamePairs(dir, reference, label);
  const metrics = (d: string) => withoutTimings(readFileSync(join(d, 'metrics.csv'), 'utf8'));
  expect(metrics(dir), `${label}: metrics.csv`).toBe(metrics(reference));
  const counters = (d: string) =>
    (JSON.parse(readFileSync(join(d, 'run.json'), 'utf8')) as RunRecord).variants.map((v) => ({ variant: v.name, counters: v.counters }));
  expect(counters(dir), `${label}: counters`).toEqual(counters(reference));
}

/** Asserts that run `dir` wrote the pairs and spans files run `reference` wrote, byte for byte. */
export function expectSamePairs(dir: string, reference: string, label: string): void {
  for (const folder of ['pairs', 'spans']) {
    const want = filesUnder(join(reference, folder));
    expect(filesUnder(join(dir, folder)), `${label}: ${folder}/`).toEqual(want);
    for (const f of want) {
      const same = readFileSync(join(dir, folder, f)).equals(readFileSync(join(reference, folder, f)));
      expect(same, `${label}: ${folder}/${f}`).toBe(true);
    }
  }
}
