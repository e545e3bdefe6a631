import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../../harness/errors.ts';
import { listInputFiles, readFileChunks, readTextFile } from '../../../harness/corpus/files.ts';
import type { Skip } from '../../../harness/corpus/types.ts';

const own = (name: string) => fileURLToPath(new URL(`../../fixtures/trec/${name}`, import.meta.url));

async function readAll(file: string): Promise<{ text: string; offsets: number[]; skips: Skip[] }> {
  const skips: Skip[] = [];
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  for await (const c of readFileChunks(file, { skip: (s) => skips.push(s) })) {
    parts.push(c.bytes);
    offsets.push(c.offset);
  }
  return { text: Buffer.concat(parts).toString('utf8'), offsets, skips };
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'ndd-files-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('readFileChunks', () => {
  it('reads every member of a multi-member gzip file', async () => {
    // python3 -c 'zlib.decompressobj(31) … unused_data' counts 3 members;
    // zcat multi-member.trecweb.gz | grep -o 'MM-00[0-9]' → MM-001 MM-002 MM-003 MM-004
    const { text, skips } = await readAll(own('multi-member.trecweb.gz'));
    expect(text.match(/MM-00\d/g)).toEqual(['MM-001', 'MM-002', 'MM-003', 'MM-004']);
    // zcat multi-member.trecweb.gz | wc -c → 551
    expect(Buffer.byteLength(text)).toBe(551);
    expect(skips).toEqual([]);
  });

  it('gives each chunk the uncompressed offset of its first byte', async () => {
    const big = Buffer.alloc(3 * (1 << 20) + 5, 'x');
    const file = join(tmp, 'big.gz');
    await writeFile(file, Buffer.concat([gzipSync(big.subarray(0, 1 << 20)), gzipSync(big.subarray(1 << 20))]));
    const sizes: number[] = [];
    const offsets: number[] = [];
    for await (const c of readFileChunks(file, { skip: () => undefined })) {
      offsets.push(c.offset);
      sizes.push(c.bytes.length);
    }
    const expected = sizes.map((_, i) => sizes.slice(0, i).reduce((a, b) => a + b, 0));
    expect(offsets).toEqual(expected);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(big.length);
  });

  it('keeps what a truncated gzip member gave and counts a truncated-gzip skip', async () => {
    const { text, skips } = await readAll(own('truncated-member.trecweb.gz'));
    // zcat truncated-member.trecweb.gz 2>/dev/null | grep -o 'TR-00[0-9]' → TR-001 TR-002 TR-003
    expect(text.match(/TR-00\d/g)).toEqual(['TR-001', 'TR-002', 'TR-003']);
    expect(skips).toHaveLength(1);
    // zcat truncated-member.trecweb.gz 2>/dev/null | wc -c → 357: the skip is where the bytes stop
    expect(skips[0]).toMatchObject({ reason: 'truncated-gzip', kind: 'skipped', file: own('truncated-member.trecweb.gz'), offset: 357 });
  });

  it('fails with a DataError when a gzip file yields no byte at all', async () => {
    const file = join(tmp, 'cut.gz');
    // The 10-byte gzip header alone: no deflate data, nothing decompresses.
    await writeFile(file, gzipSync(Buffer.from('some text')).subarray(0, 10));
    await expect(readAll(file)).rejects.toThrow(DataError);
    await expect(readAll(file)).rejects.toThrow(/cut\.gz: byte 0: truncated-gzip/);
  });

  it('counts an empty file as an empty-file skip', async () => {
    const { text, skips } = await readAll(own('empty.trecweb'));
    expect(text).toBe('');
    expect(skips).toEqual([expect.objectContaining({ reason: 'empty-file', offset: 0, file: own('empty.trecweb') })]);
  });

  it('reads a plain file as it is', async () => {
    const { text, offsets } = await readAll(own('disks.trec'));
    expect(offsets).toEqual([0]);
    // grep -c '<DOC>' disks.trec → 2
    expect(text.split('<DOC>').length - 1).toBe(2);
  });
});

describe('listInputFiles', () => {
  it('walks a directory tree in byte order of the paths, leaving out dot files', async () => {
    // Byte order: 'B' (0x42) < 'a' (0x61), and 'a.txt' < 'a/x…' because '.' (0x2e) < '/' (0x2f);
    // a per-directory walk would give B.txt, a/x.trecweb.gz, a.txt instead.
    const root = own('collection');
    expect(await listInputFiles(root)).toEqual([join(root, 'B.txt'), join(root, 'a.txt'), join(root, 'a', 'x.trecweb.gz')]);
  });

  it('orders names past U+FFFF by their UTF-8 bytes, not their UTF-16 code units', async () => {
    // U+FF21 is EF BC A1 in UTF-8 and U+1F600 is F0 9F 98 80: U+FF21 first by bytes, although
    // its code unit 0xFF21 sorts after the surrogate 0xD83D that starts U+1F600 in UTF-16.
    const root = join(tmp, 'astral');
    await mkdir(root, { recursive: true });
    for (const name of ['\u{1F600}.txt', '\uFF21.txt', 'z.txt']) await writeFile(join(root, name), 'x');
    expect(await listInputFiles(root)).toEqual([join(root, 'z.txt'), join(root, '\uFF21.txt'), join(root, '\u{1F600}.txt')]);
  });

  it('lists a plain file as itself', async () => {
    expect(await listInputFiles(own('broken.trecweb'))).toEqual([own('broken.trecweb')]);
  });

  it('rejects a missing path with a DataError naming it', async () => {
    await expect(listInputFiles(join(tmp, 'nope'))).rejects.toThrow(/nope: no such file or directory/);
  });
});

describe('readTextFile', () => {
  it('gunzips a gzip text file', async () => {
    const file = join(tmp, 'q.gz');
    await writeFile(file, gzipSync('1 0 D 1\n'));
    expect(await readTextFile(file)).toBe('1 0 D 1\n');
  });
});
