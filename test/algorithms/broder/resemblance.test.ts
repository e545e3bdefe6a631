import { describe, expect, it } from 'vitest';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const char5 = { shingle: { unit: 'char', size: 5 } };

describe('Broder resemblance, worked by hand', () => {
  // "ab cd ef gh", n = 5, shingles start at words 0,3,6 ("gh" would run past the end):
  //   A = {ab cd, cd ef, ef gh}
  // "ab cd ef xy": B = {ab cd, cd ef, ef xy}
  // |A ∩ B| = 2, |A ∪ B| = 4, RR = 0.5
  // "zz yy": C = {zz yy}, shares nothing.
  const docs = docSet(['ab cd ef gh', 'ab cd ef xy', 'zz yy']);

  it.each(['auto', 'jobs'] as const)('gives RR 2/4 for two of three documents (%s)', async (engine) => {
    const r = await runPlan('broder', char5, docs, { engine });
    expect(r.rows).toEqual(['0 1 0.5']);
  });

  it('counts MR#1 output pairs as one pair per shared fingerprint', async () => {
    const r = await runPlan('broder', char5, docs, { engine: 'jobs' });
    // two shared shingles, each held by 2 documents: C(2,2) + C(2,2)
    expect(r.counters['mr1-shingle-pairs']?.output_pairs).toBe(2);
    expect(r.counters['mr1-shingle-pairs']?.fingerprints).toBe(3 + 3 + 1);
    expect(r.counters['mr2-resemblance']?.distinct_pairs).toBe(1);
  });

  it('treats a document as the set of its shingles', async () => {
    // "ab ab ab ab", n = 5: starts 0,3,6 → "ab ab" three times (the one at 9 runs past the end): {ab ab}
    // "ab ab": shorter than... exactly 5 chars → {ab ab}. RR = 1/1.
    const r = await runPlan('broder', char5, docSet(['ab ab ab ab', 'ab ab']), { engine: 'auto' });
    expect(r.rows).toEqual(['0 1 1']);
  });

  it('lets a text shorter than n be one shingle', async () => {
    // "ab" (shorter than 5) is the single shingle "ab" in both documents.
    const r = await runPlan('broder', char5, docSet(['AB!', 'ab']), { engine: 'auto' });
    expect(r.rows).toEqual(['0 1 1']);
  });

  it('uses word shingles when asked', async () => {
    // w = 2: "the cat sat on the mat" → {the cat, cat sat, sat on, on the, the mat}
    //        "the cat sat on a mat"   → {the cat, cat sat, sat on, on a, a mat}
    // common 3, union 7 → 3/7
    const r = await runPlan(
      'broder',
      { shingle: { unit: 'word', size: 2 } },
      docSet(['The cat sat on the mat.', 'the cat sat on a mat']),
      { engine: 'jobs' },
    );
    expect(r.rows).toEqual([`0 1 ${3 / 7}`]);
  });
});

describe('shingle commonality threshold (Nikkhoo 3.3.2)', () => {
  // n = 5. Four documents share "ab cd" (df 4); two share "ef gh" (df 2).
  //   d0 "ab cd ef gh": {ab cd, cd ef, ef gh}          size 3
  //   d1 "ab cd ef gh ij": {ab cd, cd ef, ef gh, gh ij} size 4
  //   d2 "ab cd xx": {ab cd, cd xx}                     size 2
  //   d3 "ab cd yy": {ab cd, cd yy}                     size 2
  const docs = docSet(['ab cd ef gh', 'ab cd ef gh ij', 'ab cd xx', 'ab cd yy']);

  it('drops fingerprints shared by more than SCT documents but keeps full sizes', async () => {
    // SCT 3 drops "ab cd" (df 4). d0–d1 still share "cd ef", "ef gh": RR = 2 / (3 + 4 − 2) = 0.4.
    // Without SCT: 3 / (3 + 4 − 3) = 0.75. Pairs through "ab cd" only (d0–d2 …) vanish.
    const r = await runPlan('broder', { ...char5, sampling: { method: 'sct', threshold: 3 } }, docs, { engine: 'jobs' });
    expect(r.rows).toEqual(['0 1 0.4']);
    expect(r.counters['mr1-shingle-pairs']?.fingerprints_over_sct).toBe(1);
    // MR#1 output pairs: "cd ef" C(2,2) + "ef gh" C(2,2) = 2 (without SCT: + C(4,2) = 6 → 8)
    expect(r.counters['mr1-shingle-pairs']?.output_pairs).toBe(2);
  });

  it('keeps a fingerprint shared by exactly SCT documents', async () => {
    const r = await runPlan('broder', { ...char5, sampling: { method: 'sct', threshold: 4 } }, docs, { engine: 'auto' });
    // nothing dropped: same as the full computation
    const full = await runPlan('broder', char5, docs, { engine: 'auto' });
    expect(r.rows).toEqual(full.rows);
    expect(full.rows).toContain(`0 1 ${3 / 4}`);
    // d2–d3 share "ab cd" only: 1 / (2 + 2 − 1)
    expect(full.rows).toContain(`2 3 ${1 / 3}`);
  });
});
