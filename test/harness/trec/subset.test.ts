import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataError } from '../../../harness/errors.ts';
import { buildSubset, runFiles } from '../../../harness/trec/subset.ts';
import type { Skip } from '../../../harness/corpus/types.ts';

const repo = new URL('../../../', import.meta.url);
const shared = (name: string) => fileURLToPath(new URL(`../shared/fixtures/${name}`, repo));
const own = (name: string) => fileURLToPath(new URL(`../../fixtures/trec/${name}`, import.meta.url));

describe('buildSubset from qrels', () => {
  it('takes the relevant GOV2 documents of TB04', async () => {
    const s = await buildSubset({ qrels: shared('trec/qrels.terabyte04.701-750.txt'), relevant_only: true });
    // awk '$4>0{print $3}' | sort -u | wc -l → 10592 (10617 relevant judgments, some docs relevant to 2 topics)
    expect(s.ids.size).toBe(10592);
    // awk '$4>0{print $1}' | sort -u | wc -l → 49
    expect(s.byTopic.size).toBe(49);
    // awk '$1==701 && $4>0' | wc -l → 164, the first being GX000-25-2008761
    expect(s.byTopic.get('701')).toHaveLength(164);
    expect(s.byTopic.get('701')?.[0]).toBe('GX000-25-2008761');
  });

  it('takes every judged document when relevant_only is false', async () => {
    const s = await buildSubset({ qrels: own('graded.qrels'), relevant_only: false });
    // graded.qrels judges D-1…D-4 for topic 7 and D-1, D-5 for topic 8
    expect([...s.ids].sort()).toEqual(['D-1', 'D-2', 'D-3', 'D-4', 'D-5']);
    expect(s.byTopic.get('8')).toEqual(['D-1', 'D-5']);
  });

  it('leaves out grade 0 and negative grades', async () => {
    const s = await buildSubset({ qrels: own('graded.qrels'), relevant_only: true });
    expect([...s.ids].sort()).toEqual(['D-1', 'D-2', 'D-5']);
  });
});

describe('buildSubset from runs', () => {
  it('unites the top n of each run-topic over topics', async () => {
    const s = await buildSubset({ runs: [shared('anserini/run.cacm-bm25.txt')], top: 10 });
    // awk '{print $1,$5,$3}' | LC_ALL=C sort -k1,1 -k2,2gr -k3,3r | awk '{n[$1]++} n[$1]<=10 {print $3}'
    //   | sort -u | wc -l → 435 distinct documents (640 run-topic entries)
    expect(s.ids.size).toBe(435);
    expect([...s.byTopic.values()].reduce((n, d) => n + d.length, 0)).toBe(640);
  });

  it('unites over run files, each topic listing a document once', async () => {
    const s = await buildSubset({ runs: [shared('anserini/run_same_scores.txt'), shared('anserini/run_mixed_scores.txt')], top: 1 });
    // top 1 by hand: same-scores query1 → doc3, query2 → doc2 (tie at 10.0, docno descending);
    // mixed-scores query1 → doc3, query2 → doc1 (7.0)
    expect(s.byTopic).toEqual(
      new Map([
        ['query1', ['doc3']],
        ['query2', ['doc2', 'doc1']],
      ]),
    );
    expect([...s.ids].sort()).toEqual(['doc1', 'doc2', 'doc3']);
  });

  it('reports bad run lines through the context', async () => {
    const skips: Skip[] = [];
    const s = await buildSubset({ runs: [own('non-numeric.run')], top: 2 }, { skip: (k) => skips.push(k) });
    expect(s.byTopic.get('7')).toEqual(['D-1', 'D-3']);
    expect(skips.map((k) => k.reason)).toEqual(['non-numeric-score', 'malformed-run-line']);
  });

  it('without a context, a bad run line is an error', async () => {
    await expect(buildSubset({ runs: [own('non-numeric.run')], top: 2 })).rejects.toThrow(DataError);
  });

  it('rejects a top that is not a positive integer', async () => {
    await expect(buildSubset({ runs: [shared('anserini/run_same_scores.txt')], top: 0 })).rejects.toThrow('subset.top: 0 is not a positive integer');
  });
});

describe('buildSubset from a folder of runs', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'subset-runs-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  /** A runs folder as TREC ships one: a file a run, here in a nested folder too. */
  function runsFolder(name: string, files: Record<string, string>): string {
    const dir = join(tmp, name);
    for (const [file, from] of Object.entries(files)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      copyFileSync(from, join(dir, file));
    }
    return dir;
  }

  it('reads every run file under the folder, in byte order of their paths', async () => {
    const dir = runsFolder('two', {
      'run_same_scores.txt': shared('anserini/run_same_scores.txt'),
      'more/run_mixed_scores.txt': shared('anserini/run_mixed_scores.txt'),
    });
    const s = await buildSubset({ runs: [dir], top: 1 });
    // 'more/…' sorts before 'run_…', so mixed-scores comes first: query2 → doc1 (7.0), then
    // same-scores query2 → doc2 (tie at 10.0, docno descending); query1 → doc3 in both
    expect(s.byTopic).toEqual(
      new Map([
        ['query1', ['doc3']],
        ['query2', ['doc1', 'doc2']],
      ]),
    );
  });

  it('reads a run named twice (as a file and inside a folder) once', async () => {
    const dir = runsFolder('one', { 'non-numeric.run': own('non-numeric.run') });
    const skips: Skip[] = [];
    await buildSubset({ runs: [dir, join(dir, 'non-numeric.run')], top: 2 }, { skip: (k) => skips.push(k) });
    // non-numeric.run has one non-numeric score and one short line: two skips, not four
    expect(skips.map((k) => k.reason)).toEqual(['non-numeric-score', 'malformed-run-line']);
  });

  it('refuses a file in the folder that holds no run line', async () => {
    const dir = runsFolder('stray', { 'run_same_scores.txt': shared('anserini/run_same_scores.txt') });
    writeFileSync(join(dir, 'empty.txt'), '\n');
    await expect(buildSubset({ runs: [dir], top: 1 })).rejects.toThrow(`${join(dir, 'empty.txt')}: no run lines (topic Q0 docno rank score tag) in this file`);
  });

  it('lists the files of the entries, leaving a file as it is', async () => {
    const dir = runsFolder('list', { 'b.run': own('non-numeric.run'), 'a/c.run': own('non-numeric.run') });
    const file = shared('anserini/run.cacm-bm25.txt');
    expect(await runFiles([file, dir])).toEqual([file, join(dir, 'a/c.run'), join(dir, 'b.run')]);
  });

  it('takes the CACM run the same from its folder as from the file', async () => {
    const dir = runsFolder('cacm', { 'run.cacm-bm25.txt': shared('anserini/run.cacm-bm25.txt') });
    const s = await buildSubset({ runs: [dir], top: 10 });
    // the same 435 documents as from the file itself (see above)
    expect(s.ids.size).toBe(435);
  });
});
