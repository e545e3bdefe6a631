import { describe, expect, it } from 'vitest';
import { buildPrefixIndex, countSharedPairs, distinctPostings, exactResemblance, prefixJoin, sharingLists } from '../../../algorithms/broder/prefix-join.ts';
import { sampleFeatures, unsampledCounters } from '../../../algorithms/broder/join.ts';
import { fingerprintSlice, mergeSlices, type DocumentFeatures } from '../../../algorithms/text/features.ts';
import { bruteForce, corpus, SHINGLE } from '../../support/heavy-text.ts';

function features(texts: string[]): DocumentFeatures {
  const half = Math.floor(texts.length / 2);
  return mergeSlices([
    fingerprintSlice({ texts: texts.slice(0, half), firstDoc: 0, shingle: SHINGLE, kind: 'rabin64', shared: true }),
    fingerprintSlice({ texts: texts.slice(half), firstDoc: half, shingle: SHINGLE, kind: 'rabin64', shared: true }),
  ]);
}

function joinAll(f: DocumentFeatures, floor: number, cuts: number): string[] {
  const { work: _work, ...index } = buildPrefixIndex(f, floor);
  const rows: string[] = [];
  for (let i = 0; i < cuts; i++) {
    const from = Math.floor((i * f.docs) / cuts);
    const to = Math.floor(((i + 1) * f.docs) / cuts);
    const r = prefixJoin({ index, docStart: f.docStart, ids: f.ids, floor, from, to });
    for (let k = 0; k < r.a.length; k++) rows.push(`${r.a[k]} ${r.b[k]} ${r.score[k]}`);
  }
  return rows;
}

const SEEDS = [1, 2, 3, 4, 5, 6];

describe('the prefix join', () => {
  it.each(SEEDS)('finds exactly the pairs with RR >= floor, with the definition’s scores (corpus %i)', (seed) => {
    const texts = corpus(seed, 70);
    const f = features(texts);
    const all = bruteForce(texts);
    const scores = [...new Set(all.map((p) => p.rr).filter((s) => s > 0))].sort((x, y) => x - y);
    expect(scores.length).toBeGreaterThan(10); // else the corpus shows little
    // Round floors, and floors equal to scores that occur (a pair exactly at the floor is in).
    const floors = [0.1, 0.25, 0.5, 0.8, 1, scores[Math.floor(scores.length / 3)] as number, scores[Math.floor((2 * scores.length) / 3)] as number];
    for (const floor of floors) {
      const expected = all.filter((p) => p.rr >= floor).map((p) => `${p.a} ${p.b} ${p.rr}`);
      expect(joinAll(f, floor, 1), `floor ${floor}`).toEqual(expected);
      expect(joinAll(f, floor, 4), `floor ${floor}, four ranges`).toEqual(expected);
    }
  });

  it('pairs identical documents at RR 1 and leaves empty ones out', () => {
    const f = features(['ab cd ef gh ij', '', 'ab cd ef gh ij', '', 'ab cd ef gh ij']);
    expect(joinAll(f, 1, 1)).toEqual(['0 2 1', '0 4 1', '2 4 1']);
  });

  it('gives no pair to documents sharing only boilerplate below the floor', () => {
    const boiler = 'the quick brown fox jumps';
    const texts = ['aa bb cc dd ee ff gg hh ii jj', 'kk ll mm nn oo pp qq rr ss tt', 'uu vv ww xx yy zz ab ac ad ae'].map((t) => `${t} ${boiler}`);
    const f = features(texts);
    const all = bruteForce(texts);
    expect(all.every((p) => p.rr > 0 && p.rr < 0.5)).toBe(true);
    expect(joinAll(f, 0.5, 1)).toEqual([]);
  });
});

describe('exactResemblance', () => {
  it.each(SEEDS)('scores every pair as the definition does, 0 for pairs sharing nothing (corpus %i)', (seed) => {
    const texts = corpus(seed, 40);
    const f = features(texts);
    const all = bruteForce(texts);
    const got = exactResemblance(f, Uint32Array.from(all, (p) => p.a), Uint32Array.from(all, (p) => p.b));
    expect([...got]).toEqual(all.map((p) => p.rr));
  });
});

describe('unsampledCounters', () => {
  it.each(SEEDS)('equals the counters of MR#1 without sampling (corpus %i)', (seed) => {
    const f = features(corpus(seed, 60));
    expect(unsampledCounters(f)).toEqual(sampleFeatures(f, { method: 'none' }).counters);
  });

  it('counts C(df, 2) output pairs an id, by hand', () => {
    // n = 8: "aaaa bbbb" is one shingle (9 chars: starts 0 and 5; "bbbb" runs past the end: dropped)
    // Three documents holding {aaaa bbb}: C(3,2) = 3; a fourth alone.
    const f = features(['aaaa bbbb', 'aaaa bbbb', 'aaaa bbbb', 'zzzz yyyy']);
    expect(unsampledCounters(f).output_pairs).toBe(3);
  });
});

describe('countSharedPairs', () => {
  it.each(SEEDS)('counts the pairs sharing a fingerprint, as the definition does, walking every id or one of each set with the same postings (corpus %i)', (seed) => {
    const texts = corpus(seed, 50);
    const f = features(texts);
    const expected = bruteForce(texts).filter((p) => p.rr > 0).length;
    const { docStart, ids, entryPos, postStart, postDocs, docs } = f;
    const walked = sharingLists({ postStart, postDocs, docs, walk: distinctPostings(postStart, postDocs, f.fingerprints) });
    expect(walked.ids.length).toBeLessThan(ids.length); // else the test shows nothing
    for (const lists of [{ docStart, ids, entryPos }, walked]) {
      const whole = countSharedPairs({ ...lists, postStart, postDocs, docs, from: 0, to: docs });
      const halves = countSharedPairs({ ...lists, postStart, postDocs, docs, from: 0, to: 20 }) + countSharedPairs({ ...lists, postStart, postDocs, docs, from: 20, to: docs });
      expect([whole, halves]).toEqual([expected, expected]);
    }
  });
});

describe('distinctPostings', () => {
  it('keeps one id of each set of ids held by the same documents, none held by one, by hand', () => {
    // ids 0..5: {0,1}, {2}, {0,1}, {0,1,2}, {1,2}, {0,1,2}
    const lists = [[0, 1], [2], [0, 1], [0, 1, 2], [1, 2], [0, 1, 2]];
    const postStart = Uint32Array.from([0, ...lists.map((_, i) => lists.slice(0, i + 1).flat().length)]);
    const postDocs = Uint32Array.from(lists.flat());
    const keep = distinctPostings(postStart, postDocs, lists.length);
    // One of 0 and 2, one of 3 and 5, and 4; whichever of equal lists is kept, once.
    expect([keep[0]! + keep[2]!, keep[1], keep[3]! + keep[5]!, keep[4]]).toEqual([1, 0, 1, 1]);
  });

  it.each(SEEDS)('keeps as many ids as there are distinct postings of two documents or more (corpus %i)', (seed) => {
    const f = features(corpus(seed, 50));
    const keep = distinctPostings(f.postStart, f.postDocs, f.fingerprints);
    const lists = new Set<string>();
    for (let id = 0; id < f.fingerprints; id++) {
      const list = [...f.postDocs.subarray(f.postStart[id], f.postStart[id + 1])];
      if (list.length >= 2) lists.add(list.join(' '));
    }
    expect(keep.reduce((s, k) => s + k, 0)).toBe(lists.size);
    expect(lists.size).toBeLessThan(f.fingerprints / 2); // heavy shared text: the walk is shorter
  });
});
