/**
 * I-Match (Chowdhury et al. 2002) with Kołcz et al.'s randomized lexicons: a worked example whose
 * signatures were computed independently, the jobs equal to the kernel and both equal to a
 * brute-force computation, and recall rising with K as the hypergeometric formula says.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { imatchParams } from '../../../algorithms/imatch/params.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { smallCorpus, docSet } from '../../support/corpus.ts';
import { mulberry32 } from '../text/random-text.ts';
import { bruteForce, planFor, runJobs, runKernel, sha1 } from './support.ts';

const HADOOP = { mapTasks: 3, combine: true, reverse: true };

describe('I-Match worked example', () => {
  // Computed with Python (re.findall('[a-z0-9]+', text.lower()), math.log, hashlib.sha1 over the
  // sorted in-range words joined by '\n'). N = 5; df: cat, mat, on, sat, the 3 (idf
  // log(5/3)/log 5 = 0.317); dog 2 (0.569); a, and, log 1 (idf 1).
  const docs = docSet(['The cat sat on the mat.', 'the CAT sat on the mat!', 'The dog sat on the log.', 'A cat and a dog.', 'Mat, mat, mat.']);
  const CAT_MAT_ON_SAT_THE = '44f13710e3fe25511abac4909bd9bf6b0753b9b8';

  it('signs each document with SHA-1 over its sorted unique lexicon words ([0.1, 1.0] keeps every word)', async () => {
    const expected = [
      `0 ${CAT_MAT_ON_SAT_THE}`,
      `1 ${CAT_MAT_ON_SAT_THE}`,
      '2 e82231dc75e9a570424b529f6ba05a95e34defa4', // dog log on sat the
      '3 b1d4d7b05c7b42c17e0600c1c7bb06cd00466d45', // a and cat dog
      '4 cc7c5be316e48d137cbb549833b85d91034d799d', // mat
    ];
    expect(sha1('cat\nmat\non\nsat\nthe')).toBe(CAT_MAT_ON_SAT_THE);
    const plan = planFor({});
    const jobs = runJobs(plan, docs, HADOOP);
    expect(jobs.table).toEqual(expected);
    expect(jobs.rows).toEqual(['0 1 1']);
    const kernel = await runKernel(plan, docs);
    expect(kernel.table).toEqual(expected);
    expect(kernel.rows).toEqual(['0 1 1']);
  });

  it('gives no signature to a document with no lexicon word, and counts it ([0.6, 1.0] keeps a, and, log)', async () => {
    const plan = planFor({ idf_min: 0.6 });
    const jobs = runJobs(plan, docs, HADOOP);
    expect(jobs.table).toEqual(['2 7babc233de26ab19ead1b9c278128d5c434910ee', '3 d9fc0b249c9b15a22499c5eeb7a8ac3e7a5670f2']);
    expect(jobs.rows).toEqual([]);
    expect(jobs.counters['imatch-signatures']).toEqual({ documents: 5, documents_without_signature: 3, signatures: 2 });
    expect((await runKernel(plan, docs)).counters).toEqual(jobs.counters);
  });

  it('calls two documents duplicates when a narrow lexicon leaves them one shared word ([0.5, 0.6] keeps dog)', async () => {
    // Zhang et al.'s observation on Figure 7: cut most words and recall rises as precision falls.
    const plan = planFor({ idf_min: 0.5, idf_max: 0.6 });
    const jobs = runJobs(plan, docs, HADOOP);
    // hashlib.sha1(b'dog')
    expect(jobs.table).toEqual(['2 e49512524f47b4138d850c9d9d85972927281da0', '3 e49512524f47b4138d850c9d9d85972927281da0']);
    expect(jobs.rows).toEqual(['2 3 1']);
    expect(jobs.counters['imatch-collisions']).toEqual({ distinct_signatures: 1, collisions: 1 });
  });
});

/** Base documents of 30 distinct words from a vocabulary of 4000, each with a copy that has one word replaced by a word of its own. */
function plantedEdits(bases: number, seed: number): { texts: string[]; vocabulary: number } {
  const random = mulberry32(seed);
  const texts: string[] = [];
  const vocabulary = new Set<string>();
  for (let i = 0; i < bases; i++) {
    const words = new Set<string>();
    while (words.size < 30) words.add(`w${Math.floor(random() * 4000)}`);
    const base = [...words];
    const copy = [...base];
    copy[Math.floor(random() * 30)] = `new${i}`;
    texts.push(base.join(' '), copy.join(' '));
    for (const w of [...base, ...copy]) vocabulary.add(w);
  }
  return { texts, vocabulary: vocabulary.size };
}

describe('I-Match jobs, kernel and brute force agree', () => {
  const small = smallCorpus();
  const planted = docSet(plantedEdits(40, 11).texts);
  const settings = [
    {},
    { idf_min: 0.3, idf_max: 0.9 },
    { idf_min: 0, idf_max: 1 },
    { idf_min: 0.6, idf_max: 1 },
    { extra_lexicons: 2, drop: 0.5 },
    { extra_lexicons: 5, drop: 0.33 },
    { idf_min: 0.2, extra_lexicons: 10, drop: 0.8 },
  ];
  const corpora = [
    ['the small fixture corpus', small],
    ['planted single-word edits', planted],
  ] as const;

  for (const [name, docs] of corpora) {
    it.each(settings)(`on ${name} for %j`, async (raw) => {
      const params = imatchParams.parse(raw);
      const plan = planFor(params, 7);
      const brute = bruteForce([...docs.texts], params, 7);
      const kernel = await runKernel(plan, docs);
      expect(kernel.rows).toEqual(brute.rows);
      expect(kernel.counters['imatch-collisions']?.collisions ?? 0).toBe(brute.collisions);
      expect(kernel.counters['imatch-signatures']?.documents_without_signature ?? 0).toBe(brute.without);
      for (const hadoop of [HADOOP, { mapTasks: 1, combine: false, reverse: false }, { mapTasks: 4, combine: false, reverse: true }]) {
        const jobs = runJobs(plan, docs, hadoop);
        expect(jobs.rows).toEqual(kernel.rows);
        expect(jobs.table).toEqual(kernel.table);
        expect(jobs.counters).toEqual(kernel.counters);
      }
    });
  }

  it('finds pairs on the fixture corpus (the comparisons above are not vacuous)', () => {
    expect(bruteForce([...small.texts], imatchParams.parse({})).rows.length).toBeGreaterThan(0);
    expect(bruteForce([...planted.texts], imatchParams.parse({ extra_lexicons: 5, drop: 0.33 })).rows.length).toBeGreaterThan(0);
  });

  it('shows one seed to every lexicon: another seed drops other words', async () => {
    const params = { extra_lexicons: 10, drop: 0.5 };
    const one = await runKernel(planFor(params, 1), planted);
    const two = await runKernel(planFor(params, 2), planted);
    expect(two.rows).not.toEqual(one.rows);
    expect(two.rows).toEqual(bruteForce([...planted.texts], imatchParams.parse(params), 2).rows);
  });
});

describe('recall on planted single-word edits rises with K', () => {
  // A planted pair is a base document A = S ∪ {w} and its copy B = S ∪ {w'}, w' a word of B alone.
  // Every word is in the lexicon (df <= 3 of N = 800, idf >= 0.84), so lexicon 0 tells A from B.
  // Extra lexicon j signs A and B alike when it drops both w and w': it drops a uniformly random
  // m-subset of the L lexicon words, m = round(pL), so that happens with probability
  // q = m(m-1)/(L(L-1)), independently for each j; the pair is found with probability
  // 1 - (1 - q)^K. (It also needs S to keep a word, which fails with probability below 2^-29.)
  const bases = 400;
  const p = 0.5;
  const { texts, vocabulary: L } = plantedEdits(bases, 5);
  const docs = docSet(texts);
  const m = Math.round(p * L);
  const q = (m * (m - 1)) / (L * (L - 1));
  const recalls = new Map<number, number>();

  it.each([0, 1, 2, 5, 10])('K = %i finds 1 - (1 - q)^K of the planted pairs, and only planted pairs', async (K) => {
    const r = await runKernel(planFor({ extra_lexicons: K, drop: p }, 3), docs);
    const found = r.rows.map((row) => row.split(' ').map(Number) as [number, number, number]);
    for (const [a, b] of found) expect([a % 2, b - a]).toEqual([0, 1]);
    const recall = found.length / bases;
    const expected = 1 - (1 - q) ** K;
    // binomial sd of a recall over 400 pairs is at most 0.025; 4 sd
    expect(Math.abs(recall - expected)).toBeLessThanOrEqual(4 * Math.sqrt((expected * (1 - expected)) / bases) + 1e-9);
    recalls.set(K, recall);
  });

  it('never falls as K grows (the lexicons of a smaller K are the first of a larger one)', () => {
    const seq = [0, 1, 2, 5, 10].map((K) => recalls.get(K) as number);
    expect(seq[0]).toBe(0);
    for (let i = 1; i < seq.length; i++) expect(seq[i]).toBeGreaterThanOrEqual(seq[i - 1] as number);
    expect(seq[4]).toBeGreaterThan(0.9);
    // L ≈ 4000 here, so q ≈ 1/4 and the expectations are 0, 0.25, 0.44, 0.76, 0.94
    expect(q).toBeCloseTo(0.25, 2);
  });
});

describe('I-Match kernel on worker threads', () => {
  const pool = new WorkerPool(2);
  afterAll(() => pool.close());

  it('gives what it gives in process', async () => {
    const docs = smallCorpus();
    const plan = planFor({ extra_lexicons: 3 });
    expect(await runKernel(plan, docs, pool)).toEqual(await runKernel(plan, docs));
  });
});

describe('I-Match parameters', () => {
  it('default to words, idf in [0.1, 1.0], K = 0', () => {
    expect(imatchParams.parse({})).toEqual({ idf_min: 0.1, idf_max: 1, extra_lexicons: 0, drop: 0.33 });
  });

  it.each([
    [{ idf_min: -0.1 }, 'idf_min', 'too_small'],
    [{ idf_max: 1.5 }, 'idf_max', 'too_big'],
    [{ idf_min: 0.6, idf_max: 0.4 }, 'idf_max', 'must be at least idf_min (0.6), got 0.4'],
    [{ drop: 0 }, 'drop', 'too_small'],
    [{ drop: 1 }, 'drop', 'too_big'],
    [{ extra_lexicons: -1 }, 'extra_lexicons', 'too_small'],
    [{ extra_lexicons: 1.5 }, 'extra_lexicons', 'invalid_type'],
    [{ k: 2 }, '', 'unrecognized_keys'],
  ])('refuse %j with one issue on %s', (raw, field, what) => {
    const r = imatchParams.safeParse(raw);
    expect(r.success).toBe(false);
    const issues = r.error?.issues ?? [];
    expect(issues).toHaveLength(1);
    const issue = issues[0] as { path: PropertyKey[]; code: string; message: string };
    expect(issue.path.join('.')).toBe(field);
    expect(issue.code === what || issue.message === what).toBe(true);
    expect(issue.message).not.toContain('\n');
  });
});

describe('I-Match on corpora with nothing to sign', () => {
  it.each([
    ['no documents', []],
    ['documents without words', ['', '!!!', ' ']],
    ['one document', ['the cat sat']],
  ])('gives the same (empty) output from jobs and kernel: %s', async (_, texts) => {
    const docs = docSet(texts);
    const plan = planFor({ extra_lexicons: 2 });
    const kernel = await runKernel(plan, docs);
    expect(kernel.rows).toEqual([]);
    expect(runJobs(plan, docs, HADOOP)).toEqual(kernel);
    expect(bruteForce(texts, imatchParams.parse({ extra_lexicons: 2 })).rows).toEqual([]);
  });
});
