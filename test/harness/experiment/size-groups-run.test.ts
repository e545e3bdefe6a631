/**
 * Size groups through `bench run`, on nine documents whose words, groups and pairs are known:
 * the ground truth is Broder on single-word shingles, so a pair's RR is the Jaccard of its word
 * sets, worked by hand below; the run is the test detector of exact duplicates (decisions only),
 * so its near-duplicates are the identical texts. Expected size-groups.csv and thresholds.csv
 * values are worked out here by hand from those definitions.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { runFigures } from '../../../harness/report/run-figures.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { TEST_DETECTORS } from '../../contract/detectors/catalog.ts';
import { runOptions } from '../../support/run-options.ts';

// Groups 0–3, 4–7 and 8+ words.
//   d0 "a b c"     3 g0     d3 "e f g h i"  5 g1     d6 "k l m n o p q r"    8 g2
//   d1 "a b c"     3 g0     d4 "e f g h j"  5 g1     d7 "k l m n o p q r s"  9 g2
//   d2 "a b d"     3 g0     d5 "e f g h i"  5 g1     d8 "e f g h i k l m n"  9 g2
// Ground truth (Jaccard of word sets) at 0.5 and up, each pair in its smaller document's group:
//   01 1, 02 .5, 12 .5 (g0);  34 4/6, 35 1, 45 4/6 (g1);  38 5/9, 58 5/9 (g1: d3, d5 have 5 words);  67 8/9 (g2)
// and below 0.5: 48 4/10, 68 4/13, 78 4/14.
// The run (exact duplicates): 01 (g0) and 35 (g1).
const TEXTS = ['a b c', 'a b c', 'a b d', 'e f g h i', 'e f g h j', 'e f g h i', 'k l m n o p q r', 'k l m n o p q r s', 'e f g h i k l m n'];

let root: string;
let dir: string;
let run: RunRecord;
type Row = Record<string, string>;
const rowsOf = (file: string): Row[] => parse(readFileSync(join(dir, file), 'utf8'), { columns: true }) as Row[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'size-groups-'));
  const corpus = join(root, 'docs.jsonl');
  writeFileSync(corpus, TEXTS.map((text, i) => JSON.stringify({ id: `d${i}`, text })).join('\n') + '\n');
  const config = join(root, 'groups.yaml');
  writeFileSync(
    config,
    `experiment: groups
corpus: { format: jsonl, path: ${corpus} }
ground_truth: { algorithm: broder, params: { shingle: { unit: word, size: 1 } } }
runs:
  - algorithm: exact-duplicates
evaluate:
  threshold: 0.5
  thresholds: [0.6, 0.9]
  min_score: 0.1
  size_groups: [{ min_words: 0, max_words: 3 }, { min_words: 4, max_words: 7 }, { min_words: 8 }]
backend: { kind: local, workers: 1 }
`,
  );
  const r = await runExperiment(runOptions(config, join(root, 'results'), { detectors: TEST_DETECTORS }));
  if (r.kind !== 'completed') throw new Error('expected a completed run');
  dir = r.dir;
  run = r.record;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const pick = (r: Row | undefined): string[] => ['docs', 'dup_pairs', 'res_pairs', 'both_pairs', 'precision_pairs', 'recall_pairs', 'dup_docs', 'res_docs', 'both_docs', 'precision_docs', 'recall_docs'].map((k) => r?.[k] ?? '?');

describe('size-groups.csv of a run', () => {
  it('has one row a variant × group, the ground truth first', () => {
    const rows = rowsOf('size-groups.csv');
    expect(rows.map((r) => `${r.variant} ${r.group} ${r.words} ${r.threshold}`)).toEqual([
      'ground-truth 0 0-3 0.5',
      'ground-truth 1 4-7 0.5',
      'ground-truth 2 8+ 0.5',
      'exact-duplicates 0 0-3 0.5',
      'exact-duplicates 1 4-7 0.5',
      'exact-duplicates 2 8+ 0.5',
    ]);
  });

  it('gives the run’s per-group precision and recall as worked by hand', () => {
    const rows = rowsOf('size-groups.csv').filter((r) => r.variant === 'exact-duplicates');
    // g0: Dup {01, 02, 12}, Res {01} → P 1, R 1/3; documents {0,1,2}: Dup all three, Res {0,1}
    expect(pick(rows[0])).toEqual(['3', '3', '1', '1', '1', String(1 / 3), '3', '2', '2', '1', String(2 / 3)]);
    // g1: Dup {34, 35, 45, 38, 58}, Res {35} → P 1, R 1/5; documents {3,4,5}: Dup all, Res {3,5}
    expect(pick(rows[1])).toEqual(['3', '5', '1', '1', '1', '0.2', '3', '2', '2', '1', String(2 / 3)]);
    // g2: Dup {67}, Res none → P empty, R 0; documents {6,7,8} all in Dup (d8 through 38), none in Res
    expect(pick(rows[2])).toEqual(['3', '1', '0', '0', '', '0', '3', '0', '0', '', '0']);
  });

  it('gives the ground truth precision and recall 1 in every group', () => {
    for (const r of rowsOf('size-groups.csv').filter((x) => x.variant === 'ground-truth')) {
      expect([r.precision_pairs, r.recall_pairs, r.precision_docs, r.recall_docs]).toEqual(['1', '1', '1', '1']);
    }
  });

  it('agrees with metrics.csv over the whole collection', () => {
    const m = run.variants.find((v) => v.name === 'exact-duplicates');
    // Dup = 9 pairs, Res = {01, 35}: P 1, R 2/9; documents Dup 0..8, Res {0,1,3,5}: R 4/9
    expect([m?.measures.precision_pairs, m?.measures.recall_pairs, m?.measures.recall_docs]).toEqual([1, 2 / 9, 4 / 9]);
    expect(run.tables['size-groups.csv']).toMatch(/smaller document/);
  });
});

describe('thresholds from one run’s scores', () => {
  it('writes thresholds.csv: at 0.6 Dup = {01, 34, 35, 45, 67}, at 0.9 Dup = {01, 35}', () => {
    const rows = rowsOf('thresholds.csv').filter((r) => r.variant === 'exact-duplicates');
    expect(rows.map((r) => [r.threshold, r.dup_pairs, r.res_pairs, r.both_pairs, r.precision_pairs, r.recall_pairs])).toEqual([
      ['0.6', '5', '2', '2', '1', '0.4'],
      ['0.9', '2', '2', '2', '1', '1'],
    ]);
  });

  it('writes size-group-thresholds.csv: one row a variant × group × threshold', () => {
    const rows = rowsOf('size-group-thresholds.csv').filter((r) => r.variant === 'exact-duplicates');
    // at 0.6: g0 Dup {01}, g1 Dup {34, 35, 45}, g2 Dup {67}
    expect(rows.map((r) => `${r.group}@${r.threshold} ${r.dup_pairs} ${r.both_pairs} ${r.recall_pairs}`)).toEqual([
      '0@0.6 1 1 1',
      '0@0.9 1 1 1',
      `1@0.6 3 1 ${1 / 3}`,
      '1@0.9 1 1 1',
      '2@0.6 1 0 0',
      '2@0.9 0 0 ',
    ]);
  });
});

describe('the report by document size', () => {
  it('draws per-group precision and recall, and each variant against the threshold (Figures 2 and 3)', () => {
    const section = runFigures(run, []).find((s) => s.id === 'size-groups');
    expect(section?.charts.map((c) => c.title)).toEqual([
      'Precision (pairs) per document-size group at RR ≥ 0.5',
      'Recall (pairs) per document-size group at RR ≥ 0.5',
      'exact-duplicates: precision against the similarity threshold per size group (Figure 2)',
      'exact-duplicates: recall against the similarity threshold per size group (Figure 3)',
    ]);
    const recall = section?.charts[3];
    if (recall?.type !== 'xy') throw new Error('expected an xy chart');
    // recall per group at 0.6 and 0.9, as in size-group-thresholds.csv; g2 has no Dup at 0.9
    expect(recall.series.map((s) => (s.kind === 'points' ? [s.label, s.points.map((p) => [p.x, p.y])] : []))).toEqual([
      ['0-3 words', [[0.6, 1], [0.9, 1]]],
      ['4-7 words', [[0.6, 1 / 3], [0.9, 1]]],
      ['8+ words', [[0.6, 0]]],
    ]);
  });
});
