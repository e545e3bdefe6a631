/**
 * configs/cacm-runs.yaml end to end on the real CACM collection, qrels-free BM25 run and all
 * (../shared/fixtures/anserini): the TREC study tables it writes, with the topic-collection
 * average recomputed here from the run file and the ground-truth pairs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../harness/experiment/runner.ts';
import { runOptions } from '../support/run-options.ts';

const CONFIG = fileURLToPath(new URL('../../configs/cacm-runs.yaml', import.meta.url));
const CACM_DIR = fileURLToPath(new URL('../../../shared/fixtures/anserini', import.meta.url));
const RUN = join(CACM_DIR, 'run.cacm-bm25.txt');
let out: string;
let dir: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'cacm-'));
  const r = await runExperiment(runOptions(CONFIG, out, { env: { CACM_DIR } }));
  if (r.kind !== 'completed') throw new Error('not completed');
  dir = r.dir;
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

const csv = (f: string): string[][] => readFileSync(join(dir, f), 'utf8').trim().split('\n').map((l) => l.split(','));

describe('configs/cacm-runs.yaml', () => {
  it('reads the 3,204 CACM documents and writes the three study tables', () => {
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    expect(run.corpus.documents).toBe(3204);
    expect(Object.keys(run.tables).sort()).toEqual(['run-topic-prevalence.csv', 'run-topic-shares.csv', 'size-groups.csv', 'topic-collections.csv']);
    // 64 topics × 6 values of n, plus the header
    expect(csv('run-topic-shares.csv')).toHaveLength(64 * 6 + 1);
  });

  it('averages, over topics, the share of each topic collection with a near-duplicate inside it', () => {
    // independent: topic → its documents from the run file; pairs from the ground-truth file
    const topics = new Map<string, Set<string>>();
    for (const line of readFileSync(RUN, 'utf8').trim().split('\n')) {
      const [topic, , doc] = line.split(/\s+/) as [string, string, string];
      if (!topics.has(topic)) topics.set(topic, new Set());
      topics.get(topic)?.add(doc);
    }
    const pairs = gunzipSync(readFileSync(join(dir, 'pairs', 'ground-truth.csv.gz')))
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',') as [string, string, string]);
    const pct = (t: number): number => {
      let sum = 0;
      for (const docs of topics.values()) {
        const withDup = new Set<string>();
        for (const [a, b, s] of pairs) if (Number(s) >= t && docs.has(a) && docs.has(b)) withDup.add(a).add(b);
        sum += (100 * withDup.size) / docs.size;
      }
      return sum / topics.size;
    };
    const rows = csv('topic-collections.csv');
    const header = rows[0] as string[];
    const average = rows.find((r) => r[0] === 'average') as string[];
    for (const t of [0.5, 0.3, 0.2, 0.1]) {
      expect(Number(average[header.indexOf(`rr>=${t}`)])).toBeCloseTo(pct(t), 10);
    }
    expect(pct(0.1)).toBeGreaterThan(0);
  });

  it('finds no run-topic with a near-duplicate at RR >= 0.5, as no CACM pair reaches it', () => {
    const best = Math.max(
      ...gunzipSync(readFileSync(join(dir, 'pairs', 'ground-truth.csv.gz'))).toString('utf8').trim().split('\n').slice(1).map((l) => Number(l.split(',')[2])),
    );
    expect(best).toBeLessThan(0.5);
    for (const row of csv('run-topic-prevalence.csv').slice(1)) expect(row.slice(1).every((c) => c === '0')).toBe(true);
  });
});
