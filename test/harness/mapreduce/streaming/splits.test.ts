import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alignSplits, planSplits } from '../../../../harness/mapreduce/streaming/splits.ts';
import { removeTempDirs, tempDir } from './toy/fixture.ts';

afterAll(removeTempDirs);

describe('planSplits (FileInputFormat)', () => {
  it('cuts 100 bytes for 2 map tasks into 50 + 50', () => {
    expect(planSplits([{ path: 'f', size: 100 }], 2)).toEqual([
      { path: 'f', start: 0, end: 50 },
      { path: 'f', start: 50, end: 100 },
    ]);
  });

  it('lets a remainder within 10% ride with the last split: 105 bytes / 2 → 52 + 53', () => {
    // goal = floor(105 / 2) = 52; 105/52 > 1.1 cuts [0,52); 53/52 <= 1.1 keeps [52,105) whole.
    expect(planSplits([{ path: 'f', size: 105 }], 2)).toEqual([
      { path: 'f', start: 0, end: 52 },
      { path: 'f', start: 52, end: 105 },
    ]);
  });

  it('caps splits at the block size (split_mb) and never joins files', () => {
    expect(planSplits([{ path: 'f', size: 100 }, { path: 'g', size: 32 }], 1, 30)).toEqual([
      { path: 'f', start: 0, end: 30 },
      { path: 'f', start: 30, end: 60 },
      { path: 'f', start: 60, end: 90 },
      { path: 'f', start: 90, end: 100 },
      { path: 'g', start: 0, end: 32 }, // 32/30 <= 1.1
    ]);
  });

  it('gives empty files no split', () => {
    expect(planSplits([{ path: 'e', size: 0 }], 2)).toEqual([]);
  });
});

describe('alignSplits (LineRecordReader)', () => {
  const dir = tempDir('ndd-splits-');
  const lines = Array.from({ length: 40 }, (_, i) => `${i}\t${'x'.repeat((i * 7) % 13)}é`);
  const file = join(dir, 'lines');
  writeFileSync(file, lines.join('\n') + '\n');
  const bytes = readFileSync(file);

  it('gives a line that starts exactly at a boundary to the split before it', async () => {
    const second = Buffer.byteLength(lines[0] as string) + 1; // first byte of line 1
    const aligned = await alignSplits([
      { path: file, start: 0, end: second },
      { path: file, start: second, end: bytes.length },
    ]);
    const firstText = bytes.subarray(aligned[0]?.start, aligned[0]?.end).toString();
    expect(firstText).toBe(`${lines[0]}\n${lines[1]}\n`);
  });

  it('gives every line to exactly one split, in order, for any split size', async () => {
    for (const n of [1, 2, 3, 5, 8, 17, 64]) {
      const aligned = await alignSplits(planSplits([{ path: file, size: bytes.length }], n));
      const text = aligned.map((s) => bytes.subarray(s.start, s.end).toString()).join('');
      expect(text, `${n} splits`).toBe(bytes.toString());
      for (const s of aligned) expect(bytes[s.end - 1], `split ${s.start}-${s.end} ends with LF`).toBe(10);
    }
  });
});
