import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Skip } from '../../../../harness/corpus/types.ts';
import { DataError } from '../../../../harness/errors.ts';
import { runStudies, type StudyInput } from '../../../../harness/evaluate/studies/index.ts';
import { ids, truth } from './pairs.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../../../fixtures/studies/${name}`, import.meta.url));
const evaluate = { threshold: 0.5, distribution: [0.9, 0.5, 0.3] };

function input(studies: StudyInput['studies'], extra: Partial<StudyInput> = {}): StudyInput {
  return { ids, truth, studies, evaluate, ...extra };
}

const csvOf = (tables: Awaited<ReturnType<typeof runStudies>>, file: string) =>
  parse(tables.find((t) => t.file === file)?.csv ?? '') as string[][];

describe('runStudies', () => {
  it('writes no table without studies', async () => {
    expect(await runStudies(input({}))).toEqual([]);
  });

  it('writes the three tables from run files and a folder of runs', async () => {
    const tables = await runStudies(
      input({
        topic_collections: { runs: [fixture('runs')], top: 2 },
        run_topics: { runs: [fixture('hand.run')], n: [3, 2], shares: [0.5, 0.6] },
      }),
    );
    expect(tables.map((t) => t.file)).toEqual(['topic-collections.csv', 'run-topic-shares.csv', 'run-topic-prevalence.csv']);
    for (const t of tables) expect(t.description).not.toBe('');
    // topic collections of runs/ at depth 2, worked by hand in topic-collections.test.ts
    expect(csvOf(tables, 'topic-collections.csv').map((r) => r.slice(0, 4))).toEqual([
      ['topic', 'documents', 'missing', 'rr>=0.9'],
      ['1', '4', '0', '50'],
      ['2', '3', '0', '0'],
      ['3', '0', '1', ''],
      ['average', String(7 / 3), String(1 / 3), '25'],
    ]);
    // hand.run, worked by hand in run-topics.test.ts: topic 1 at n = 2 → 0/2, n = 3 → 2/3;
    // topic 2 → 2/2 and 2/2 (Y missing at n = 3); topic 10 → 0/2 twice.
    expect(csvOf(tables, 'run-topic-shares.csv').slice(1)).toEqual([
      ['hand.run', '1', '2', '2', '0', '0', '0'],
      ['hand.run', '1', '3', '3', '0', '2', String(2 / 3)],
      ['hand.run', '2', '2', '2', '0', '2', '1'],
      ['hand.run', '2', '3', '2', '1', '2', '1'],
      ['hand.run', '10', '2', '2', '0', '0', '0'],
      ['hand.run', '10', '3', '2', '0', '0', '0'],
    ]);
    // n = 2 shares {0, 1, 0}: ≥ .5 and ≥ .6 → 1 of 3; n = 3 shares {2/3, 1, 0}: ≥ .5 and ≥ .6 → 2 of 3
    expect(csvOf(tables, 'run-topic-prevalence.csv')).toEqual([
      ['share_at_least', 'n=2', 'n=3'],
      ['0.5', String(100 / 3), String(200 / 3)],
      ['0.6', String(100 / 3), String(200 / 3)],
    ]);
  });

  it('labels runs by file name and gives the same bytes twice', async () => {
    const studies = { run_topics: { runs: [fixture('runs'), fixture('hand.run')], n: [1], shares: [0.5] } };
    const first = await runStudies(input(studies));
    const second = await runStudies(input(studies));
    expect(second).toEqual(first);
    const runs = new Set(csvOf(first, 'run-topic-shares.csv').slice(1).map((r) => r[0]));
    expect([...runs]).toEqual(['first.run', 'hand.run', 'second.run']);
  });

  it('labels two runs of the same file name by their paths', async () => {
    const clash = [fixture('runs/first.run'), fixture('other/first.run'), fixture('hand.run')];
    const tables = await runStudies(input({ run_topics: { runs: clash, n: [1], shares: [0.5] } }));
    const labels = new Set(csvOf(tables, 'run-topic-shares.csv').slice(1).map((r) => r[0]));
    expect([...labels].sort()).toEqual([fixture('other/first.run'), fixture('runs/first.run'), 'hand.run'].sort());
  });

  it('reads a run named twice once', async () => {
    const once = await runStudies(input({ run_topics: { runs: [fixture('runs')], n: [1], shares: [0.5] } }));
    const twice = await runStudies(input({ run_topics: { runs: [fixture('runs'), fixture('runs/first.run')], n: [1], shares: [0.5] } }));
    expect(twice).toEqual(once);
  });

  it('stops at a bad run line without a read context, naming the file and line', async () => {
    const err = await runStudies(input({ run_topics: { runs: [fixture('bad-score.run')], n: [1], shares: [0.5] } })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as Error).message).toMatch(/bad-score\.run:1: score 'high' is not a number/);
  });

  it('counts a bad run line as a skip when given a context, and uses the rest', async () => {
    const skips: Skip[] = [];
    const tables = await runStudies(
      input({ run_topics: { runs: [fixture('bad-score.run')], n: [1], shares: [0.5] } }, { ctx: { skip: (s) => skips.push(s) } }),
    );
    expect(skips.map((s) => [s.reason, s.offset])).toEqual([['non-numeric-score', 0]]);
    // the second line, D-B, is the whole run: 1 document, no near-duplicate
    expect(csvOf(tables, 'run-topic-shares.csv').slice(1)).toEqual([['bad-score.run', '1', '1', '1', '0', '0', '0']]);
  });

  it('refuses a run file with no run line', async () => {
    const err = await runStudies(input({ topic_collections: { runs: [fixture('empty.run')] } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as Error).message).toMatch(/empty\.run: no run lines/);
  });
});
