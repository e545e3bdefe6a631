import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { byteLengthOf, forEachPiece, piecesOf, readFileInPieces, readFilePieces, readInto, readRangePieces, writeFileInPieces } from '../../../kernels/io/pieces.ts';

const dirs: string[] = [];
function temp(name: string): string {
  const d = mkdtempSync(join(tmpdir(), 'ndd-pieces-'));
  dirs.push(d);
  return join(d, name);
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('files in pieces', () => {
  it('writes the parts in order, a few bytes a call, views at an offset included', () => {
    const f = temp('x.bin');
    const words = Uint32Array.from([1, 2, 3, 0xdeadbeef]);
    const text = Buffer.from('héllo, world');
    writeFileInPieces(f, [text.subarray(1), words.subarray(1), new Float64Array([0.5])], { chunkBytes: 3 });
    expect(readFileSync(f)).toEqual(Buffer.concat([text.subarray(1), Buffer.from(words.buffer, 4, 12), Buffer.from(new Float64Array([0.5]).buffer)]));
  });

  it('reads a file back whole and into typed arrays, a byte a call', () => {
    const f = temp('y.bin');
    const a = Uint32Array.from({ length: 100 }, (_, i) => i * 7919);
    writeFileInPieces(f, [a]);
    expect(readFileInPieces(f, { chunkBytes: 1 })).toEqual(Buffer.from(a.buffer));
    const back = new Uint32Array(50);
    const fd = openSync(f, 'r');
    try {
      readInto(fd, back, 200, { chunkBytes: 5 });
      expect([...back]).toEqual([...a.subarray(50)]);
      expect(() => readInto(fd, new Uint8Array(10), 395)).toThrow(/ends 5 bytes early/);
    } finally {
      closeSync(fd);
    }
  });

  it('reads a file back as pieces of at most the bound, in order, the last one shorter', () => {
    const f = temp('p.bin');
    const bytes = Buffer.from(Array.from({ length: 23 }, (_, i) => (i * 37) & 0xff));
    writeFileInPieces(f, [bytes]);
    const pieces = readFilePieces(f, { chunkBytes: 5 });
    expect(pieces.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
    expect(Buffer.concat(pieces)).toEqual(bytes);
    const empty = temp('empty.bin');
    writeFileInPieces(empty, []);
    expect(readFilePieces(empty)).toEqual([]);
  });

  it('reads a range from inside a file as pieces of at most the bound, and throws when the file ends first', () => {
    const f = temp('r.bin');
    const bytes = Buffer.from(Array.from({ length: 30 }, (_, i) => (i * 11) & 0xff));
    writeFileInPieces(f, [bytes]);
    const fd = openSync(f, 'r');
    try {
      const pieces = readRangePieces(fd, { at: 4, bytes: 12 }, { chunkBytes: 5 });
      expect(pieces.map((p) => p.length)).toEqual([5, 5, 2]);
      expect(Buffer.concat(pieces)).toEqual(bytes.subarray(4, 16));
      expect(readRangePieces(fd, { at: 30, bytes: 0 })).toEqual([]);
      expect(() => readRangePieces(fd, { at: 25, bytes: 8 })).toThrow(/ends 3 bytes early/);
    } finally {
      closeSync(fd);
    }
  });

  it('takes a file’s bytes whole or as pieces alike', () => {
    const whole = Buffer.from('abcdef');
    const pieces = [whole.subarray(0, 2), whole.subarray(2)];
    expect(piecesOf(whole)).toEqual([whole]);
    expect(piecesOf(pieces)).toBe(pieces);
    expect([byteLengthOf(whole), byteLengthOf(pieces), byteLengthOf([])]).toEqual([6, 6, 0]);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => writeFileInPieces(temp('z'), [new Uint8Array(1)], { chunkBytes: 0 })).toThrow(/positive integer/);
  });
});

describe('forEachPiece', () => {
  it('visits the file’s bytes in order, pieces of the bound', () => {
    const f = temp('w.bin');
    const data = Buffer.from(Array.from({ length: 23 }, (_, i) => i));
    writeFileInPieces(f, [data]);
    const seen: number[][] = [];
    forEachPiece(f, (p) => seen.push([...p]), { chunkBytes: 10 });
    expect(seen.map((p) => p.length)).toEqual([10, 10, 3]);
    expect(seen.flat()).toEqual([...data]);
  });

  it('visits nothing of an empty file, and a small file whole in one piece', () => {
    const empty = temp('e.bin');
    writeFileInPieces(empty, []);
    const none: number[][] = [];
    forEachPiece(empty, (p) => none.push([...p]));
    expect(none).toEqual([]);
    const small = temp('s.bin');
    const data = Buffer.from('seven b');
    writeFileInPieces(small, [data]);
    const seen: number[][] = [];
    forEachPiece(small, (p) => seen.push([...p]));
    expect(seen).toEqual([[...data]]);
  });
});
