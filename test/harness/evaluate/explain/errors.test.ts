import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { PairList } from '../../../../contract/index.ts';
import { adapter as broder } from '../../../../algorithms/broder/index.ts';
import type { AlgorithmAdapter } from '../../../../contract/index.ts';
import { compareWithTruth } from '../../../../harness/evaluate/compare.ts';
import { CARRIED_TEXT, carriedText, ErrorSampler, errorsJsonl, inducedPair, pairHash, sampleClusterErrors, sampleJudgedErrors, type ErrorSample } from '../../../../harness/evaluate/explain/errors.ts';
import type { ExplainedVariant } from '../../../../harness/evaluate/explain/pair.ts';
import { runExperiment } from '../../../../harness/experiment/runner.ts';
import { SMALL_JSONL, smallCorpus } from '../../../support/corpus.ts';
import { runOptions } from '../../../support/run-options.ts';

const list = (rows: [number, number, number][]): PairList => ({ a: Uint32Array.from(rows.map((r) => r[0])), b: Uint32Array.from(rows.map((r) => r[1])), score: Float64Array.from(rows.map((r) => r[2])) });

/** The sample the evaluation draws: ErrorSampler told of each error by the comparison's walk (compare.ts WrongPairs). */
function drawnByComparison(s: { pairs: PairList; truth: PairList; documents: number; decisions: { kind: 'score-at-threshold' | 'every-reported-pair' }; threshold: number; seed: number; size: number }): ErrorSample {
  const sampler = new ErrorSampler({ seed: s.seed, threshold: s.threshold, size: s.size });
  compareWithTruth(s.truth, s.pairs, s.documents, { minScore: s.threshold, threshold: s.threshold, decisions: s.decisions.kind, wrong: sampler });
  return sampler.sample();
}

describe('ErrorSampler, told by the comparison', () => {
  // truth at 0.5: (0,1) 0.9 and (2,3) 0.6 are near-duplicates, (0,2) 0.3 and (1,3) 0.45 are not
  const truth = list([
    [0, 1, 0.9],
    [0, 2, 0.3],
    [1, 3, 0.45],
    [2, 3, 0.6],
  ]);

  it('finds the false positives and negatives of a score-at-threshold variant, the most wrong first', () => {
    // decides (0,2) 0.7 [FP, truth 0.3: 0.2 wrong], (1,3) 0.5 [FP, 0.05 wrong], (0,4) 0.8 [FP, truth 0: 0.5 wrong];
    // (0,1) 0.2 is not decided [FN, 0.4 wrong]; (2,3) is not reported [FN, 0.1 wrong]
    const pairs = list([
      [1, 3, 0.5],
      [0, 4, 0.8],
      [0, 2, 0.7],
      [0, 1, 0.2],
    ]);
    const s = drawnByComparison({ pairs, truth, documents: 5, decisions: { kind: 'score-at-threshold' }, threshold: 0.5, seed: 1, size: 10 });
    expect([s.falsePositives, s.falseNegatives]).toEqual([3, 2]);
    expect(s.sample.map((e) => [e.kind, e.a, e.b, e.score, e.truth])).toEqual([
      ['false positive', 0, 4, 0.8, 0],
      ['false positive', 0, 2, 0.7, 0.3],
      ['false positive', 1, 3, 0.5, 0.45],
      ['false negative', 0, 1, 0.2, 0.9],
      ['false negative', 2, 3, null, 0.6],
    ]);
  });

  it('takes every reported pair of an every-reported-pair variant as decided', () => {
    const s = drawnByComparison({ pairs: list([[0, 2, 0.01]]), truth, documents: 5, decisions: { kind: 'every-reported-pair' }, threshold: 0.5, seed: 1, size: 10 });
    expect(s.sample.map((e) => [e.kind, e.a, e.b])).toEqual([
      ['false positive', 0, 2],
      ['false negative', 0, 1],
      ['false negative', 2, 3],
    ]);
  });

  it('keeps of each kind the errors of the smallest seeded hash, whatever the order the pairs come in', () => {
    const many: [number, number, number][] = [];
    for (let a = 0; a < 30; a++) for (let b = a + 1; b < 30; b++) many.push([a, b, 0.9]);
    const expected = many
      .map(([a, b]) => ({ a, b, h: pairHash(7, a, b) }))
      .sort((x, y) => x.h - y.h)
      .slice(0, 5)
      .map((x) => `${x.a}:${x.b}`)
      .sort();
    const shuffled = list([...many].reverse());
    const s = drawnByComparison({ pairs: shuffled, truth: list([]), documents: 30, decisions: { kind: 'every-reported-pair' }, threshold: 0.5, seed: 7, size: 5 });
    expect(s.falsePositives).toBe(many.length);
    expect(s.sample.map((e) => `${e.a}:${e.b}`).sort()).toEqual(expected);
    // another seed, another sample
    const t = drawnByComparison({ pairs: shuffled, truth: list([]), documents: 30, decisions: { kind: 'every-reported-pair' }, threshold: 0.5, seed: 8, size: 5 });
    expect(t.sample.map((e) => `${e.a}:${e.b}`).sort()).not.toEqual(expected);
  });

  it('samples what the definition gives, by brute force over every pair, for any lists and rule', () => {
    const n = 9;
    const allPairs: [number, number][] = [];
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) allPairs.push([a, b]);
    // each pair: absent from a list, or there with one of a few scores (0 included: a reported pair may score 0)
    const scored = fc.array(fc.option(fc.constantFrom(0, 0.2, 0.5, 0.7, 1), { nil: undefined }), { minLength: allPairs.length, maxLength: allPairs.length });
    fc.assert(
      fc.property(scored, scored, fc.boolean(), fc.integer({ min: 0, max: 6 }), (vs, ts, every, size) => {
        const rows = (xs: (number | undefined)[]): [number, number, number][] => allPairs.flatMap(([a, b], k) => (xs[k] === undefined ? [] : [[a, b, xs[k] as number] as [number, number, number]]));
        const th = 0.5;
        const s = drawnByComparison({ pairs: list(rows(vs).reverse()), truth: list(rows(ts)), documents: n, decisions: { kind: every ? 'every-reported-pair' : 'score-at-threshold' }, threshold: th, seed: 3, size });
        // the definition, pair by pair
        const errs = allPairs.flatMap(([a, b], k) => {
          const score = vs[k];
          const rr = ts[k] ?? 0;
          const decided = score !== undefined && (every || score >= th);
          if (decided && rr < th) return [{ kind: 'false positive', a, b, score: score as number | null, truth: rr, wrongness: th - rr }];
          if (!decided && rr >= th) return [{ kind: 'false negative', a, b, score: score ?? null, truth: rr, wrongness: rr - th }];
          return [];
        });
        const pick = (kind: string) => {
          const of = errs.filter((e) => e.kind === kind);
          const chosen = of
            .map((e) => ({ e, h: pairHash(3, e.a, e.b) }))
            .sort((x, y) => x.h - y.h || x.e.a - y.e.a || x.e.b - y.e.b)
            .slice(0, size)
            .map((x) => x.e)
            .sort((x, y) => y.wrongness - x.wrongness || x.a - y.a || x.b - y.b);
          return { count: of.length, chosen };
        };
        const fp = pick('false positive');
        const fn = pick('false negative');
        expect([s.falsePositives, s.falseNegatives]).toEqual([fp.count, fn.count]);
        expect(s.sample).toEqual([...fp.chosen, ...fn.chosen]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('errors/<variant>.jsonl in a run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'errors-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the errors the pairs files show, each explained with the scores of both files', async () => {
    const file = join(dir, 'e.yaml');
    writeFileSync(
      file,
      `experiment: errors-test\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\nground_truth: { algorithm: broder, params: { shingle: { unit: word, size: 3 } } }\n` +
        `runs:\n  - algorithm: broder\n    name: sampled\n    params: { shingle: { unit: word, size: 3 }, sampling: { method: mod, m: 3 } }\nevaluate: { threshold: 0.5, min_score: 0.01 }\nbackend: { kind: local, workers: 1 }\n`,
    );
    const r = await runExperiment(runOptions(file, join(dir, 'results'), { env: { NDD_BENCH_CACHE_DIR: 'off' } }));
    if (r.kind !== 'completed') throw new Error(r.kind);
    const pairs = (v: string) =>
      new Map(
        gunzipSync(readFileSync(join(r.dir, 'pairs', `${v}.csv.gz`)))
          .toString('utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => [l.split(',').slice(0, 2).sort().join(','), Number(l.split(',')[2])] as const),
      );
    const truth = pairs('ground-truth');
    const mod = pairs('sampled');
    // brute force over the two files: decided at 0.5 against the truth at 0.5
    const keys = new Set([...truth.keys(), ...mod.keys()]);
    const fp = [...keys].filter((k) => (mod.get(k) ?? 0) >= 0.5 && (truth.get(k) ?? 0) < 0.5);
    const fn = [...keys].filter((k) => (mod.get(k) ?? 0) < 0.5 && (truth.get(k) ?? 0) >= 0.5);
    expect(fp.length + fn.length).toBeGreaterThan(0);
    const corpus = smallCorpus();
    const textOf = new Map(corpus.ids.map((id, i) => [id, corpus.texts.at(i)]));
    const lines = readFileSync(join(r.dir, 'errors', 'sampled.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(Math.min(fp.length, 20) + Math.min(fn.length, 20));
    for (const l of lines) {
      const k = [l.explanation.a.id, l.explanation.b.id].sort().join(',');
      expect((l.kind === 'false positive' ? fp : fn).includes(k)).toBe(true);
      expect(l.of).toBe(l.kind === 'false positive' ? fp.length : fn.length);
      expect(l.explanation.exact.resemblance ?? 0).toBe(truth.get(k) ?? 0);
      expect(l.explanation.run.score).toBe(mod.get(k) ?? null);
      expect(l.explanation.evidence.data.score ?? 0).toBe(mod.get(k) ?? 0);
      // both texts, for the report (the small corpus' are under the cap)
      expect(l.texts).toEqual({ a: textOf.get(l.explanation.a.id), b: textOf.get(l.explanation.b.id) });
    }
    expect(r.record.variants.find((v) => v.name === 'sampled')?.files.map((f) => f.file)).toContain('errors/sampled.jsonl');
  }, 60_000);

  it('keeps evaluate.errors.sample errors of each kind, and writes no error file at 0', async () => {
    const config = (sample: number) =>
      `experiment: errors-sample-${sample}\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\nground_truth: { algorithm: broder, params: { shingle: { unit: word, size: 3 } } }\n` +
      `runs:\n  - algorithm: broder\n    name: sampled\n    params: { shingle: { unit: word, size: 3 }, sampling: { method: mod, m: 3 } }\nevaluate: { threshold: 0.5, min_score: 0.01, errors: { sample: ${sample} } }\nbackend: { kind: local, workers: 1 }\n`;
    const run = async (sample: number) => {
      const file = join(dir, `s${sample}.yaml`);
      writeFileSync(file, config(sample));
      const r = await runExperiment(runOptions(file, join(dir, 'results'), { env: { NDD_BENCH_CACHE_DIR: 'off' } }));
      if (r.kind !== 'completed') throw new Error(r.kind);
      return r;
    };
    const one = await run(1);
    const lines = readFileSync(join(one.dir, 'errors', 'sampled.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; of: number });
    const kinds = lines.map((l) => l.kind);
    expect(kinds.filter((k) => k === 'false positive').length).toBe(Math.min(1, lines.find((l) => l.kind === 'false positive')?.of ?? 0));
    expect(kinds.filter((k) => k === 'false negative').length).toBeLessThanOrEqual(1);
    expect(lines.length).toBeGreaterThan(0);
    const none = await run(0);
    expect(existsSync(join(none.dir, 'errors'))).toBe(false);
    expect(none.record.variants.flatMap((v) => v.files.map((f) => f.file)).filter((f) => f.startsWith('errors/'))).toEqual([]);
  }, 60_000);
});

describe('carriedText', () => {
  it('keeps a text up to the cap whole and cuts a longer one at it', () => {
    const at = 'x'.repeat(CARRIED_TEXT);
    expect(carriedText(at)).toBe(at);
    expect(carriedText(`${at}yz`)).toBe(at);
  });

  it('does not split a surrogate pair at the cut', () => {
    const text = `${'x'.repeat(CARRIED_TEXT - 1)}\u{1F600}tail`;
    expect(carriedText(text)).toBe('x'.repeat(CARRIED_TEXT - 1));
  });

  it('keeps a lone surrogate at the cut (there is no pair to split)', () => {
    const text = `${'x'.repeat(CARRIED_TEXT - 1)}\ud800tail`;
    expect(carriedText(text)).toBe(text.slice(0, CARRIED_TEXT));
  });
});

describe('sampleJudgedErrors', () => {
  const n = 6;
  const key = (a: number, b: number): number => a * n + b;
  const truth = list([
    [0, 1, 0.9],
    [0, 2, 0.3],
    [2, 3, 0.6],
  ]);

  it('finds judged non-duplicates it decided and judged duplicates it missed, by hand', () => {
    // the judges: (0,1) dup, (0,2) dup, (2,3) not, (1,4) not, (3,5) dup
    const judged = new Map([
      [key(0, 1), true],
      [key(0, 2), true],
      [key(2, 3), false],
      [key(1, 4), false],
      [key(3, 5), true],
    ]);
    // decides at 0.5: (0,1) 0.8 [agrees], (2,3) 0.7 [FP, wrong 0.7], (1,4) 0.55 [FP, 0.55];
    // (0,2) 0.4 not decided [FN, 1 − 0.4 = 0.6]; (3,5) not reported [FN, 1]
    const pairs = list([
      [2, 3, 0.7],
      [0, 1, 0.8],
      [1, 4, 0.55],
      [0, 2, 0.4],
    ]);
    const s = sampleJudgedErrors({ pairs, truth, judged, documents: n, decisions: { kind: 'score-at-threshold' }, threshold: 0.5, seed: 1, size: 10 });
    expect([s.falsePositives, s.falseNegatives]).toEqual([2, 2]);
    expect(s.sample.map((e) => [e.kind, e.a, e.b, e.score, e.truth])).toEqual([
      ['false positive', 2, 3, 0.7, 0.6],
      ['false positive', 1, 4, 0.55, 0],
      ['false negative', 3, 5, null, 0],
      ['false negative', 0, 2, 0.4, 0.3],
    ]);
    expect(s.sample.map((e) => e.wrongness)).toEqual([0.7, 0.55, 1, 1 - 0.4]);
  });

  it('keeps the errors of smallest hash, whatever the judgments’ order, as a brute force over every judged pair picks them', () => {
    const m = 40;
    let x = 7;
    const rand = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const judged = new Map<number, boolean>();
    const rows: [number, number, number][] = [];
    for (let a = 0; a < m; a++) {
      for (let b = a + 1; b < m; b++) {
        if (rand() < 0.3) judged.set(a * m + b, rand() < 0.5);
        if (rand() < 0.3) rows.push([a, b, Math.round(rand() * 100) / 100]);
      }
    }
    const pairs = list(rows);
    const score = new Map(rows.map(([a, b, s]) => [a * m + b, s]));
    // brute force: every judged pair whose decision disagrees with the judges
    const all = [...judged].flatMap(([k, dup]) => {
      const s = score.get(k);
      const decided = s !== undefined && s >= 0.5;
      return decided === dup ? [] : [{ a: Math.floor(k / m), b: k % m, fp: decided }];
    });
    const smallest = (fp: boolean): string[] =>
      all
        .filter((e) => e.fp === fp)
        .sort((p, q) => pairHash(3, p.a, p.b) - pairHash(3, q.a, q.b) || p.a - q.a || p.b - q.b)
        .slice(0, 5)
        .map((e) => `${e.a},${e.b}`)
        .sort();
    const shuffled = new Map([...judged].reverse());
    const s = sampleJudgedErrors({ pairs, truth: list([]), judged: shuffled, documents: m, decisions: { kind: 'score-at-threshold' }, threshold: 0.5, seed: 3, size: 5 });
    expect(s.falsePositives).toBe(all.filter((e) => e.fp).length);
    expect(s.falseNegatives).toBe(all.filter((e) => !e.fp).length);
    const got = (kind: string): string[] => s.sample.filter((e) => e.kind === kind).map((e) => `${e.a},${e.b}`).sort();
    expect(got('false positive')).toEqual(smallest(true));
    expect(got('false negative')).toEqual(smallest(false));
  });
});

describe('errorsJsonl', () => {
  const truth: ExplainedVariant = { name: 'ground-truth', adapter: broder as unknown as AlgorithmAdapter, params: broder.params.parse({ shingle: { unit: 'char', size: 8 } }), decisions: { kind: 'score-at-threshold' } };
  const variant = (m: number): ExplainedVariant => ({ ...truth, name: `mod=${m}`, params: broder.params.parse({ shingle: { unit: 'char', size: 8 }, sampling: { method: 'mod', m } }) });
  const shared = 'We meet on Monday at ten. Bring the </script> notes &lt;b&gt;\u2028 and "quotes" \\ back\n';
  const docs = {
    ids: ['a', 'b', 'c', 'long'],
    texts: [`Hello ${shared} bye`, `${shared}-- Ann \ud800 alone`, 'unrelated text of its own here', `${'x'.repeat(CARRIED_TEXT)} ${shared}`],
  };
  const sample: ErrorSample = {
    falsePositives: 4,
    falseNegatives: 2,
    sample: [
      { a: 0, b: 2, score: 0.7, truth: 0.1, kind: 'false positive', wrongness: 0.4 },
      { a: 0, b: 1, score: null, truth: 0.6, kind: 'false negative', wrongness: 0.1 },
      { a: 1, b: 3, score: 0.2, truth: 0.55, kind: 'false negative', wrongness: 0.05 },
    ],
  };
  const args = { docs, truth, threshold: 0.5, seed: 1, width: 98 };

  it('writes each line as JSON.stringify writes the whole line, its keys in order, with the texts carried', async () => {
    for (const extra of [{}, { against: 'judgments' as const, judgedOf: (a: number) => (a === 0 ? true : undefined) }]) {
      const lines = (await errorsJsonl(sample, { ...args, variant: variant(2), ...extra })).bytes.toString('utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      lines.forEach((line, i) => {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        // the writer of record: the line object, stringified whole
        expect(JSON.stringify(parsed)).toBe(line);
        expect(Object.keys(parsed)).toEqual(['kind', ...('against' in extra ? ['against'] : []), 'rank', 'of', 'explanation', 'texts', ...('judgedOf' in extra ? ['judgment'] : [])]);
        const e = sample.sample[i]!;
        expect(parsed['texts']).toEqual({ a: carriedText(docs.texts.at(e.a)!), b: carriedText(docs.texts.at(e.b)!) });
      });
    }
  });

  it("gives the same bytes through a run's shared cache, variant after variant, as each alone", async () => {
    const store = new Map<string, unknown>();
    const cached = <T>(key: string, compute: () => T): T => {
      if (!store.has(key)) store.set(key, compute());
      return store.get(key) as T;
    };
    for (const m of [2, 4, 2]) {
      const alone = await errorsJsonl(sample, { ...args, variant: variant(m) });
      expect((await errorsJsonl(sample, { ...args, variant: variant(m), cached })).bytes.equals(alone.bytes), `mod=${m}`).toBe(true);
    }
  });

  it('holds as values what its lines are: each, stringified, is its line', async () => {
    // a clustered variant's explanations hold their clusters and chain after the evidence
    const clusters = { clusterOf: Int32Array.from([0, 0, 0, -1]), links: { a: [0, 1], b: [1, 2] }, madeOf: 'decided pairs' as const };
    for (const extra of [{}, { against: 'judgments' as const, judgedOf: (a: number) => (a === 0 ? true : undefined) }, { clusters }]) {
      const out = await errorsJsonl(sample, { ...args, variant: variant(2), ...extra });
      expect(out.lines.map((l) => JSON.stringify(l))).toEqual(out.bytes.toString('utf8').trimEnd().split('\n'));
    }
  });
});

describe('sampleClusterErrors', () => {
  const pairsOf = (rows: [number, number, number][]): PairList => list([...rows].sort((x, y) => x[0] - y[0] || x[1] - y[1]));

  it('finds the induced pairs below the threshold and the near-duplicates split, by hand', () => {
    // clusters {0, 1, 2} and {3, 4}; 5 in none. At 0.5 the induced pairs (0,1) 0.9 and (1,2) 0.6
    // are right; (0,2) 0.2 [FP, 0.3 wrong] and (3,4) 0.4 [FP, 0.1 wrong] are not. (2,3) 0.8 is
    // split [FN, 0.3 wrong], and so is (4,5) 0.7 [FN, 0.2 wrong].
    const truth = pairsOf([
      [0, 1, 0.9],
      [1, 2, 0.6],
      [0, 2, 0.2],
      [3, 4, 0.4],
      [4, 5, 0.7],
      [2, 3, 0.8],
    ]);
    const pairs = list([
      [3, 4, 0.6],
      [0, 1, 0.95],
    ]);
    const clusterOf = Int32Array.from([7, 7, 7, 2, 2, -1]);
    const s = sampleClusterErrors({ clusterOf, pairs, truth, documents: 6, threshold: 0.5, seed: 3, size: 10 });
    expect([s.falsePositives, s.falseNegatives, s.induced, s.lookedAt]).toEqual([2, 2, 4, 4]);
    expect(s.sample.map((e) => [e.kind, e.a, e.b, e.score, e.truth])).toEqual([
      ['false positive', 0, 2, null, 0.2],
      ['false positive', 3, 4, 0.6, 0.4],
      ['false negative', 2, 3, null, 0.8],
      ['false negative', 4, 5, null, 0.7],
    ]);
  });

  it('samples as a brute force over every induced pair of small random clusters picks them', () => {
    const n = 14;
    const every: [number, number][] = [];
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) every.push([a, b]);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1, max: 3 }), { minLength: n, maxLength: n }),
        fc.array(fc.constantFrom(0, 0.1, 0.3, 0.5, 0.7, 1), { minLength: every.length, maxLength: every.length }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer(),
        (labels, scores, size, seed) => {
          const clusterOf = Int32Array.from(labels);
          // a score of 0: the truth did not report the pair
          const rows = every.flatMap(([a, b], i): [number, number, number][] => (scores[i] === 0 ? [] : [[a, b, scores[i] as number]]));
          const truth = pairsOf(rows);
          const rr = (a: number, b: number): number => rows.find((r) => r[0] === a && r[1] === b)?.[2] ?? 0;
          const together = (a: number, b: number): boolean => labels[a]! >= 0 && labels[a] === labels[b];
          const fps = every.filter(([a, b]) => together(a, b) && rr(a, b) < 0.5);
          const fns = every.filter(([a, b]) => !together(a, b) && rr(a, b) >= 0.5);
          const pick = (errors: [number, number][], wrong: (r: number) => number) =>
            errors
              .map(([a, b]) => ({ a, b, h: pairHash(seed, a, b) }))
              .sort((x, y) => x.h - y.h || x.a - y.a || x.b - y.b)
              .slice(0, size)
              .map(({ a, b }) => ({ a, b, w: wrong(rr(a, b)) }))
              .sort((x, y) => y.w - x.w || x.a - y.a || x.b - y.b)
              .map(({ a, b }) => [a, b]);
          const s = sampleClusterErrors({ clusterOf, pairs: list([]), truth, documents: n, threshold: 0.5, seed, size });
          expect([s.falsePositives, s.falseNegatives]).toEqual([fps.length, fns.length]);
          expect(s.sample.filter((e) => e.kind === 'false positive').map((e) => [e.a, e.b])).toEqual(pick(fps, (r) => 0.5 - r));
          expect(s.sample.filter((e) => e.kind === 'false negative').map((e) => [e.a, e.b])).toEqual(pick(fns, (r) => r - 0.5));
          expect(s.sample.map((e) => e.kind)).toEqual([...s.sample.filter((e) => e.kind === 'false positive'), ...s.sample.filter((e) => e.kind === 'false negative')].map((e) => e.kind));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('numbers the induced pairs cluster by cluster, row by row', () => {
    const members = [[2, 5, 9], [0, 1], Array.from({ length: 60 }, (_, i) => 10 + i)];
    const before = new Float64Array(members.length + 1);
    members.forEach((m, i) => (before[i + 1] = before[i]! + (m.length * (m.length - 1)) / 2));
    const listed = members.flatMap((m) => m.flatMap((x, i) => m.slice(i + 1).map((y) => [x, y])));
    expect(listed.map((_, r) => inducedPair(members, before, r))).toEqual(listed);
  });

  it('draws its false positives from a cluster of thousands of documents without listing its pairs', () => {
    // one cluster of 5,000 documents (12,497,500 induced pairs); the truth's near-duplicates
    // inside it are the pairs (i, i + 1), and (0, 5000) is split
    const n = 5001;
    const clusterOf = new Int32Array(n).fill(1);
    clusterOf[5000] = -1;
    const rows: [number, number, number][] = Array.from({ length: 4999 }, (_, i) => [i, i + 1, 0.9]);
    rows.push([0, 5000, 0.8], [0, 2, 0.3]);
    const truth = pairsOf(rows);
    const args = { clusterOf, pairs: list([]), truth, documents: n, threshold: 0.5, seed: 11, size: 20, budget: 20_000 };
    const s = sampleClusterErrors(args);
    expect([s.falsePositives, s.falseNegatives, s.induced, s.lookedAt]).toEqual([(5000 * 4999) / 2 - 4999, 1, (5000 * 4999) / 2, 20_000]);
    const fps = s.sample.filter((e) => e.kind === 'false positive');
    expect(fps).toHaveLength(20);
    // each is an induced pair below the threshold, none twice, the most wrong first
    for (const e of fps) expect(e.a < e.b && e.b < 5000 && e.b !== e.a + 1).toBe(true);
    expect(new Set(fps.map((e) => `${e.a},${e.b}`)).size).toBe(20);
    expect(fps.map((e) => e.wrongness)).toEqual([...fps.map((e) => e.wrongness)].sort((x, y) => y - x));
    // seeded: the same draws again, others with another seed
    expect(sampleClusterErrors(args).sample).toEqual(s.sample);
    expect(sampleClusterErrors({ ...args, seed: 12 }).sample.filter((e) => e.kind === 'false positive')).not.toEqual(fps);
    // the same clusters under other labels give the same sample
    expect(sampleClusterErrors({ ...args, clusterOf: clusterOf.map((c) => (c < 0 ? c : 40)) }).sample).toEqual(s.sample);
  });
});
