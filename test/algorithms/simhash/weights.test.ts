/**
 * Each step of the weighting (thesis chapters 3 to 5) on documents small enough to weigh by
 * hand, and the whole original simhash against an independent Python implementation.
 */
import { describe, expect, it } from 'vitest';
import { isNumberOrDate, stripNumbersDates } from '../../../algorithms/simhash/clean.ts';
import { fingerprintToHex, simhashInto } from '../../../algorithms/simhash/fingerprint.ts';
import { hashSeeds } from '../../../algorithms/simhash/feature-hash.ts';
import { dfFromRecords } from '../../../algorithms/simhash/jobs.ts';
import { FeatureWeigher, type WeightedFeatures } from '../../../algorithms/simhash/weights.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { hashHex, options, wordDf } from './support.ts';

/** feature hash (hex) → weight, in the weigher's order */
function table(f: WeightedFeatures): [string, number][] {
  const rows: [string, number][] = [];
  for (let i = 0; i < f.count; i++) {
    rows.push([(f.hi[i] as number).toString(16).padStart(8, '0') + (f.lo[i] as number).toString(16).padStart(8, '0'), f.weight[i] as number]);
  }
  return rows;
}

// df: a 2, b 1, c 4 of N = 4 documents
const corpus = ['a b a c', 'a c', 'c', 'c d'];
const df = wordDf(corpus);
const [A, B, C] = [hashHex('a'), hashHex('b'), hashHex('c')];

function weigh(raw: Record<string, unknown>, text = 'a b a c', meta?: Record<string, string>): [string, number][] {
  return table(new FeatureWeigher(options(raw), df).weigh(text, meta));
}

describe('tf-idf weights (thesis §3.3)', () => {
  it('weighs tf/df in order of first occurrence: a 2/2, b 1/1, c 1/4', () => {
    expect(weigh({})).toEqual([[A, 1], [B, 1], [C, 0.25]]);
  });

  it('weighs tf·log(N/df) with idf: log: a 2·ln 2, b ln 4, c 0', () => {
    const w = weigh({ idf: 'log' });
    expect(w.map((r) => r[0])).toEqual([A, B, C]);
    expect(w[0]?.[1]).toBeCloseTo(2 * Math.log(2), 14);
    expect(w[1]?.[1]).toBeCloseTo(Math.log(4), 14);
    expect(w[2]?.[1]).toBe(0);
  });

  it('counts a feature missing from the df table as df = 1', () => {
    expect(weigh({}, 'zebra a')).toEqual([[hashHex('zebra'), 1], [A, 0.5]]);
  });

  it('normalizes the text first', () => {
    expect(weigh({}, 'A, b! A... C')).toEqual(weigh({}));
  });
});

describe('Table 6.1 variants', () => {
  it('low threshold (§5.1): weights under c·max become 0; true is the thesis c = 0.01', () => {
    expect(weigh({ low_threshold: 0.3 })).toEqual([[A, 1], [B, 1], [C, 0]]);
    expect(weigh({ low_threshold: 0.25 })).toEqual([[A, 1], [B, 1], [C, 0.25]]); // 0.25 is not under 0.25
    expect(weigh({ low_threshold: true })).toEqual([[A, 1], [B, 1], [C, 0.25]]);
    expect(options({ low_threshold: true }).lowThreshold).toBe(0.01);
  });

  it('high threshold (§5.1): only weights over c·max stay; true is c = 0.5', () => {
    expect(weigh({ high_threshold: true })).toEqual([[A, 1], [B, 1], [C, 0]]);
    expect(weigh({ high_threshold: 0.2 })).toEqual([[A, 1], [B, 1], [C, 0.25]]);
  });

  it('top n keeps the n largest, the earlier of equal weights', () => {
    expect(weigh({ top_features: 1 })).toEqual([[A, 1], [B, 0], [C, 0]]);
    expect(weigh({ top_features: 2 })).toEqual([[A, 1], [B, 1], [C, 0]]);
  });

  it('cosine position function (§5.3): f(x) = cos(2πx/4)+1 = 2, 1, 0, 1 over a b a c', () => {
    // a: f(0) + f(2) = 2 + 0, b: f(1) = 1, c: f(3) = 1, then divided by df
    const w = weigh({ position: 'cosine' });
    expect(w[0]?.[1]).toBeCloseTo(2 / 2, 14);
    expect(w[1]?.[1]).toBeCloseTo(1 / 1, 14);
    expect(w[2]?.[1]).toBeCloseTo(1 / 4, 14);
  });

  it('log position scaling (§5.2): f(x) = ln(x+e)/(x+e), largest at the first word', () => {
    const f = (x: number) => Math.log(x + Math.E) / (x + Math.E);
    expect(f(0)).toBeCloseTo(1 / Math.E, 15);
    const w = weigh({ position: 'log' });
    expect(w[0]?.[1]).toBeCloseTo((f(0) + f(2)) / 2, 14);
    expect(w[1]?.[1]).toBeCloseTo(f(1), 14);
    expect(w[2]?.[1]).toBeCloseTo(f(3) / 4, 14);
  });

  it('tag boosting (§5.4): features of the tagged text ×1.5 (true), or the factor given', () => {
    expect(weigh({ tag_boost: true }, 'a b a c', { tagged: 'B\nnothing here' })).toEqual([[A, 1], [B, 1.5], [C, 0.25]]);
    expect(weigh({ tag_boost: 3 }, 'a b a c', { tagged: 'C' })).toEqual([[A, 1], [B, 1], [C, 0.75]]);
    expect(weigh({ tag_boost: true }, 'a b a c')).toEqual(weigh({}));
  });

  it('metadata (§4.1): one feature per field present, its normalized value, weighted share·max', () => {
    const meta = { subject: 'Re: Cheap MEDS!!', from: 'Bob <bob@x.org>' };
    const w = weigh({ metadata: { fields: ['subject', 'from', 'url'], share: 0.5 } }, 'a b a c', meta);
    expect(w).toEqual([[A, 1], [B, 1], [C, 0.25], [hashHex('subject:re cheap meds'), 0.5], [hashHex('from:bob bob x org'), 0.5]]);
    // the thesis' default share: the largest weight itself
    expect(weigh({ metadata: { fields: ['subject'] } }, 'a b a c', meta).at(-1)).toEqual([hashHex('subject:re cheap meds'), 1]);
  });

  it('metadata features come after thresholds, which apply to the content alone', () => {
    const w = weigh({ high_threshold: true, metadata: { fields: ['subject'], share: 0.2 } }, 'a b a c', { subject: 'x' });
    expect(w).toEqual([[A, 1], [B, 1], [C, 0], [hashHex('subject:x'), 0.2]]);
  });

  it('stripping numbers and dates (§4.2) on the thesis example', () => {
    const text = normalize("Japan's trade surplus hit 791 billion yen ($6.7 billion) in December, growing 19.9 percent");
    expect(stripNumbersDates(text)).toBe('japan s trade surplus hit billion yen billion in growing percent');
    expect(['monday', 'sept', 'thurs', '2003', 'b2b', '½'].every(isNumberOrDate)).toBe(true);
    expect(['may', 'sun', 'sat', 'wed', 'mar', 'percent'].some(isNumberOrDate)).toBe(false);
    expect(weigh({ strip_numbers_dates: true }, 'a 42 b january a c')).toEqual(weigh({}));
  });
});

describe('shingle features', () => {
  it('char shingles start at each word (the text module), hashed whole', () => {
    const o = options({ features: { unit: 'char', size: 3 } });
    const dfs = dfFromRecords([['', '1']], hashSeeds(0));
    const w = table(new FeatureWeigher(o, dfs).weigh('abc abd'));
    expect(w).toEqual([[hashHex('abc'), 1], [hashHex('abd'), 1]]);
  });

  it('word shingles of w words', () => {
    const o = options({ features: { unit: 'word', size: 2 } });
    const dfs = dfFromRecords([['', '1']], hashSeeds(0));
    const w = table(new FeatureWeigher(o, dfs).weigh('x y x y'));
    expect(w).toEqual([[hashHex('x y'), 2], [hashHex('y x'), 1]]);
  });
});

describe('the original simhash end to end', () => {
  const docs = [
    'the senate passed the medicare drug plan after democrats won the vote',
    'the senate passed the medicare drug plan after the democrats won a vote',
    'health insurance costs rose again this year for most families',
    'democrats will negotiate drug prices for medicare the senate said',
    'a cat sat on the mat and the cat slept',
    'the the the the',
  ];
  const fingerprints = (raw: Record<string, unknown>, seed = 0): (string | null)[] => {
    const weigher = new FeatureWeigher(options(raw, seed), wordDf(docs, seed));
    const out = new Uint32Array(2);
    return docs.map((d) => {
      const f = weigher.weigh(d);
      return simhashInto(f.count, f.hi, f.lo, f.weight, out, 0) ? fingerprintToHex(out[0] as number, out[1] as number) : null;
    });
  };

  // test/algorithms/simhash/reference/simhash_ref.py: words, tf-idf with df over these six documents, lookup3
  // hashlittle2 of each word's UTF-16LE bytes as (c << 32 | b), bit j of the simhash = sign of
  // the sum of ±weights over bit 63-j of the hashes; written without this project's code.
  it('equals the Python reference with idf = 1/df', () => {
    expect(fingerprints({})).toEqual(['6126d3b83a9d2f01', '622657b00abd2709', '036212a9a36b74a1', '12e214216f82bb98', '283b29477287386e', '2227672c5f8f2f81']);
  });

  it('equals the Python reference with idf = log(N/df)', () => {
    expect(fingerprints({ idf: 'log' })).toEqual(['6126d3b82abd270a', '6126d2b02a3d2609', '036212a9a36b74a1', '12f214a12f82bb98', '283b29477287386e', '2227672c5f8f2f81']);
  });

  it('equals the Python reference with the cosine and log position functions', () => {
    expect(fingerprints({ position: 'cosine' })).toEqual(['622657b80fbd2f18', '622257b94bbd0e18', '23660429eb2bf6a9', '1af210a32f80ba9c', '2e392b07720baefc', '2227672c5f8f2f81']);
    expect(fingerprints({ position: 'log' })).toEqual(['6226d3b82a9d2f01', '622657b86abd2701', '036212aba36b75a1', '12e214217f80fb98', '2a3b23657a8f2c6e', '2227672c5f8f2f81']);
  });

  it("takes lookup3's seeds from the experiment seed", () => {
    expect(fingerprints({}, 12345)).toEqual(['2cc8284eea4f5fdd', '7ed8284ceadd77d1', 'f6d206725379d685', '328a94dab08fc936', '0566a7da5be71c19', '0c695c56ec4b5a56']);
  });
});
