import { describe, expect, it } from 'vitest';
import { InputFileError } from '../../../contract/index.ts';
import { csvFields } from '../../../algorithms/external/csv-line.ts';
import { OutputCollector, type OutputOptions } from '../../../algorithms/external/read-output.ts';

const ids = ['a', 'b', 'c', 'd', 'e,1'];

function collect(lines: readonly string[], over: Partial<OutputOptions> = {}): ReturnType<OutputCollector['result']> {
  const c = new OutputCollector({ ids, format: 'pairs', scored: true, strict: false, where: 'out.csv', ...over });
  lines.forEach((l, i) => c.line(l, i + 1));
  return c.result();
}

const asTriples = (r: ReturnType<typeof collect>): [number, number, number][] => [...r.pairs.a].map((a, i) => [a, r.pairs.b[i] as number, r.pairs.score[i] as number]);

describe('csvFields', () => {
  it('splits on commas and reads quoted fields with commas and doubled quotes', () => {
    expect(csvFields('a,b,0.5')).toEqual(['a', 'b', '0.5']);
    expect(csvFields('"e,1","say ""hi""",1')).toEqual(['e,1', 'say "hi"', '1']);
    expect(csvFields('"open,b')).toBeUndefined();
    expect(csvFields('a"b,c')).toBeUndefined();
  });
});

describe('an external detector\'s pairs', () => {
  it('reads pairs by id in either order, a header skipped, a repeated pair kept once at its higher score', () => {
    const r = collect(['doc_a,doc_b,score', 'b,a,0.25', 'c,"e,1",1', 'a,b,0.75']);
    expect(asTriples(r)).toEqual([
      [0, 1, 0.75],
      [2, 4, 1],
    ]);
    expect(r.counters).toEqual({ lines_read: 3, lines_skipped_malformed: 0, lines_skipped_unknown_id: 0, pairs_repeated: 1, output_pairs: 2 });
    expect(r.warnings).toEqual([]);
  });

  it('counts malformed and unknown-id lines as skips, each named by its line', () => {
    const r = collect(['a,b', 'a,zz,0.5', 'a,a,1', 'a,c,1.5', 'a,c,x', 'c,d,0.5', '"a,b,1']);
    expect(asTriples(r)).toEqual([[2, 3, 0.5]]);
    expect(r.counters.lines_skipped_malformed).toBe(5);
    expect(r.counters.lines_skipped_unknown_id).toBe(1);
    expect(r.warnings.map((w) => w.split(':').slice(0, 2).join(':'))).toEqual(['out.csv:1', 'out.csv:2', 'out.csv:3', 'out.csv:4', 'out.csv:5', 'out.csv:7']);
    expect(r.warnings[1]).toContain('a document id not in the corpus: "zz"');
  });

  it('makes a skip an error under strict', () => {
    expect(() => collect(['a,b,0.5', 'a,zz,0.5'], { strict: true })).toThrow(InputFileError);
    expect(() => collect(['a,b,0.5', 'a,zz,0.5'], { strict: true })).toThrow(/^out\.csv:2: a document id not in the corpus: "zz" \(strict mode\)$/);
  });

  it('gives unscored pairs the score 1 and says when nothing was written', () => {
    expect(asTriples(collect(['a,b', 'c,d,0.3'], { scored: false }))).toEqual([
      [0, 1, 1],
      [2, 3, 1],
    ]);
    expect(collect([]).warnings).toEqual(['out.csv: the command wrote no pairs']);
  });

  it('turns clusters into every pair inside each and the clusters table', () => {
    const r = collect(['doc,cluster', 'c,x', 'a,x', 'd,y', 'b,z', '"e,1",x', 'a,y'], { format: 'clusters' });
    // x = {a, c, e,1}: three pairs; y = {d} (a's second cluster is skipped); z = {b}.
    expect(asTriples(r)).toEqual([
      [0, 2, 1],
      [0, 4, 1],
      [2, 4, 1],
    ]);
    expect(r.clusters).toEqual([
      ['0', '0 3'],
      ['2', '0 3'],
      ['4', '0 3'],
    ]);
    expect(r.counters.lines_skipped_malformed).toBe(1);
    expect(r.warnings[0]).toContain('out.csv:7: a document listed in two clusters');
  });
});
