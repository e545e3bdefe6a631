import { describe, expect, it } from 'vitest';
import { hadoopHashBytes, hadoopPartition } from '../../../harness/mapreduce/partition.ts';

/**
 * A second implementation with Java semantics spelled out in BigInt: `int hash = 1; for (byte b :
 * bytes) hash = 31 * hash + b;` wraps to 32 bits, then `(hash & Integer.MAX_VALUE) % n`.
 */
function javaPartition(key: string, n: number): number {
  let hash = 1n;
  for (const byte of Buffer.from(key, 'utf8')) {
    const signed = byte >= 128 ? BigInt(byte - 256) : BigInt(byte);
    hash = BigInt.asIntN(32, 31n * hash + signed);
  }
  return Number((hash & 0x7fffffffn) % BigInt(n));
}

describe('hadoopPartition (HashPartitioner on a Text key)', () => {
  it('hashes "a" to 31*1 + 97 = 128: partition 128 % 3 = 2, 128 % 7 = 2', () => {
    expect(hadoopHashBytes(Buffer.from('a'))).toBe(128);
    expect(hadoopPartition('a', 3)).toBe(2);
    expect(hadoopPartition('a', 7)).toBe(2);
    expect(hadoopPartition('a', 2)).toBe(0);
  });

  it('hashes "ab" to 31*128 + 98 = 4066: 4066 % 3 = 1 (4065 = 3*1355), 4066 % 7 = 6 (4060 = 7*580)', () => {
    expect(hadoopHashBytes(Buffer.from('ab'))).toBe(4066);
    expect(hadoopPartition('ab', 3)).toBe(1);
    expect(hadoopPartition('ab', 7)).toBe(6);
  });

  it('hashes the empty key to the seed 1', () => {
    expect(hadoopHashBytes(Buffer.alloc(0))).toBe(1);
    expect(hadoopPartition('', 3)).toBe(1);
  });

  // "é" is UTF-8 C3 A9, signed bytes -61 and -87: 31*1 - 61 = -30; 31*(-30) - 87 = -1017.
  // -1017 & 0x7fffffff = 2^31 - 1017 = 2147482631. 2^31 ≡ 2 (mod 3) and ≡ 2 (mod 7) (2^3 ≡ 1 mod 7),
  // 1017 ≡ 0 (mod 3) and ≡ 2 (mod 7) (1015 = 7*145): partitions 2 of 3 and 0 of 7, and 1 of 2 (odd).
  it('takes non-ASCII keys as signed UTF-8 bytes: "é" hashes to -1017', () => {
    expect(hadoopHashBytes(Buffer.from('é'))).toBe(-1017);
    expect(hadoopPartition('é', 3)).toBe(2);
    expect(hadoopPartition('é', 7)).toBe(0);
    expect(hadoopPartition('é', 2)).toBe(1);
  });

  it('agrees with a BigInt Java-semantics implementation on long, overflowing and non-ASCII keys', () => {
    const keys = ['hadoop', 'mr1-shingle-pairs', '0:1', '12 34 56 78', 'ffffffffffffffff', 'Grüße aus Köln', '日本語のキー', 'a\\tb'];
    for (let i = 0; i < 200; i++) keys.push(`${(i * 2654435761) % 1e9}:${i * 7919}`);
    for (const key of keys) {
      for (const n of [1, 2, 3, 7, 16, 1000]) expect(hadoopPartition(key, n), `${key} over ${n}`).toBe(javaPartition(key, n));
    }
  });

  it('hashes a byte range of a larger buffer like the bytes alone', () => {
    const line = Buffer.from('Grüße\tvalue');
    expect(hadoopHashBytes(line, 0, line.indexOf(9))).toBe(hadoopHashBytes(Buffer.from('Grüße')));
  });

  it('rejects a partition count below 1', () => {
    expect(() => hadoopPartition('a', 0)).toThrow(/positive integer/);
  });
});
