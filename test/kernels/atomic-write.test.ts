/** The atomic write: a reader sees the old content or the new, and a failed write leaves no temporary file. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../kernels/index.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ndd-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['writeFileAtomic', writeFileAtomic],
  ['writeFileAtomicSync', async (file: string, content: Parameters<typeof writeFileAtomicSync>[1], o?: Parameters<typeof writeFileAtomicSync>[2]) => writeFileAtomicSync(file, content, o)],
] as const)('%s', (_, write) => {
  it('writes text, bytes or a run of buffers, replacing the file, and leaves nothing beside it', async () => {
    const file = join(dir, 'out.json');
    writeFileSync(file, 'old');
    await write(file, 'new text é');
    expect(readFileSync(file, 'utf8')).toBe('new text é');
    await write(file, Uint8Array.from([1, 2, 3]));
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    await write(file, [Buffer.from('ab'), Uint8Array.from([0x63]), Buffer.alloc(0), Buffer.from('d')]);
    expect(readFileSync(file, 'utf8')).toBe('abcd');
    expect(readdirSync(dir)).toEqual(['out.json']);
  });

  it('on a failed rename, removes its temporary file and leaves the target as it was', async () => {
    // A folder cannot be replaced by a file.
    const target = join(dir, 'target');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    await expect(write(target, 'x')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['target']);
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
  });

  it('writes through the temporary name given, and does not touch one that exists already', async () => {
    const file = join(dir, 'values');
    const tmp = join(dir, 'values.123.0.tmp');
    await write(file, 'one', { temporary: tmp });
    expect(readdirSync(dir)).toEqual(['values']);
    writeFileSync(tmp, 'another writer');
    await expect(write(file, 'two', { temporary: tmp })).rejects.toThrow(/EEXIST/);
    expect(readFileSync(tmp, 'utf8')).toBe('another writer');
    expect(readFileSync(file, 'utf8')).toBe('one');
  });

  it('fails in a folder that does not exist, leaving nothing', async () => {
    await expect(write(join(dir, 'missing', 'f'), 'x')).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('writeFileAtomic', () => {
  it('removes its temporary file when writing the content fails, the target as it was', async () => {
    const file = join(dir, 'f');
    writeFileSync(file, 'old');
    await expect(writeFileAtomic(file, [Buffer.from('a'), 42 as unknown as Uint8Array])).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['f']);
    expect(readFileSync(file, 'utf8')).toBe('old');
  });

  it('never shows a reader part of the new content', async () => {
    const file = join(dir, 'big');
    const old = 'o'.repeat(1 << 20);
    const next = 'n'.repeat(8 << 20);
    writeFileSync(file, old);
    let writing = true;
    const reads: string[] = [];
    const reader = (async () => {
      while (writing) reads.push(await readFile(file, 'utf8'));
    })();
    for (let i = 0; i < 5; i++) await writeFileAtomic(file, i % 2 === 0 ? next : old);
    writing = false;
    await reader;
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(r === old || r === next).toBe(true);
  });
});
