/**
 * The k-way merge of sorted runs against a stable sort of every record: equal keys keep the order
 * of the parts, whatever the buffer size, for one part and for many.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeRunChunks, writeRun, type RunPart } from '../../../algorithms/text/sorted-runs.ts';
import { mulberry32 } from './random-text.ts';

const dir = mkdtempSync(join(tmpdir(), 'sorted-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WIDTH = 3;
const KEY_WORDS = 2;

/** Records [key hi, key lo, tag] sorted by key; few distinct keys, so that ties are common. */
function randomRun(seed: number, records: number, tagBase: number): number[][] {
  const next = mulberry32(seed);
  const rows = Array.from({ length: records }, (_, i) => [[0, 0x80000000, 0xffffffff][Math.floor(next() * 3)] as number, Math.floor(next() * 5), tagBase + i]);
  return rows.sort((x, y) => (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number) || (x[2] as number) - (y[2] as number));
}

function partsOf(seed: number, sizes: readonly number[]): { parts: RunPart[]; rows: number[][] } {
  const parts: RunPart[] = [];
  const rows: number[][] = [];
  sizes.forEach((size, r) => {
    const run = randomRun(seed * 100 + r, size, r * 1000);
    const path = join(dir, `run-${seed}-${r}`);
    writeRun(path, Uint32Array.from(run.flat()), WIDTH);
    // every part but the first leaves out its first and last record, to exercise [from, to)
    const from = r === 0 || size < 3 ? 0 : 1;
    const to = r === 0 || size < 3 ? size : size - 1;
    parts.push({ path, from, to });
    rows.push(...run.slice(from, to));
  });
  return { parts, rows };
}

/** The definition: every record, stably sorted by key (parts in the order given). */
const stableByKey = (rows: number[][]): number[][] =>
  rows.map((r, i) => ({ r, i })).sort((x, y) => (x.r[0] as number) - (y.r[0] as number) || (x.r[1] as number) - (y.r[1] as number) || x.i - y.i).map((x) => x.r);

function chunked(parts: RunPart[], bufferRecords: number): { rows: number[][]; chunks: number[] } {
  const rows: number[][] = [];
  const chunks: number[] = [];
  mergeRunChunks(parts, WIDTH, KEY_WORDS, (words, records) => {
    chunks.push(records);
    for (let i = 0; i < records; i++) rows.push(Array.from(words.subarray(i * WIDTH, (i + 1) * WIDTH)));
  }, { bufferRecords });
  return { rows, chunks };
}

describe('mergeRunChunks', () => {
  it.each([
    [1, [40], 7],
    [2, [25, 30, 1, 17], 1],
    [3, [25, 30, 1, 17], 4],
    [4, [60, 0, 45], 1000],
    [5, [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3], 2],
  ])('gives every record of the parts in key order, ties in part order (case %i)', (seed, sizes, bufferRecords) => {
    const { parts, rows } = partsOf(seed, sizes);
    expect(chunked(parts, bufferRecords).rows).toEqual(stableByKey(rows));
  });

  it('hands out chunks of at most bufferRecords records, none empty', () => {
    for (const sizes of [[40], [25, 30, 17]]) {
      const { parts, rows } = partsOf(6, sizes);
      const { chunks } = chunked(parts, 8);
      expect(chunks.every((c) => c >= 1 && c <= 8)).toBe(true);
      expect(chunks.reduce((s, c) => s + c, 0)).toBe(rows.length);
    }
  });

  it('calls nothing for parts without records', () => {
    const { parts } = partsOf(7, [0, 0]);
    expect(chunked(parts, 4).chunks).toEqual([]);
  });
});
