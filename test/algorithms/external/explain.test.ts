import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/external/index.ts';
import { docSet } from '../../support/corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'external-explain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const docs = docSet(['w x', 'w y', 'w z', 'v']);
const evidence = (params: object, a: number, b: number) => adapter.explain!.evidence(adapter.params.parse(params), { docs, a, b, seed: 1, width: 98 });

describe('the external detector’s evidence', () => {
  it('gives the line of a pairs file that names the pair, in either order, with its line number', async () => {
    const file = join(dir, 'pairs.csv');
    writeFileSync(file, 'doc_a,doc_b,score\nd2,d3,0.4\nd1,d0,0.7\n');
    const e = await evidence({ file, score: 'resemblance', score_floor: 0.1, decisions: 'score-at-threshold' }, 0, 1);
    expect(e.summary).toBe('pairs.csv line 3 names the pair');
    expect(e.data).toEqual({ file, format: 'pairs', lines: [{ line: 3, text: 'd1,d0,0.7' }] });
    expect(e.lines).toEqual(['pairs.csv line 3: d1,d0,0.7']);
    const none = await evidence({ file, score: 'resemblance', score_floor: 0.1, decisions: 'score-at-threshold' }, 0, 3);
    expect([none.summary, none.lines]).toEqual(['no line of pairs.csv names the pair', []]);
  });

  it('reads a gzipped file as its text', async () => {
    const file = join(dir, 'pairs.csv.gz');
    writeFileSync(file, gzipSync('d0,d1\nd0,d2\n'));
    expect((await evidence({ file }, 0, 2)).lines).toEqual(['pairs.csv.gz line 2: d0,d2']);
  });

  it('gives each document’s cluster line, and whether the clusters are one', async () => {
    const file = join(dir, 'clusters.csv');
    writeFileSync(file, 'doc,cluster\nd0,x\nd2,y\nd1,x\n');
    const p = { file, output: 'clusters' };
    const same = await evidence(p, 0, 1);
    expect(same.summary).toBe('clusters.csv puts both in cluster x (line 2 and line 4)');
    expect(same.lines).toEqual(['A clusters.csv line 2: d0,x', 'B clusters.csv line 4: d1,x']);
    expect(same.data).toMatchObject({ cluster_a: 'x', cluster_b: 'x' });
    expect((await evidence(p, 0, 2)).summary).toBe('clusters.csv puts A in cluster x and B in cluster y');
    const lone = await evidence(p, 1, 3);
    expect([lone.summary, lone.lines]).toEqual(['clusters.csv puts only A in a cluster', ['A clusters.csv line 4: d1,x', 'B: no line of clusters.csv names it']]);
  });

  it('says when a command’s output was not kept with its run (a run written before outputs were kept)', async () => {
    const e = await evidence({ program: join(dir, 'pairs.csv'), command: ['sh', '{program}'] }, 0, 1);
    expect(e.summary).toBe('the command’s output was not kept with this run: the run’s score of the pair is what it wrote');
    expect(e.data).toEqual({ file: null, format: 'pairs' });
  });
});
