import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Skip } from '../../../harness/corpus/types.ts';
import { parseRun, readRun, topN, type Run } from '../../../harness/trec/run.ts';

const repo = new URL('../../../', import.meta.url);
const shared = (name: string) => fileURLToPath(new URL(`../shared/fixtures/${name}`, repo));
const own = (name: string) => fileURLToPath(new URL(`../../fixtures/trec/${name}`, import.meta.url));

async function read(path: string): Promise<{ run: Run; skips: Skip[] }> {
  const skips: Skip[] = [];
  const run = await readRun(path, { skip: (s) => skips.push(s) });
  return { run, skips };
}

const docnos = (run: Run, topic: string) => run.get(topic)?.map((r) => r.docno);

describe('readRun on the anserini tie-breaking runs', () => {
  it('breaks equal scores by docno descending', async () => {
    const { run } = await read(shared('anserini/run_same_scores.txt'));
    // query1: doc1, doc2, doc3 all at 5.0; query2: doc1, doc2 at 10.0
    expect(docnos(run, 'query1')).toEqual(['doc3', 'doc2', 'doc1']);
    expect(docnos(run, 'query2')).toEqual(['doc2', 'doc1']);
  });

  it('orders distinct scores by score, whatever the docnos', async () => {
    const { run } = await read(shared('anserini/run_mixed_scores.txt'));
    // query2: doc1 7.0, doc2 6.0, doc3 5.0
    expect(docnos(run, 'query2')).toEqual(['doc1', 'doc2', 'doc3']);
    expect(docnos(run, 'query1')).toEqual(['doc3', 'doc2', 'doc1']);
  });
});

describe("readRun on trec_eval's own runs", () => {
  it('ignores the unsorted rank column of trec_eval.results.test', async () => {
    const { run, skips } = await read(shared('trec/trec_eval.results.test'));
    // awk '{print $1}' | uniq -c → 500 each for 301, 302, 303
    expect([...run].map(([t, l]) => [t, l.length])).toEqual([
      ['301', 500],
      ['302', 500],
      ['303', 500],
    ]);
    // LC_ALL=C sort -k1,1gr -k2,2r over "score docno" of topic 301: first FBIS4-50478 3.340779,
    // FBIS3-21938, FBIS3-22085; last three FBIS4-47008, FBIS3-27288, FBIS3-20713
    const t301 = docnos(run, '301') ?? [];
    expect(t301.slice(0, 3)).toEqual(['FBIS4-50478', 'FBIS3-21938', 'FBIS3-22085']);
    expect(t301.slice(-3)).toEqual(['FBIS4-47008', 'FBIS3-27288', 'FBIS3-20713']);
    expect(skips).toEqual([]);
  });

  it('puts tied documents in docno-descending order, as the file ranks them', async () => {
    const { run } = await read(shared('trec/trec_eval.results.test'));
    const t301 = docnos(run, '301') ?? [];
    // Lines 173-174: FBIS3-30458 rank 272 and FBIS3-30686 rank 271, both 1.871451
    expect(t301.indexOf('FBIS3-30686')).toBe(t301.indexOf('FBIS3-30458') - 1);
    // Lines 456-457: FBIS4-66291 rank 152 and FBIS4-66307 rank 151, both 2.057615
    expect(t301.indexOf('FBIS4-66307')).toBe(t301.indexOf('FBIS4-66291') - 1);
  });

  it('reads the truncated run, ignoring the junk columns after the sixth', async () => {
    const { run, skips } = await read(shared('trec/trec_eval.results.trunc'));
    // awk '{print $1}' | sort | uniq -c → 500 for 301, 84 for 303, no 302
    expect([...run].map(([t, l]) => [t, l.length])).toEqual([
      ['301', 500],
      ['303', 84],
    ]);
    // LC_ALL=C sort -k1,1gr -k2,2r of topic 303 → FT934-2516 3.768137, FT934-5418 3.747635
    expect(run.get('303')?.slice(0, 2)).toEqual([
      { docno: 'FT934-2516', score: 3.768137 },
      { docno: 'FT934-5418', score: 3.747635 },
    ]);
    expect(skips).toEqual([]);
  });
});

describe('readRun on bad lines', () => {
  it('counts a non-numeric score and a short line as skips with file, line and byte offset', async () => {
    const file = own('non-numeric.run');
    const { run, skips } = await read(file);
    expect(docnos(run, '7')).toEqual(['D-1', 'D-3', 'D-5']);
    // cat -n: line 2 has score 'abc', line 4 has 4 columns; grep -b -n: they start at bytes 19 and 57
    expect(skips.map((s) => [s.reason, s.offset, s.detail])).toEqual([
      ['non-numeric-score', 19, `${file}:2: score 'abc' is not a number`],
      ['malformed-run-line', 57, `${file}:4: expected 6 columns (topic Q0 docno rank score tag), found 4`],
    ]);
  });

  it('keeps the first line of a docno repeated within a topic and counts the repeat', () => {
    const skips: Skip[] = [];
    const run = parseRun('1 Q0 A 1 1.0 t\n1 Q0 A 2 2.0 t\n', 'r', { skip: (s) => skips.push(s) });
    expect(run.get('1')).toEqual([{ docno: 'A', score: 1 }]);
    expect(skips.map((s) => s.reason)).toEqual(['duplicate-run-doc']);
  });

  it('compares tied docnos by bytes, as strcmp does', () => {
    // 'Z' (0x5a) < 'a' (0x61) in bytes; descending puts 'a…' first
    const run = parseRun('1 Q0 Zeta 1 1 t\n1 Q0 alpha 2 1 t\n', 'r', { skip: () => undefined });
    expect(docnos(run, '1')).toEqual(['alpha', 'Zeta']);
  });
});

describe('topN', () => {
  it('takes the first n of each topic in trec_eval order', async () => {
    const { run } = await read(shared('anserini/run.cacm-bm25.txt'));
    const top = topN(run, 3);
    // awk '{print $1}' | sort -u | wc -l → 64 topics
    expect(top.size).toBe(64);
    // awk '$1==1{print $5, $3}' | sort -k1,1gr -k2,2r | head -3
    expect(top.get('1')).toEqual(['CACM-1938', 'CACM-2036', 'CACM-1410']);
  });

  it('gives the whole list of a topic shorter than n', async () => {
    const { run } = await read(shared('anserini/run_same_scores.txt'));
    expect(topN(run, 10).get('query2')).toEqual(['doc2', 'doc1']);
  });
});
