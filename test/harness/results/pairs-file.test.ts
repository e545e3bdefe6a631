import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { pairsCsv, pairsCsvGz } from '../../../harness/results/pairs-file.ts';
import { pairList } from '../evaluate/pairs.ts';

/** A gzip'd pairs file's pieces joined (small files: the test's own check). */
const gzBytes = (f: { readonly pieces: readonly Buffer[] }): Buffer => Buffer.concat(f.pieces);

describe('pairs file', () => {
  // Document order and string order differ: 'b' < 'a9' < 'a10' by index, 'a10' < 'a9' < 'b' as strings.
  const ids = ['b', 'a9', 'a10', 'x,y'];

  it('orders each row and the rows by the ids as strings, not by document number', () => {
    const pairs = pairList([
      [0, 1, 0.5], // (b, a9)  -> a9,b
      [0, 2, 0.25], // (b, a10) -> a10,b
      [1, 2, 0.75], // (a9, a10) -> a10,a9
      [2, 3, 1], // (a10, "x,y") -> a10,"x,y"
    ]);
    // Sorted by hand: a10,a9 < a10,b < a10,x,y < a9,b ('a10' < 'a9' since '1' < '9'); x,y is quoted in the file.
    expect(pairsCsv(pairs, ids, 0).bytes.toString('utf8')).toBe('doc_a,doc_b,score\na10,a9,0.75\na10,b,0.25\na10,"x,y",1\na9,b,0.5\n');
  });

  it('leaves out the pairs below min_score and counts the rows it writes', () => {
    const pairs = pairList([
      [0, 1, 0.5],
      [0, 2, 0.09],
      [1, 2, 0.1],
    ]);
    const csv = pairsCsv(pairs, ids, 0.1);
    expect([csv.bytes.toString('utf8'), csv.rows]).toEqual(['doc_a,doc_b,score\na10,a9,0.1\na9,b,0.5\n', 2]);
  });

  it('gzips the same text, the same bytes every time', async () => {
    const pairs = pairList([
      [0, 1, 0.5],
      [2, 3, 1],
    ]);
    const one = await pairsCsvGz(pairs, ids, 0);
    const two = await pairsCsvGz(pairs, ids, 0);
    expect(gunzipSync(gzBytes(one)).toString('utf8')).toBe(pairsCsv(pairs, ids, 0).bytes.toString('utf8'));
    expect(one.rows).toBe(2);
    expect(Buffer.compare(gzBytes(one), gzBytes(two))).toBe(0);
  });

  it('writes files of many thousand rows whole, as a naive join of sorted rows does', () => {
    const many = Array.from({ length: 300 }, (_, i) => `doc${i}`);
    const rows: [number, number, number][] = [];
    for (let a = 0; a < 300; a++) for (let b = a + 1; b < 300; b += 3) rows.push([a, b, ((a * 31 + b) % 97) / 97]);
    const expected = rows
      .filter((r) => r[2] >= 0.2)
      .map(([a, b, s]) => [many[a] as string, many[b] as string, s] as const)
      .map(([x, y, s]) => (x < y ? ([x, y, s] as const) : ([y, x, s] as const)))
      .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0))
      .map(([x, y, s]) => `${x},${y},${String(s)}\n`);
    expect(expected.length).toBeGreaterThan(4096 * 2);
    const csv = pairsCsv(pairList(rows), many, 0.2);
    expect(csv.rows).toBe(expected.length);
    expect(csv.bytes.toString('utf8')).toBe(`doc_a,doc_b,score\n${expected.join('')}`);
  });

  it('gzips the text in pieces to the bytes of gzip of the whole text at level 4', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `doc${i}`);
    const rows: [number, number, number][] = [];
    for (let a = 0; a < 300; a++) for (let b = a + 1; b < 300; b += 2) rows.push([a, b, ((a * 31 + b) % 97) / 97]);
    const whole = pairsCsv(pairList(rows), many, 0);
    expect(whole.rows).toBeGreaterThan(4096 * 3); // several pieces
    expect(Buffer.compare(gzBytes(await pairsCsvGz(pairList(rows), many, 0)), gzipSync(whole.bytes, { level: 4 }))).toBe(0);
  });

  it('makes the same gzip bytes on a worker thread as here, ids repeated included, and leaves the pairs as they were', async () => {
    const pool = new WorkerPool(2);
    try {
      const many = Array.from({ length: 200 }, (_, i) => `doc${i % 150}`); // 50 ids twice
      const rows: [number, number, number][] = [];
      for (let a = 0; a < 200; a++) for (let b = a + 1; b < 200; b += 7) rows.push([a, b, ((a * 17 + b) % 89) / 89]);
      const pairs = pairList(rows);
      const here = await pairsCsvGz(pairs, many, 0.3);
      const there = await pairsCsvGz(pairs, many, 0.3, pool);
      expect(there.rows).toBe(here.rows);
      expect(Buffer.compare(gzBytes(there), gzBytes(here))).toBe(0);
      expect(gunzipSync(gzBytes(there)).toString('utf8')).toBe(pairsCsv(pairs, many, 0.3).bytes.toString('utf8'));
      expect([pairs.a.length, pairs.score[5]]).toEqual([rows.length, rows[5]?.[2]]);
      // Again, with the worker threads holding the fields already, and with other ids.
      expect(Buffer.compare(gzBytes(await pairsCsvGz(pairs, many, 0.3, pool)), gzBytes(here))).toBe(0);
      const others = many.map((id) => `${id}"é`);
      expect(gunzipSync(gzBytes(await pairsCsvGz(pairs, others, 0.3, pool))).toString('utf8')).toBe(pairsCsv(pairs, others, 0.3).bytes.toString('utf8'));
    } finally {
      await pool.close();
    }
  });

  it('keeps a large file as gzip pieces of bounded size, the bytes of gzip of the whole text, here and on a thread', async () => {
    // 156,520 rows of random scores: 7 MB of text, about 2 MB gzip'd, more than one piece.
    let seed = 7;
    const random = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const many = Array.from({ length: 560 }, (_, i) => `document-${i}`);
    const rows: [number, number, number][] = [];
    for (let a = 0; a < 560; a++) for (let b = a + 1; b < 560; b++) rows.push([a, b, random()]);
    const pairs = pairList(rows);
    const whole = gzipSync(pairsCsv(pairs, many, 0).bytes, { level: 4 });
    const pool = new WorkerPool(2);
    try {
      for (const file of [await pairsCsvGz(pairs, many, 0), await pairsCsvGz(pairs, many, 0, pool)]) {
        expect(file.pieces.length).toBeGreaterThan(1);
        // Pieces of about 1 MiB: gzip's 16 KiB chunks gathered until they pass it.
        for (const p of file.pieces) expect(p.length).toBeLessThan((1 << 20) + (1 << 15));
        expect(Buffer.compare(gzBytes(file), whole)).toBe(0);
      }
    } finally {
      await pool.close();
    }
  });
});
