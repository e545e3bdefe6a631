import { describe, expect, it } from 'vitest';
import { fingerprintSlice, sortEntries } from '../../../algorithms/text/features.ts';
import { shingleFingerprints } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { mulberry32 } from './random-text.ts';

/** The entries sorted by a second method: key words, then the order they came in (stability). */
function bruteForce(keys: Uint32Array, owners: Uint32Array, width: number): [number[], number[]] {
  const idx = Array.from(owners.keys()).sort((i, j) => {
    for (let w = 0; w < width; w++) if (keys[i * width + w] !== keys[j * width + w]) return (keys[i * width + w] as number) - (keys[j * width + w] as number);
    return i - j;
  });
  return [idx.flatMap((i) => Array.from(keys.subarray(i * width, (i + 1) * width))), idx.map((i) => owners[i] as number)];
}

function randomEntries(n: number, width: number, seed: number, distinctTops: number): [Uint32Array, Uint32Array] {
  const random = mulberry32(seed);
  const keys = new Uint32Array(n * width);
  for (let i = 0; i < n * width; i++) keys[i] = Math.floor(random() * 2 ** 32) >>> 0;
  // Few distinct top halves and repeated keys: big buckets, equal keys from several owners.
  for (let i = 0; i < n; i++) keys[i * width] = ((Math.floor(random() * distinctTops) << 16) | ((keys[i * width] as number) & 0xffff)) >>> 0;
  for (let i = 1; i < n; i += 3) keys.copyWithin(i * width, (i - 1) * width, i * width);
  return [keys, Uint32Array.from({ length: n }, (_, i) => i)];
}

describe('sortEntries', () => {
  it.each([
    [2, 5000, 65536], // a few entries a bucket: insertion
    [4, 5000, 20], // hundreds a bucket: the merge sort
    [2, 3000, 1],
    [2, 5000, 20], // two-word keys, hundreds a bucket out of order: the merge sort
  ])('sorts width-%i keys stably, as a comparison sort does (%i entries, %i top values)', (width, n, tops) => {
    const [keys, owners] = randomEntries(n, width, n + tops, tops);
    const [k, o] = sortEntries(keys.slice(), owners.slice(), width);
    const [bk, bo] = bruteForce(keys, owners, width);
    expect(Array.from(k)).toEqual(bk);
    expect(Array.from(o)).toEqual(bo);
  });

  it('leaves a big bucket already in order as it is, equal keys in the order they came', () => {
    const [keys, owners] = randomEntries(3000, 2, 7, 1);
    const [sk] = bruteForce(keys, owners, 2);
    const sorted = Uint32Array.from(sk);
    // owners in reverse: equal keys must keep this order, not the owners' (stability)
    const reversed = Uint32Array.from({ length: 3000 }, (_, i) => 3000 - i);
    const [k, o] = sortEntries(sorted.slice(), reversed.slice(), 2);
    expect(Array.from(k)).toEqual(Array.from(sorted));
    expect(Array.from(o)).toEqual(Array.from(reversed));
  });

  it('sorts a slice too large for buckets with the LSD radix sort, alike', () => {
    const n = 65536 * 32 + 1;
    const [keys, owners] = randomEntries(n, 2, 5, 65536);
    const [k, o] = sortEntries(keys.slice(), owners.slice(), 2);
    for (let i = 1; i < n; i++) {
      const order = (k[2 * i - 2] as number) - (k[2 * i] as number) || (k[2 * i - 1] as number) - (k[2 * i + 1] as number) || (o[i - 1] as number) - (o[i] as number);
      if (order >= 0) throw new Error(`entries ${i - 1} and ${i} are out of order`);
    }
  });
});

describe('fingerprintSlice', () => {
  it("gives each document's distinct fingerprints, sorted by fingerprint then document", () => {
    const texts = ['one two three four five six', 'one two three four five six', 'six five four three two one', 'one two one two one two', ''];
    const shingle = { unit: 'word', size: 2 } as const;
    const s = fingerprintSlice({ texts, firstDoc: 10, shingle, kind: 'rabin64' });
    const expected: [string, number][] = [];
    texts.forEach((t, d) => {
      const fps = shingleFingerprints(normalize(t), shingle, 'rabin64');
      const set = new Set<string>();
      for (let i = 0; i < fps.count; i++) set.add(`${fps.data[2 * i]!.toString(16).padStart(8, '0')}${fps.data[2 * i + 1]!.toString(16).padStart(8, '0')}`);
      for (const h of set) expected.push([h, 10 + d]);
    });
    expected.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
    const got = Array.from(s.owners, (o, i) => [`${s.keys[2 * i]!.toString(16).padStart(8, '0')}${s.keys[2 * i + 1]!.toString(16).padStart(8, '0')}`, o]);
    expect(got).toEqual(expected);
  });
});
