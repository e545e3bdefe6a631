import { describe, expect, it } from 'vitest';
import * as features from '../../../algorithms/text/features.ts';
import { fingerprintSlice, keyRangeCuts, mergeOnThreads, mergeSlices, type DocumentFeatures, type SortedSlice } from '../../../algorithms/text/features.ts';
import { shingleFingerprints } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { mulberry32, randomText } from './random-text.ts';

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

/** Runs an export of features.ts as a worker thread would: the payload cloned, shared arrays shared. */
const onThread = <T,>(name: 'mergeKeyRange' | 'scatterKeyRange', payload: unknown): Promise<T> =>
  Promise.resolve((features[name] as (p: unknown) => unknown)(structuredClone(payload)) as T);

const ARRAYS = ['words', 'postStart', 'postDocs', 'docStart', 'ids', 'entryPos'] as const;

function plain(f: DocumentFeatures): Record<string, unknown> {
  return { width: f.width, docs: f.docs, fingerprints: f.fingerprints, ...Object.fromEntries(ARRAYS.map((a) => [a, Array.from(f[a])])) };
}

/** The corpus cut into `cuts.length + 1` slices, fingerprinted with shared arrays. */
function slicesOf(texts: readonly string[], cuts: readonly number[], kind: 'rabin64' | 'md5'): SortedSlice[] {
  const bounds = [0, ...cuts, texts.length];
  return bounds.slice(1).map((to, i) => fingerprintSlice({ texts: texts.slice(bounds[i], to), firstDoc: bounds[i]!, shingle: { unit: 'word', size: 2 }, kind, shared: true }));
}

describe('mergeOnThreads', () => {
  const random = mulberry32(11);
  // Few distinct words: fingerprints shared by many documents across the slices.
  const vocabulary = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const texts = Array.from({ length: 60 }, (_, d) =>
    d % 13 === 0 ? '' : d % 7 === 0 ? randomText(random, 80) : Array.from({ length: 2 + Math.floor(random() * 12) }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' '),
  );

  it.each([
    ['rabin64', [20, 41], 2],
    ['rabin64', [20, 41], 5],
    ['rabin64', [33], 1],
    ['md5', [10, 20, 30], 3],
    ['rabin64', [0, 60], 4], // empty first and last slices
  ] as const)('gives the features mergeSlices gives (%s, slices cut at %j, %i ranges)', async (kind, cuts, ranges) => {
    const slices = slicesOf(texts, cuts, kind);
    const serial = mergeSlices(slices);
    const threaded = await mergeOnThreads(slices, ranges, onThread);
    expect(plain(threaded)).toEqual(plain(serial));
    for (const a of ARRAYS.filter((x) => x !== 'words')) expect(threaded[a].buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('gives each distinct fingerprint, in order, the documents holding it (grouped by a Map)', async () => {
    const slices = slicesOf(texts, [25], 'rabin64');
    const f = await mergeOnThreads(slices, 3, onThread);
    const holders = new Map<string, number[]>();
    for (const x of slices) {
      x.owners.forEach((d, i) => {
        const key = `${x.keys[2 * i]!.toString(16).padStart(8, '0')}${x.keys[2 * i + 1]!.toString(16).padStart(8, '0')}`;
        holders.set(key, [...(holders.get(key) ?? []), d]);
      });
    }
    const expected = [...holders.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, docs]) => [key, [...new Set(docs)].sort((a, b) => a - b)]);
    const got = Array.from({ length: f.fingerprints }, (_, id) => [
      `${f.words[2 * id]!.toString(16).padStart(8, '0')}${f.words[2 * id + 1]!.toString(16).padStart(8, '0')}`,
      Array.from(f.postDocs.subarray(f.postStart[id], f.postStart[id + 1])),
    ]);
    expect(got).toEqual(expected);
  });

  it("lists each document's fingerprints once, ascending, with its place in their postings (a brute-force transpose)", async () => {
    const f = await mergeOnThreads(slicesOf(texts, [25], 'rabin64'), 3, onThread);
    for (let d = 0; d < f.docs; d++) {
      const expected: [number, number][] = [];
      for (let id = 0; id < f.fingerprints; id++) {
        const docs = Array.from(f.postDocs.subarray(f.postStart[id], f.postStart[id + 1]));
        if (docs.includes(d)) expected.push([id, docs.indexOf(d)]);
      }
      const got = Array.from(f.ids.subarray(f.docStart[d], f.docStart[d + 1]), (id, i) => [id, f.entryPos[f.docStart[d]! + i]!]);
      expect(got).toEqual(expected);
    }
  });

  it('merges no documents and no entries', async () => {
    const f = await mergeOnThreads([fingerprintSlice({ texts: [], firstDoc: 0, shingle: { unit: 'word', size: 2 }, kind: 'rabin64', shared: true })], 2, onThread);
    expect(plain(f)).toEqual(plain(mergeSlices([fingerprintSlice({ texts: [], firstDoc: 0, shingle: { unit: 'word', size: 2 }, kind: 'rabin64' })])));
  });
});

describe('keyRangeCuts', () => {
  it('cuts sorted keys where their first word reaches each equal range of 2^32', () => {
    // first words: 0, 5, 2^31 − 1, 2^31, 2^31, 3·2^30, 2^32 − 1 (two words a key)
    const firsts = [0, 5, 2 ** 31 - 1, 2 ** 31, 2 ** 31, 3 * 2 ** 30, 2 ** 32 - 1];
    const keys = Uint32Array.from(firsts.flatMap((w, i) => [w, i]));
    expect(keyRangeCuts(keys, 2, firsts.length, 1)).toEqual([0, 7]);
    expect(keyRangeCuts(keys, 2, firsts.length, 2)).toEqual([0, 3, 7]);
    // bounds 2^30, 2^31, 3·2^30
    expect(keyRangeCuts(keys, 2, firsts.length, 4)).toEqual([0, 2, 3, 5, 7]);
    expect(keyRangeCuts(new Uint32Array(0), 2, 0, 3)).toEqual([0, 0, 0, 0]);
  });
});
