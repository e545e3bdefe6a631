/**
 * The studies on a real TREC run: Anserini's BM25 run over CACM (64 topics, 30 documents a
 * topic, no score ties), with a planted ground truth. Expected values from grep of
 * ../shared/fixtures/anserini/run.cacm-bm25.txt:
 *   topic 1 in score order: CACM-1938 (1), CACM-2036 (2), CACM-1410 (3), …, CACM-1605 (10), CACM-2054 (11)
 *   CACM-1410 is retrieved for topics 1 and 24 only (rank 3 in both); no other topic holds
 *   both documents of a planted pair.
 */
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runStudies } from '../../../../harness/evaluate/studies/index.ts';
import { pairList } from './pairs.ts';

const run = fileURLToPath(new URL('../../../../../shared/fixtures/anserini/run.cacm-bm25.txt', import.meta.url));

// CACM-0001 … CACM-3204 (`tar tzf cacm.tar.gz` lists 3,204 files), without CACM-1410.
const ids = Array.from({ length: 3204 }, (_, i) => `CACM-${String(i + 1).padStart(4, '0')}`).filter((id) => id !== 'CACM-1410');
const at = (id: string) => ids.indexOf(id);
const pair = (x: string, y: string, s: number): [number, number, number] => [Math.min(at(x), at(y)), Math.max(at(x), at(y)), s];
const truth = pairList([pair('CACM-1938', 'CACM-1605', 0.7), pair('CACM-2036', 'CACM-2054', 0.5)]);

async function tables() {
  const studies = {
    topic_collections: { runs: [run] },
    run_topics: { runs: [run], n: [10, 20, 50, 100, 200, 500], shares: [0.05, 0.1, 0.15, 0.2, 0.25] },
  };
  const out = await runStudies({ ids, truth, studies, evaluate: { threshold: 0.5, distribution: [0.7, 0.5] } });
  return new Map(out.map((t) => [t.file, parse(t.csv) as string[][]]));
}

describe('studies on the real CACM BM25 run', () => {
  it('run-topic shares: the planted pairs in topic 1, CACM-1410 missing', async () => {
    const rows = (await tables()).get('run-topic-shares.csv') ?? [];
    expect(rows).toHaveLength(1 + 64 * 6);
    const topic1 = rows.filter((r) => r[1] === '1').map((r) => r.slice(2));
    expect(topic1).toEqual([
      // top 10: 1938 and 1605 (ranks 1 and 10); 2054 is rank 11; 1410 missing → 2 of 9
      ['10', '9', '1', '2', String(2 / 9)],
      // top 20: both pairs → 4 of 19
      ['20', '19', '1', '4', String(4 / 19)],
      // the run has 30 documents for topic 1: n ≥ 50 sees all 29 of the corpus
      ['50', '29', '1', '4', String(4 / 29)],
      ['100', '29', '1', '4', String(4 / 29)],
      ['200', '29', '1', '4', String(4 / 29)],
      ['500', '29', '1', '4', String(4 / 29)],
    ]);
    expect(rows.find((r) => r[1] === '24' && r[2] === '10')?.slice(3)).toEqual(['9', '1', '0', '0']);
  });

  it('prevalence: one run-topic of 64 above the lower shares', async () => {
    const rows = (await tables()).get('run-topic-prevalence.csv') ?? [];
    const one = String(100 / 64);
    // topic 1's shares: n=10 .222, n=20 .211, n≥50 .138; every other topic 0
    expect(rows).toEqual([
      ['share_at_least', 'n=10', 'n=20', 'n=50', 'n=100', 'n=200', 'n=500'],
      ['0.05', one, one, one, one, one, one],
      ['0.1', one, one, one, one, one, one],
      ['0.15', one, one, '0', '0', '0', '0'],
      ['0.2', one, one, '0', '0', '0', '0'],
      ['0.25', '0', '0', '0', '0', '0', '0'],
    ]);
  });

  it('topic collections: topic 1 holds both pairs, topic 24 lacks CACM-1410', async () => {
    const rows = (await tables()).get('topic-collections.csv') ?? [];
    expect(rows).toHaveLength(1 + 64 + 1);
    // topic 1: 29 documents; RR ≥ .7: 1938, 1605; RR ≥ .5: all four
    expect(rows.find((r) => r[0] === '1')).toEqual(['1', '29', '1', String((100 * 2) / 29), String((100 * 4) / 29)]);
    expect(rows.find((r) => r[0] === '24')).toEqual(['24', '29', '1', '0', '0']);
    expect(rows.at(-1)?.[0]).toBe('average');
  });
});
