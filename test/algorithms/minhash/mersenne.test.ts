/**
 * Universal hashing (a·x + b) mod 2^61 − 1 must be exact. Expected values come from BigInt
 * arithmetic (written out here) and from Python's arbitrary-precision integers:
 *   python3 -c "p=(1<<61)-1; print(hex((a*x+b)%p))" for each (a, x, b) below.
 */
import { describe, expect, it } from 'vitest';
import { fromBigInt, MERSENNE_61 as P, mulAddMod, reduceWords, toBigInt } from '../../../algorithms/minhash/mersenne.ts';
import { SplitMix64 } from '../../../algorithms/minhash/permutations.ts';

const halves = (v: bigint): [number, number] => fromBigInt(v);

function exact(a: bigint, x: bigint, b: bigint): bigint {
  const out = new Uint32Array(2);
  const [ah, al] = halves(a);
  const [xh, xl] = halves(x);
  const [bh, bl] = halves(b);
  mulAddMod(ah, al, xh, xl, bh, bl, out, 0);
  return toBigInt(out[0] as number, out[1] as number);
}

// (a, x, b, (a·x + b) mod p) computed with Python integers.
const PYTHON: [bigint, bigint, bigint, bigint][] = [
  [0x1ffffffffffffffen, 0x1ffffffffffffffen, 0x1ffffffffffffffen, 0x0n],
  [0x1234567890abcdefn, 0xfedcba987654321n, 0x2an, 0xb46a8954c12049an],
  [0x1000000000003039n, 0x1ffffffffffffffdn, 0x20000000000001n, 0x1fffffffff9f8en],
  [0x3n, 0x5n, 0x7n, 0x16n],
  [0x100000000n, 0x100000000n, 0x0n, 0x8n],
  [0x1ffffffffffffff3n, 0x1ffffffffffffff0n, 0x0n, 0xb4n],
];

describe('mulAddMod', () => {
  it.each(PYTHON)('(%s·%s + %s) mod p = %s as Python computes it', (a, x, b, expected) => {
    expect(exact(a, x, b)).toBe(expected);
  });

  it('equals BigInt arithmetic on 200,000 random and boundary operands', () => {
    const g = new SplitMix64(20261123n);
    const boundary = [0n, 1n, 2n, P - 1n, P - 2n, (1n << 32n) - 1n, 1n << 32n, 1n << 53n, (1n << 53n) + 1n, 1n << 60n];
    for (const a of boundary) for (const x of boundary) for (const b of boundary) expect(exact(a, x, b)).toBe((a * x + b) % P);
    for (let i = 0; i < 200_000; i++) {
      const a = g.next() % P;
      const x = g.next() % P;
      const b = g.next() % P;
      const got = exact(a, x, b);
      if (got !== (a * x + b) % P) expect(got).toBe((a * x + b) % P);
    }
  });

  it('is what double arithmetic gets wrong beyond 2^53', () => {
    // The computation a naive JavaScript MinHash does: p itself is not a double (it rounds to
    // 2^61), and the 122-bit product keeps 53 bits.
    const naive = (a: bigint, x: bigint, b: bigint): bigint => BigInt((Number(a) * Number(x) + Number(b)) % Number(P));
    let wrong = 0;
    for (const [a, x, b, expected] of PYTHON) {
      expect(exact(a, x, b)).toBe(expected);
      if (naive(a, x, b) !== expected) wrong++;
    }
    expect(naive(1n << 32n, 1n << 32n, 0n)).toBe(0n); // 2^64 mod p is 8
    expect(wrong).toBeGreaterThanOrEqual(4);
  });
});

describe('reduceWords', () => {
  it('reduces 64-bit and 128-bit fingerprints mod p exactly', () => {
    const g = new SplitMix64(7n);
    const out = new Uint32Array(2);
    const words = (v: bigint, n: number): Uint32Array =>
      Uint32Array.from({ length: n }, (_, i) => Number((v >> BigInt(32 * (n - 1 - i))) & 0xffffffffn));
    const specials64 = [0n, P - 1n, P, P + 1n, (1n << 64n) - 1n, 2n * P, 2n * P + 1n];
    for (const v of [...specials64, ...Array.from({ length: 20_000 }, () => g.next())]) {
      reduceWords(words(v, 2), 0, 2, out, 0);
      expect(toBigInt(out[0] as number, out[1] as number)).toBe(v % P);
    }
    const specials128 = [0n, P, (1n << 128n) - 1n, P * P, (P << 61n) + P, 1n << 122n];
    for (const v of [...specials128, ...Array.from({ length: 20_000 }, () => (g.next() << 64n) | g.next())]) {
      reduceWords(words(v, 4), 0, 4, out, 0);
      expect(toBigInt(out[0] as number, out[1] as number)).toBe(v % P);
    }
  });
});
