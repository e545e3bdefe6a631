/**
 * The WebAssembly hash loops against exact arithmetic: every slot of a k-permutation signature
 * is min over the set of (a_i·x + b_i) mod p, computed here with BigInt (and, for the property
 * test, with `mersenne.ts`'s `mulAddMod`, the reference in doubles). The SIMD loop and the scalar
 * loop must both give it, bit for bit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashKernel, SIMD_AVAILABLE, type ResidueSets } from '../../../algorithms/minhash/hash-kernel.ts';
import { SIMD_MODULE_BYTES } from '../../../algorithms/minhash/hash-kernel-simd.ts';
import { fromBigInt, MERSENNE_61 as P, mulAddMod, toBigInt } from '../../../algorithms/minhash/mersenne.ts';
import { SplitMix64 } from '../../../algorithms/minhash/permutations.ts';

const g = new SplitMix64(99n);

function setsOf(sets: readonly (readonly bigint[])[]): ResidueSets {
  const all = sets.flat();
  const residues = new Uint32Array(2 * all.length);
  all.forEach((v, i) => residues.set(fromBigInt(v), 2 * i));
  const starts = new Uint32Array(sets.length + 1);
  sets.forEach((s, i) => (starts[i + 1] = (starts[i] as number) + s.length));
  return { residues, starts };
}

function permWords(ab: readonly (readonly [bigint, bigint])[]): Uint32Array {
  const words = new Uint32Array(4 * ab.length);
  ab.forEach(([a, b], i) => {
    words.set(fromBigInt(a), 4 * i);
    words.set(fromBigInt(b), 4 * i + 2);
  });
  return words;
}

const randomResidues = (n: number): bigint[] => Array.from({ length: n }, () => g.next() % P);
const randomPerms = (k: number): [bigint, bigint][] => Array.from({ length: k }, () => [1n + (g.next() % (P - 1n)), g.next() % P]);
const slot = (out: Uint32Array, i: number): bigint => toBigInt(out[2 * i] as number, out[2 * i + 1] as number);

/** The signatures by BigInt: p for an empty set, as the loops leave it. */
function expectedBigInt(sets: readonly (readonly bigint[])[], ab: readonly (readonly [bigint, bigint])[]): bigint[] {
  return sets.flatMap((set) => ab.map(([a, b]) => set.reduce((m, x) => ((a * x + b) % P < m ? (a * x + b) % P : m), P)));
}

/** The signatures by `mulAddMod` (the reference in doubles), as hi/lo words. */
function expectedMersenne(sets: ResidueSets, perms: Uint32Array, k: number): Uint32Array {
  const out = new Uint32Array(2 * k * (sets.starts.length - 1));
  const h = new Uint32Array(2);
  for (let s = 0; s + 1 < sets.starts.length; s++) {
    for (let i = 0; i < k; i++) {
      let hi = 0x1fffffff;
      let lo = 0xffffffff;
      for (let e = sets.starts[s] as number; e < (sets.starts[s + 1] as number); e++) {
        const r = sets.residues;
        mulAddMod(perms[4 * i] as number, perms[4 * i + 1] as number, r[2 * e] as number, r[2 * e + 1] as number, perms[4 * i + 2] as number, perms[4 * i + 3] as number, h, 0);
        if ((h[0] as number) < hi || ((h[0] as number) === hi && (h[1] as number) < lo)) [hi, lo] = [h[0] as number, h[1] as number];
      }
      out[2 * (s * k + i)] = hi;
      out[2 * (s * k + i) + 1] = lo;
    }
  }
  return out;
}

// Residues at the edges of the halves the loops split them into (bit 31, bit 32) and of p.
const EDGES = [0n, 1n, 2n, (1n << 31n) - 1n, 1n << 31n, (1n << 32n) - 1n, 1n << 32n, 1n << 60n, P - 2n, P - 1n];
// a = 1 and b = p − 1 or 1 make a·x + b land on p and just above it (the last reduction's case).
const EDGE_PERMS: [bigint, bigint][] = [
  [1n, 0n],
  [1n, 1n],
  [1n, P - 1n],
  [2n, P - 1n],
  [P - 1n, 0n],
  [P - 1n, P - 1n],
  [(1n << 31n) - 1n, 1n << 31n],
  [1n << 32n, (1n << 32n) - 1n],
];

const LOOPS = [
  { name: 'scalar', simd: false },
  { name: 'SIMD', simd: true },
] as const;

describe('WebAssembly SIMD', () => {
  it('is available on the Node versions the project supports, so the SIMD loop is the default', () => {
    expect(SIMD_AVAILABLE).toBe(true);
    expect((globalThis as unknown as { WebAssembly: { validate(b: Uint8Array): boolean } }).WebAssembly.validate(SIMD_MODULE_BYTES)).toBe(true);
  });
});

describe.each(LOOPS)('the $name k-permutation loop', ({ simd }) => {
  const kernel = new HashKernel({ simd });

  it('gives min over the set of (a_i·x + b_i) mod p at the edge residues, for sets of 0 to 9 elements and k = 1, 2, 3, 8', () => {
    // every set size from 0 to 9 (each size modulo 4 more than once), edge residues cycled
    const sets = Array.from({ length: 10 }, (_, n) => Array.from({ length: n }, (_, j) => EDGES[(n + j) % EDGES.length] as bigint));
    for (const k of [1, 2, 3, 8]) {
      const ab = EDGE_PERMS.slice(0, k);
      const out = kernel.signatures(setsOf(sets), permWords(ab), k, 'k-permutation');
      expect(Array.from({ length: sets.length * k }, (_, i) => slot(out, i))).toEqual(expectedBigInt(sets, ab));
    }
  });

  it('gives each edge residue alone, and each pair of them, its exact hash under the edge permutations', () => {
    const sets = [...EDGES.map((x) => [x]), ...EDGES.flatMap((x, i) => EDGES.slice(i).map((y) => [x, y]))];
    const out = kernel.signatures(setsOf(sets), permWords(EDGE_PERMS), EDGE_PERMS.length, 'k-permutation');
    expect(Array.from({ length: sets.length * EDGE_PERMS.length }, (_, i) => slot(out, i))).toEqual(expectedBigInt(sets, EDGE_PERMS));
  });

  it('orders hash values around 2^52 exactly (the SIMD loop compares them as doubles, below 2^52 denormal)', () => {
    const t = 1n << 52n;
    const sets = [[5n, 3n, t - 1n, 7n], [t + 1n, t, t - 1n], [t, t + 1n, 2n * t, t * 3n, t + 2n], [P - 1n, t * t, t - 2n, 0n, 1n]];
    const ab: [bigint, bigint][] = [
      [1n, 0n],
      [1n, 1n],
      [2n, 0n],
    ];
    const out = kernel.signatures(setsOf(sets), permWords(ab), 3, 'k-permutation');
    expect(Array.from({ length: sets.length * 3 }, (_, i) => slot(out, i))).toEqual(expectedBigInt(sets, ab));
  });

  it('gives the BigInt signatures of random sets of odd and even sizes at k = 128', () => {
    const sets = [[], ...[1, 2, 3, 4, 5, 300, 301, 64, 7].map(randomResidues)];
    const ab = randomPerms(128);
    const out = kernel.signatures(setsOf(sets), permWords(ab), 128, 'k-permutation');
    expect(Array.from({ length: sets.length * 128 }, (_, i) => slot(out, i))).toEqual(expectedBigInt(sets, ab));
  });

  it('reuses its memory for a larger call after a smaller one', () => {
    const ab = randomPerms(8);
    const small = setsOf([randomResidues(3)]);
    const large = setsOf([randomResidues(20_000), randomResidues(10)]);
    const k = new HashKernel({ simd });
    k.signatures(small, permWords(ab), 8, 'k-permutation');
    expect(k.signatures(large, permWords(ab), 8, 'k-permutation')).toEqual(new HashKernel({ simd }).signatures(large, permWords(ab), 8, 'k-permutation'));
  });
});

describe('the SIMD and the scalar k-permutation loops', () => {
  const residue = fc.oneof(fc.constantFrom(...EDGES), fc.bigInt({ min: 0n, max: P - 1n }));
  const perm = fc.tuple(fc.oneof(fc.constantFrom(1n, 2n, P - 1n), fc.bigInt({ min: 1n, max: P - 1n })), fc.oneof(fc.constantFrom(0n, 1n, P - 1n), fc.bigInt({ min: 0n, max: P - 1n })));
  const simd = new HashKernel({ simd: true });
  const scalar = new HashKernel({ simd: false });

  it('equal each other and mulAddMod on random sets (edge residues mixed in), k = 1, 2, 3, 5 or 128', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(residue, { maxLength: 9 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(1, 2, 3, 5, 128).chain((k) => fc.array(perm, { minLength: k, maxLength: k })),
        (sets, ab) => {
          const input = setsOf(sets);
          const words = permWords(ab);
          const expected = expectedMersenne(input, words, ab.length);
          expect(simd.signatures(input, words, ab.length, 'k-permutation')).toEqual(expected);
          expect(scalar.signatures(input, words, ab.length, 'k-permutation')).toEqual(expected);
        },
      ),
      { numRuns: 200, seed: 23 },
    );
  });
});

describe('the one-permutation loop', () => {
  it('puts in bin ⌊⌊h/2^29⌋·k/2^32⌋ the least h falling in it, p when empty', () => {
    const k = 24;
    const sets = [3, 40, 1000].map(randomResidues);
    const [[a, b]] = randomPerms(1) as [[bigint, bigint]];
    const out = new HashKernel().signatures(setsOf(sets), permWords([[a, b]]), k, 'one-permutation');
    sets.forEach((set, s) => {
      const expected = Array.from({ length: k }, () => P);
      for (const x of set) {
        const h = (a * x + b) % P;
        const bin = Number(((h >> 29n) * BigInt(k)) >> 32n);
        if (h < (expected[bin] as bigint)) expected[bin] = h;
      }
      expected.forEach((v, j) => expect(slot(out, s * k + j)).toBe(v));
    });
  });
});
