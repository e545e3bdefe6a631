import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { hadoopPartition } from '../../../../harness/mapreduce/partition.ts';
import { partitionLines } from '../../../../harness/mapreduce/streaming/shuffle.ts';
import { removeTempDirs, tempDir } from './toy/fixture.ts';

afterAll(removeTempDirs);

describe('partitionLines', () => {
  it('sends each line to the partition of its key (bytes before the first TAB), keeping order', async () => {
    const dir = tempDir('ndd-shuffle-');
    const lines = Array.from({ length: 500 }, (_, i) => `k${i % 37}é\\t${i}\tv${i}\tmore`);
    lines.push('no-tab-key');
    const text = lines.join('\n') + '\n';
    // Chunks cut at odd places, also inside multi-byte characters.
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 97) chunks.push(bytes.subarray(i, i + 97));
    const files = [0, 1, 2].map((p) => join(dir, `p${p}`));
    const n = await partitionLines(Readable.from(chunks), files);
    expect(n).toBe(lines.length);
    for (let p = 0; p < 3; p++) {
      const expected = lines.filter((l) => hadoopPartition(l.split('\t')[0] as string, 3) === p);
      expect(readFileSync(files[p] as string, 'utf8')).toBe(expected.map((l) => l + '\n').join(''));
    }
  });

  it('reads a last line without LF as a record', async () => {
    const dir = tempDir('ndd-shuffle-');
    const files = [join(dir, 'p0')];
    expect(await partitionLines(Readable.from([Buffer.from('a\t1\nb\t2')]), files)).toBe(2);
    expect(readFileSync(files[0] as string, 'utf8')).toBe('a\t1\nb\t2\n');
  });
});
