import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { pairScore } from '../../../harness/results/pair-lookup.ts';
import { pairsCsv } from '../../../harness/results/pairs-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'ndd-pair-lookup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pairScore', () => {
  // written by the pairs file's own writer: ids with a comma and a quote are quoted
  const ids = ['b', 'a,1', 'c"x', 'a'];
  const { bytes } = pairsCsv({ a: Uint32Array.of(0, 1, 0), b: Uint32Array.of(1, 2, 3), score: Float64Array.of(0.25, 0.5, 0.75) }, ids, 0);
  const file = join(dir, 'p.csv.gz');
  writeFileSync(file, gzipSync(bytes));

  it('finds a pair in either order, ids quoted as the writer quotes them', async () => {
    expect(await pairScore(file, 'b', 'a,1')).toBe(0.25);
    expect(await pairScore(file, 'c"x', 'a,1')).toBe(0.5);
    expect(await pairScore(file, 'a', 'b')).toBe(0.75);
  });

  it('gives null for a pair the file does not hold, and not a pair whose id only begins the same', async () => {
    expect(await pairScore(file, 'a', 'c"x')).toBeNull();
    expect(await pairScore(file, 'a', 'a,1')).toBeNull();
  });

  it('names the file of a pairs file that is not gzip', async () => {
    const bad = join(dir, 'bad.csv.gz');
    writeFileSync(bad, 'doc_a,doc_b,score\n');
    await expect(pairScore(bad, 'a', 'b')).rejects.toThrow(`${bad}: not a gzip file`);
  });
});
