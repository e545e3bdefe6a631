import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PairList } from '../../../contract/index.ts';
import { DataError } from '../../../harness/errors.ts';
import { loadPlantedOracle } from '../../../harness/evaluate/planted.ts';

const dir = mkdtempSync(join(tmpdir(), 'planted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const docs = { ids: ['s', 'c1', 'c2', 'x', 'y'], texts: ['', '', '', '', ''] };
const file = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
const pairs = (list: readonly [number, number, number][]): PairList => ({
  a: Uint32Array.from(list.map((p) => p[0])),
  b: Uint32Array.from(list.map((p) => p[1])),
  score: Float64Array.from(list.map((p) => p[2])),
});

// A source s with copies c1 (rate 0.1) and c2 (rate 0.05), and a pair naming a document not in the corpus.
const ORACLE = 'doc_a,doc_b,edit_rate_a,edit_rate_b\ns,c1,0,0.1\ns,c2,0,0.05\nc1,c2,0.1,0.05\ns,gone,0,0.2\n';

describe('the planted pairs of a synthetic corpus', () => {
  it('counts the planted pairs a variant decides, in all and per summed edit rate (by hand)', () => {
    const oracle = loadPlantedOracle(file('o.csv', ORACLE), docs);
    // Reported: (s, c1) at 0.6, (c2, c1) written b-first at 0.3, and (x, y), which is not planted.
    const reported = pairs([[0, 1, 0.6], [2, 1, 0.3], [3, 4, 0.9]]);
    const atHalf = oracle.measure(reported, (i) => (reported.score[i] as number) >= 0.5);
    // Decided at 0.5: (s, c1) only. Rates: s-c1 0.1, s-c2 0.05, c1-c2 0.15.
    expect(atHalf.measures).toEqual({ planted_pairs: 3, planted_recall: 1 / 3 });
    expect(atHalf.byRate).toEqual([
      { rate: 0.05, pairs: 1, found: 0 },
      { rate: 0.1, pairs: 1, found: 1 },
      { rate: 0.15, pairs: 1, found: 0 },
    ]);
    const every = oracle.measure(reported, () => true);
    expect(every.measures).toEqual({ planted_pairs: 3, planted_recall: 2 / 3 });
    expect(every.byRate.map((r) => r.found)).toEqual([0, 1, 1]);
  });

  it('leaves out, and says so, a planted pair whose document the corpus does not have', () => {
    expect(loadPlantedOracle(file('o2.csv', ORACLE), docs).warning).toBe(
      'evaluate.planted: 1 of 4 planted pairs name a document the corpus does not have (a subset or a limit): left out of the planted recall',
    );
  });

  it('refuses another file than oracle-pairs.csv, and a bad line, naming the line', () => {
    expect(() => loadPlantedOracle(file('h.csv', 'a,b\ns,c1\n'), docs)).toThrow(DataError);
    expect(() => loadPlantedOracle(file('h.csv', 'a,b\ns,c1\n'), docs)).toThrow(/line 1: expected the header doc_a,doc_b,edit_rate_a,edit_rate_b/);
    expect(() => loadPlantedOracle(file('r.csv', 'doc_a,doc_b,edit_rate_a,edit_rate_b\ns,c1,0,1.5\n'), docs)).toThrow(/line 2: expected two different document ids and two edit rates in \[0, 1\)/);
  });
});
