import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../../harness/errors.ts';
import { parseQrels, readQrels, relevantDocs, type Qrels } from '../../../harness/trec/qrels.ts';

const repo = new URL('../../../', import.meta.url);
const shared = (name: string) => fileURLToPath(new URL(`../shared/fixtures/trec/${name}`, repo));
const own = (name: string) => fileURLToPath(new URL(`../../fixtures/trec/${name}`, import.meta.url));

const judgments = (q: Qrels) => [...q.values()].reduce((n, m) => n + m.size, 0);
const relevantCount = (q: Qrels) => [...relevantDocs(q).values()].reduce((n, d) => n + d.length, 0);

describe('readQrels on real judgments', () => {
  it('reads the TREC 2004 Terabyte qrels', async () => {
    const q = await readQrels(shared('qrels.terabyte04.701-750.txt'));
    // awk '{print $1}' | sort -u | wc -l → 49 topics; grep -c . → 58077 judgments
    expect(q.size).toBe(49);
    expect(judgments(q)).toBe(58077);
    // awk '$4>0' | wc -l → 10617 relevant (9327 of grade 1, 1290 of grade 2)
    expect(relevantCount(q)).toBe(10617);
    // awk '$1==701 && $4==2' | head -1 → 701 0 GX000-43-8149041 2
    expect(q.get('701')?.get('GX000-43-8149041')).toBe(2);
  });

  it('reads the 5-column TREC 2009 Web prels: topic docno grade method probability', async () => {
    const q = await readQrels(shared('prels.web09.1-50.txt'));
    // awk '{print $1}' | sort -u | wc -l → 50; grep -c . → 13118; awk '$3>0' | wc -l → 4002
    expect(q.size).toBe(50);
    expect(judgments(q)).toBe(13118);
    expect(relevantCount(q)).toBe(4002);
    // line 3: '1 clueweb09-enwp01-75-20596 1 1 1'
    expect(q.get('1')?.get('clueweb09-enwp01-75-20596')).toBe(1);
  });

  it("reads trec_eval's qrels with comment lines, keeping a '#' inside a docno", async () => {
    const plain = await readQrels(shared('trec_eval.qrels.test'));
    const commented = await readQrels(shared('trec_eval.qrels.with-comments.test'));
    // grep -v '^#' with-comments | grep -c . → 3681, as grep -c . trec_eval.qrels.test
    expect(judgments(plain)).toBe(3681);
    expect(judgments(commented)).toBe(3681);
    // diff of the two files without comments: line 5 holds 'CR#93E-1860' for 'CR93E-1860'
    expect(commented.get('301')?.has('CR#93E-1860')).toBe(true);
    expect(plain.get('301')?.has('CR#93E-1860')).toBe(false);
  });
});

describe('readQrels on the project fixtures', () => {
  it('keeps graded and negative grades, and only grade > 0 is relevant', async () => {
    const q = await readQrels(own('graded.qrels'));
    expect([...(q.get('7') ?? [])]).toEqual([
      ['D-1', 2],
      ['D-2', 1],
      ['D-3', 0],
      ['D-4', -2],
    ]);
    expect(relevantDocs(q)).toEqual(
      new Map([
        ['7', ['D-1', 'D-2']],
        ['8', ['D-5']],
      ]),
    );
  });

  it('rejects a line with the wrong number of columns, naming file and line', async () => {
    const file = own('bad-columns.qrels');
    await expect(readQrels(file)).rejects.toThrow(DataError);
    // line 3 is '7 0 D-3' (cat -n bad-columns.qrels)
    await expect(readQrels(file)).rejects.toThrow(`${file}:3: expected 4 columns as in the rest of this qrels file, found 3`);
  });

  it('rejects a grade that is not an integer', async () => {
    const file = own('bad-grade.qrels');
    await expect(readQrels(file)).rejects.toThrow(`${file}:2: grade '1.5' is not an integer`);
  });
});

describe('parseQrels', () => {
  it('rejects a first line that is neither qrels nor prels', () => {
    expect(() => parseQrels('1 2 3\n', 'x')).toThrow('x:1: expected 4 columns (topic iter docno grade) or 5 (topic docno grade method prob), found 3');
  });

  it('rejects the same document judged twice with different grades', () => {
    expect(() => parseQrels('1 0 D 1\n1 0 D 0\n', 'x')).toThrow(/^x:2: D judged again for topic 1/);
  });

  it('rejects a file without judgments', () => {
    expect(() => parseQrels('# nothing\n\n', 'x')).toThrow('x: no judgments in the file');
  });
});
