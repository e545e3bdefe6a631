/**
 * The Hamming search (Manku's permuted tables) against brute force over every pair, on a few
 * thousand fingerprints with planted close pairs, clusters and exact duplicates; both in its
 * kernel form and as the MapReduce job.
 */
import { describe, expect, it } from 'vitest';
import { fingerprintToHex, hamming, simhashScore } from '../../../algorithms/simhash/fingerprint.ts';
import { hammingJob } from '../../../algorithms/simhash/jobs.ts';
import { groupFingerprints, identicalPairs, searchTables, type SearchResult } from '../../../algorithms/simhash/search.ts';
import { autoBlocks, binomial, blockSizes, firstTable, layoutFor, tableKey } from '../../../algorithms/simhash/tables.ts';
import { mulberry32 } from '../text/random-text.ts';
import { runJobInMemory } from '../../support/run-job.ts';

interface Fps {
  hi: Uint32Array;
  lo: Uint32Array;
  docs: Uint32Array;
}

/** Flips `d` distinct random bits of (hi, lo). */
function flip(random: () => number, hi: number, lo: number, d: number): [number, number] {
  const bits = new Set<number>();
  while (bits.size < d) bits.add(Math.floor(random() * 64));
  for (const b of bits) {
    if (b < 32) hi ^= 1 << (31 - b);
    else lo ^= 1 << (63 - b);
  }
  return [hi >>> 0, lo >>> 0];
}

/** ~3000 fingerprints: random ones, planted pairs at distance 1..12, clusters, duplicates, block-edge pairs. */
function plantedFingerprints(seed: number): Fps {
  const random = mulberry32(seed);
  const word = (): number => Math.floor(random() * 2 ** 32) >>> 0;
  const hi: number[] = [];
  const lo: number[] = [];
  const add = (h: number, l: number): void => {
    hi.push(h >>> 0);
    lo.push(l >>> 0);
  };
  for (let i = 0; i < 2000; i++) add(word(), word());
  for (let i = 0; i < 300; i++) {
    const [h, l] = [word(), word()];
    add(h, l);
    add(...flip(random, h, l, 1 + (i % 12)));
  }
  // clusters: a centre and five variants, variants up to 2d apart from each other
  for (let i = 0; i < 40; i++) {
    const [h, l] = [word(), word()];
    add(h, l);
    for (let v = 0; v < 5; v++) add(...flip(random, h, l, 1 + ((i + v) % 4)));
  }
  // exact duplicates: groups of 2 to 9, and a duplicate with a near neighbour
  for (let i = 0; i < 30; i++) {
    const [h, l] = [word(), word()];
    for (let c = 0; c < 2 + (i % 8); c++) add(h, l);
    if (i % 3 === 0) add(...flip(random, h, l, 2));
  }
  // pairs differing in the bits on either side of every block edge of the 4-block layout
  for (const edge of [15, 16, 31, 32, 47, 48, 63, 0]) {
    const [h, l] = [word(), word()];
    add(h, l);
    add(...flip(random, h, l, 0).map((x, i) => (i === (edge < 32 ? 0 : 1) ? x ^ (1 << (31 - (edge % 32))) : x)) as [number, number]);
  }
  // shuffle the document order
  const n = hi.length;
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return {
    hi: Uint32Array.from(order, (i) => hi[i] as number),
    lo: Uint32Array.from(order, (i) => lo[i] as number),
    docs: Uint32Array.from({ length: n }, (_, i) => i),
  };
}

/** Every pair within distance k, straight from the definition: `a b score`, sorted. */
function bruteForce(f: Fps, k: number): string[] {
  const rows: string[] = [];
  const n = f.docs.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = hamming(f.hi[i] as number, f.lo[i] as number, f.hi[j] as number, f.lo[j] as number);
      if (d <= k) rows.push(`${f.docs[i]} ${f.docs[j]} ${simhashScore(d)}`);
    }
  }
  return rows.sort();
}

function rows(parts: readonly SearchResult[]): string[] {
  const out: string[] = [];
  for (const p of parts) for (let i = 0; i < p.a.length; i++) out.push(`${p.a[i]} ${p.b[i]} ${p.score[i]}`);
  return out.sort();
}

function kernelSearch(f: Fps, k: number, blocks: number | 'auto'): { rows: string[]; comparisons: number; candidates: number } {
  const layout = layoutFor(k, blocks);
  const groups = groupFingerprints(f.hi, f.lo, f.docs);
  const parts = [identicalPairs(groups)];
  for (let t = 0; t < layout.tables.length; t++) parts.push(searchTables({ groups, maskHi: layout.maskHi, maskLo: layout.maskLo, k, tables: [t] }));
  return {
    rows: rows(parts),
    comparisons: parts.reduce((s, p) => s + p.fingerprintComparisons, 0),
    candidates: parts.reduce((s, p) => s + p.candidatePairs, 0),
  };
}

function jobSearch(f: Fps, k: number, blocks: number | 'auto') {
  const input = Array.from(f.docs, (d, i) => [String(d), fingerprintToHex(f.hi[i] as number, f.lo[i] as number)] as const);
  const out = runJobInMemory(hammingJob(k, blocks), input);
  const r = out.records.map(([key, v]) => `${key.replace(':', ' ')} ${v}`).sort();
  return { rows: r, counters: out.counters['simhash-hamming'] ?? {} };
}

const fps = plantedFingerprints(7);
/** For the keyless layout (k >= 9), which compares all pairs and reports most: 600 of them. */
const few: Fps = { hi: fps.hi.slice(0, 600), lo: fps.lo.slice(0, 600), docs: fps.docs.slice(0, 600) };
const inputFor = (k: number): Fps => (autoBlocks(k) === null ? few : fps);

describe('Manku table layouts', () => {
  it('auto picks the fewest blocks with 16-bit keys: 1 2 3 4 6 7 8 10 11 blocks for k = 0..8, none from 9', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 64].map(autoBlocks)).toEqual([1, 2, 3, 4, 6, 7, 8, 10, 11, null, null, null]);
    // k = 3: Manku's 4 tables of 16 bits
    const l = layoutFor(3, 'auto');
    expect(l.blocks).toEqual([[0, 16], [16, 16], [32, 16], [48, 16]]);
    expect(l.tables).toEqual([[0], [1], [2], [3]]);
    expect([...l.maskHi].map((m) => m.toString(16))).toEqual(['ffff0000', 'ffff', '0', '0']);
    expect([...l.maskLo].map((m) => m.toString(16))).toEqual(['0', '0', 'ffff0000', 'ffff']);
  });

  it('has C(B, k) tables, each keyed by B − k blocks, over blocks that tile the 64 bits', () => {
    for (const [k, b] of [[1, 2], [2, 5], [4, 6], [6, 8], [3, 64]] as const) {
      const l = layoutFor(k, b);
      expect(l.tables.length).toBe(binomial(b, k));
      expect(l.tables.every((t) => t.length === b - k)).toBe(true);
      expect(blockSizes(b).reduce((s, x) => s + x, 0)).toBe(64);
      expect(l.blocks.map(([first]) => first)).toEqual(blockSizes(b).map((_, i) => blockSizes(b).slice(0, i).reduce((s, x) => s + x, 0)));
    }
    expect(binomial(8, 6)).toBe(28);
  });

  it('puts every pair within distance k in a shared table (pigeonhole), exhaustively for k = 2 over 2 blocks of bits', () => {
    // every way to flip 2 of the 64 bits of 0: the pair (0, x) must share some table's key
    const l = layoutFor(2, 'auto');
    for (let i = 0; i < 64; i++) {
      for (let j = i; j < 64; j++) {
        const x = new Uint32Array(2);
        for (const b of [i, j]) x[b < 32 ? 0 : 1] = (x[b < 32 ? 0 : 1] as number) ^ (1 << (31 - (b % 32)));
        expect(firstTable(l.maskHi, l.maskLo, x[0] as number, x[1] as number)).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("writes a table's key as its blocks' bits in hex: equal keys exactly when the masked bits are equal", () => {
    const l = layoutFor(2, 'auto'); // blocks of 22, 21, 21 bits; table 0 = blocks 0 (bits 0-21)
    expect(tableKey(l, 0, 0xffffffff, 0)).toBe('0:' + 'fffffc'); // 22 ones, padded to 24 bits
    const random = mulberry32(3);
    for (let i = 0; i < 2000; i++) {
      const a = [Math.floor(random() * 2 ** 32), Math.floor(random() * 2 ** 32)] as const;
      const b = flip(random, a[0], a[1], 1 + (i % 30));
      for (let t = 0; t < l.tables.length; t++) {
        const same = (((a[0] ^ b[0]) & (l.maskHi[t] as number)) | ((a[1] ^ b[1]) & (l.maskLo[t] as number))) === 0;
        expect(tableKey(l, t, a[0], a[1]) === tableKey(l, t, b[0], b[1])).toBe(same);
      }
    }
  });
});

describe('Hamming search against brute force', () => {
  const cases: [number, number | 'auto'][] = [
    [0, 'auto'], [1, 'auto'], [2, 'auto'], [3, 'auto'], [4, 'auto'], [5, 'auto'], [6, 'auto'], [7, 'auto'],
    [9, 'auto'], [12, 'auto'], [64, 'auto'], [3, 6], [2, 64], [0, 8],
  ];

  it.each(cases)('kernel finds exactly the pairs within k = %i (blocks %s)', (k, blocks) => {
    const f = blocks === 'auto' ? inputFor(k) : fps;
    const expected = bruteForce(f, k);
    const got = kernelSearch(f, k, blocks);
    expect(got.rows).toEqual(expected);
    if (k >= 3) expect(expected.length).toBeGreaterThan(f === few ? 20 : 300);
  });

  it.each([[0, 'auto'], [3, 'auto'], [6, 'auto'], [3, 6], [64, 'auto']] as [number, number | 'auto'][])(
    'the MapReduce job finds the same pairs and counts the same comparisons, k = %i (blocks %s)',
    (k, blocks) => {
      const f = blocks === 'auto' ? inputFor(k) : fps;
      const kernel = kernelSearch(f, k, blocks);
      const job = jobSearch(f, k, blocks);
      expect(job.rows).toEqual(bruteForce(f, k));
      expect(job.counters).toEqual({
        fingerprint_comparisons: kernel.comparisons,
        candidate_pairs: kernel.candidates,
        output_pairs: kernel.rows.length,
      });
    },
  );

  it('compares every two distinct fingerprints once when no table layout fits (k = 64)', () => {
    const distinct = new Set(Array.from(few.docs, (_, i) => fingerprintToHex(few.hi[i] as number, few.lo[i] as number))).size;
    const n = few.docs.length;
    expect(distinct).toBeLessThan(n); // duplicates among them
    const r = kernelSearch(few, 64, 'auto');
    expect(r.comparisons).toBe((distinct * (distinct - 1)) / 2);
    // every document pair is a candidate: compared, or taken as identical
    expect(r.candidates).toBe((n * (n - 1)) / 2);
    expect(r.rows.length).toBe((n * (n - 1)) / 2);
  });

  it('compares far fewer pairs than brute force with the 4 tables of k = 3', () => {
    const n = fps.docs.length;
    expect(kernelSearch(fps, 3, 'auto').candidates).toBeLessThan((n * (n - 1)) / 2 / 1000);
  });
});
