/**
 * Banded LSH: the buckets against brute force on inputs small enough to enumerate, and the
 * probability that a planted pair becomes a candidate against the S-curve 1 − (1 − J^r)^b.
 */
import { describe, expect, it } from 'vitest';
import { encodeSignature } from '../../../algorithms/minhash/codec.ts';
import { bandsJob } from '../../../algorithms/minhash/jobs.ts';
import { bandSlice } from '../../../algorithms/minhash/kernel-worker.ts';
import { candidateProbability } from '../../../algorithms/minhash/lsh-params.ts';
import { minhashParams } from '../../../algorithms/minhash/params.ts';
import { resolveSettings } from '../../../algorithms/minhash/settings.ts';
import { mulberry32 } from '../text/random-text.ts';
import { runJobInMemory } from '../../support/run-job.ts';
import { plantedPair, signPair } from './planted.ts';

/** Signatures of n documents, k slots, most slots drawn from a tiny alphabet so that bands collide, some copied. */
function smallSignatures(n: number, k: number, seed: number): { values: Uint32Array; sizes: number[] } {
  const random = mulberry32(seed);
  const values = new Uint32Array(2 * n * k);
  for (let i = 0; i < n * k; i++) {
    const small = random() < 0.85;
    values[2 * i] = small ? 0 : Math.floor(random() * 2 ** 29);
    values[2 * i + 1] = small ? Math.floor(random() * 3) : Math.floor(random() * 2 ** 32);
  }
  // exact copies (documents 10 and 21 of 0, 33 of 2) collide in every band
  for (const [to, from] of [[10, 0], [21, 0], [33, 2]] as const) values.copyWithin(2 * to * k, 2 * from * k, 2 * (from + 1) * k);
  // every fifth document has no fingerprints: it takes part in no bucket
  const sizes = Array.from({ length: n }, (_, d) => (d % 5 === 4 ? 0 : 10 + d));
  return { values, sizes };
}

/** pair → number of bands in which all rows agree, by enumeration. */
function bruteForce(values: Uint32Array, sizes: number[], k: number, bands: number, rows: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let a = 0; a < sizes.length; a++) {
    for (let b = a + 1; b < sizes.length; b++) {
      if (sizes[a] === 0 || sizes[b] === 0) continue;
      let c = 0;
      for (let j = 0; j < bands; j++) {
        let same = true;
        for (let i = j * rows; i < (j + 1) * rows; i++) {
          if (values[2 * (a * k + i)] !== values[2 * (b * k + i)] || values[2 * (a * k + i) + 1] !== values[2 * (b * k + i) + 1]) same = false;
        }
        if (same) c++;
      }
      if (c > 0) out.set(`${a}:${b}`, c);
    }
  }
  return out;
}

/** Buckets (band, slots) with two documents or more, by enumeration. */
function bruteBuckets(values: Uint32Array, sizes: number[], k: number, bands: number, rows: number): number {
  const groups = new Map<string, number>();
  sizes.forEach((size, d) => {
    if (size === 0) return;
    for (let j = 0; j < bands; j++) {
      const key = `${j}|${Array.from(values.subarray(2 * (d * k + j * rows), 2 * (d * k + (j + 1) * rows))).join(',')}`;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
  });
  return [...groups.values()].filter((c) => c >= 2).length;
}

const tally = (pairs: Iterable<string>): Map<string, number> => {
  const m = new Map<string, number>();
  for (const p of pairs) m.set(p, (m.get(p) ?? 0) + 1);
  return m;
};

describe('LSH buckets against brute force', () => {
  const n = 40;
  const k = 12;
  const { values, sizes } = smallSignatures(n, k, 3);
  const signed = Uint32Array.from(sizes.flatMap((s, d) => (s > 0 ? [d] : [])));

  it.each([
    [4, 3],
    [6, 2],
    [12, 1],
    [3, 4],
    [2, 5],
    [1, 12],
  ])('%i bands × %i rows: the kernel finds every colliding pair once per band it collides in', (bands, rows) => {
    const expected = bruteForce(values, sizes, k, bands, rows);
    expect(expected.size).toBeGreaterThan(0);
    // one slice of all bands, and the bands cut into two slices, as two workers would
    const whole = bandSlice({ values, signed, k, rows, fromBand: 0, toBand: bands });
    const cut = Math.floor(bands / 2);
    const halves = [
      bandSlice({ values, signed, k, rows, fromBand: 0, toBand: cut }),
      bandSlice({ values, signed, k, rows, fromBand: cut, toBand: bands }),
    ];
    for (const parts of [[whole], halves]) {
      const pairs = parts.flatMap((p) => Array.from(p.a, (a, i) => `${a}:${p.b[i]}`));
      expect(tally(pairs)).toEqual(expected);
      expect(parts.reduce((s, p) => s + p.buckets, 0)).toBe(bruteBuckets(values, sizes, k, bands, rows));
    }
  });

  it.each([
    [4, 3],
    [12, 1],
    [2, 5],
  ])('%i bands × %i rows: the bands job emits the same pairs and counts the same buckets', (bands, rows) => {
    const settings = resolveSettings(minhashParams.parse({ permutations: k, bands, rows }), { minScore: Number.MIN_VALUE, seed: 1 });
    const records = sizes.map((size, d) => [String(d), size === 0 ? '0' : encodeSignature(size, values, d, k)] as const);
    const run = runJobInMemory(bandsJob(settings), records);
    expect(tally(run.records.map(([key]) => key))).toEqual(bruteForce(values, sizes, k, bands, rows));
    expect(run.counters['minhash-bands']?.buckets).toBe(bruteBuckets(values, sizes, k, bands, rows));
  });
});

describe('LSH buckets whose slots share a hash', () => {
  /** The kernel's hash of a one-row band (FNV-1a over its two words). */
  const bandHash = (hi: number, lo: number): number => Math.imul(Math.imul(0x811c9dc5 ^ hi, 0x01000193) ^ lo, 0x01000193) >>> 0;

  /** Two different slots with the same hash, found by drawing slots until two collide (the birthday bound: about 2^16 draws). */
  function collidingSlots(): [[number, number], [number, number]] {
    const random = mulberry32(11);
    const seen = new Map<number, [number, number]>();
    for (;;) {
      const slot: [number, number] = [Math.floor(random() * 2 ** 29), Math.floor(random() * 2 ** 32)];
      const h = bandHash(...slot);
      const other = seen.get(h);
      if (other && (other[0] !== slot[0] || other[1] !== slot[1])) return [other, slot];
      seen.set(h, slot);
    }
  }

  it('keeps them in separate buckets, interleaved as they are', () => {
    const [x, y] = collidingSlots();
    expect(bandHash(...x)).toBe(bandHash(...y));
    // documents 0, 2, 4 and 6 hold x, 1, 3 and 5 hold y; 7 holds another slot
    const slots = [x, y, x, y, x, y, x, [5, 5]];
    const values = Uint32Array.from(slots.flat());
    const sizes = slots.map(() => 1);
    const signed = Uint32Array.from(slots.keys());
    const r = bandSlice({ values, signed, k: 1, rows: 1, fromBand: 0, toBand: 1 });
    const pairs = Array.from(r.a, (a, i) => `${a}:${r.b[i]}`);
    expect(tally(pairs)).toEqual(bruteForce(values, sizes, 1, 1, 1));
    expect(r.buckets).toBe(bruteBuckets(values, sizes, 1, 1, 1));
    expect(r.buckets).toBe(2);
  });
});

/**
 * The acceptance interval of a Binomial(T, P) count at a false alarm rate of 10^−4 a side,
 * computed exactly from its probability mass function.
 */
function binomialInterval(trials: number, p: number): [number, number] {
  const logPmf = (x: number): number => {
    let lc = 0;
    for (let i = 1; i <= x; i++) lc += Math.log((trials - x + i) / i);
    return lc + x * Math.log(p) + (trials - x) * Math.log1p(-p);
  };
  const pmf = Array.from({ length: trials + 1 }, (_, x) => Math.exp(logPmf(x)));
  let lo = 0;
  for (let tail = 0; lo < trials && tail + (pmf[lo] as number) <= 1e-4; lo++) tail += pmf[lo] as number;
  let hi = trials;
  for (let tail = 0; hi > 0 && tail + (pmf[hi] as number) <= 1e-4; hi--) tail += pmf[hi] as number;
  return [lo, hi];
}

describe('the S-curve', () => {
  const TRIALS = 400;
  const bands = 20;
  const rows = 5;
  const k = bands * rows;

  it.each([
    [20, 40, 40],
    [40, 30, 30],
    [50, 25, 25],
    [60, 20, 20],
    [80, 10, 10],
  ])('a planted pair of J = %i/100 becomes a candidate with probability 1 − (1 − J^5)^20', (c, a, b) => {
    const pair = plantedPair(c, a, b, BigInt(31 * c));
    let candidates = 0;
    for (let t = 0; t < TRIALS; t++) {
      const values = signPair(pair, 'k-permutation', k, null, 5000 + t);
      const s = bandSlice({ values, signed: Uint32Array.of(0, 1), k, rows, fromBand: 0, toBand: bands });
      if (s.a.length > 0) candidates++;
    }
    const [lo, hi] = binomialInterval(TRIALS, candidateProbability(pair.jaccard, bands, rows));
    expect(candidates).toBeGreaterThanOrEqual(lo);
    expect(candidates).toBeLessThanOrEqual(hi);
  });
});
