/**
 * The MinHash kernel's slices of signatures: bounded by the characters in flight whatever the
 * corpus' size, covering every document once, and giving the same result as one slice a thread.
 */
import { describe, expect, it } from 'vitest';
import { IN_FLIGHT_CHARS, minhashKernel, minhashKernelBytes, signatureRanges } from '../../../algorithms/minhash/kernel.ts';
import { minhashParams } from '../../../algorithms/minhash/params.ts';
import { resolveSettings } from '../../../algorithms/minhash/settings.ts';
import { docSet, smallCorpus } from '../../support/corpus.ts';
import { pairRows, runPlanKernel } from '../../support/kernel-and-jobs.ts';
import { planFor } from './run.ts';

/** Checks that the ranges cover 0 .. n end to end, in order. */
function expectCover(ranges: readonly [number, number][], n: number): void {
  let at = 0;
  for (const [from, to] of ranges) {
    expect(from).toBe(at);
    expect(to).toBeGreaterThan(from);
    at = to;
  }
  expect(at).toBe(n);
}

describe('signatureRanges', () => {
  it('keeps every slice within its share of the characters in flight, a longer document alone', () => {
    const lengths = [5, 70, 5, 5, 5, 5, 30, 30, 1, 1, 1, 200, 3];
    const ranges = signatureRanges((d) => lengths[d] as number, lengths.length, { threads: 2, inFlightChars: 80 });
    expectCover(ranges, lengths.length);
    for (const [from, to] of ranges) {
      const chars = lengths.slice(from, to).reduce((s, x) => s + x, 0);
      if (to - from > 1) expect(chars).toBeLessThanOrEqual(40);
    }
    expect(ranges).toContainEqual([11, 12]);
    expect(ranges).toContainEqual([1, 2]);
  });

  it('makes at least two slices a thread when the corpus is small', () => {
    const ranges = signatureRanges(() => 10, 100, { threads: 2, inFlightChars: 1e9 });
    expectCover(ranges, 100);
    expect(ranges.length).toBe(4);
  });

  it('makes a corpus ten times larger into ten times the slices, not larger ones', () => {
    const small = signatureRanges(() => 100, 10_000, { threads: 2, inFlightChars: 20_000 });
    const large = signatureRanges(() => 100, 100_000, { threads: 2, inFlightChars: 20_000 });
    expectCover(large, 100_000);
    expect(small.length).toBe(100);
    expect(large.length).toBe(1000);
  });
});

describe('minhashKernelBytes', () => {
  it('grows with the documents but not with the characters past those in flight', () => {
    const k = 128;
    const at = (chars: number, exact = false): number => minhashKernelBytes({ documents: 1e6, chars }, k, { exact });
    expect(at(2.35e9)).toBe(at(IN_FLIGHT_CHARS));
    expect(at(2.35e9)).toBe(16 * k * 1e6 + 16 * 1e6 + 10 * IN_FLIGHT_CHARS);
    // exact verification holds every document's fingerprints
    expect(at(2.35e9, true) - at(2.35e9)).toBe(2 * 2.35e9);
    // the million-document corpus of docs/performance.md fits an 8 GB budget
    expect(at(2.35e9)).toBeLessThan(8192 * 2 ** 20);
  });
});

describe('the kernel in many slices', () => {
  const docs = smallCorpus();
  it.each([
    { shingle: { unit: 'char', size: 16 }, permutations: 32, threshold: 0.3 },
    { shingle: { unit: 'char', size: 16 }, permutations: 32, threshold: 0.3, verify: 'exact' },
    { shingle: { unit: 'char', size: 16 }, permutations: 64, threshold: 0.4, sketch: 'one-permutation' },
  ])('gives the pairs, counters and clusters of a slice a thread for %j', async (raw) => {
    const plan = planFor(raw);
    const settings = resolveSettings(minhashParams.parse(raw), { minScore: Number.MIN_VALUE, seed: 1 });
    const chars = Array.from(docs.texts).reduce((s, t) => s + t.length, 0);
    // about one document a slice
    const sliced = { ...plan, local: minhashKernel(settings, { inFlightChars: Math.ceil((2 * chars) / docs.texts.length) }) };
    const whole = await runPlanKernel(plan, docs, { workers: 2, tasks: 'cloned' });
    const many = await runPlanKernel(sliced, docs, { workers: 2, tasks: 'cloned' });
    expect(whole.result.pairs.a.length).toBeGreaterThan(0);
    expect(pairRows(many.result.pairs)).toEqual(pairRows(whole.result.pairs));
    expect(many.counters).toEqual(whole.counters);
    expect(many.result.tables).toEqual(whole.result.tables);
  });

  it('counts every document once, empty ones too, in slices of a few characters', async () => {
    const texts = [...docSet(docs.texts.slice(0, 9)).texts, '', 'short'];
    const settings = resolveSettings(minhashParams.parse({ shingle: { unit: 'char', size: 16 }, permutations: 16, threshold: 0.5 }), { minScore: Number.MIN_VALUE, seed: 1 });
    const plan = { ...planFor({ shingle: { unit: 'char', size: 16 }, permutations: 16, threshold: 0.5 }), local: minhashKernel(settings, { inFlightChars: 50 }) };
    const { counters } = await runPlanKernel(plan, docSet(texts), { workers: 2, tasks: 'cloned' });
    expect(counters['minhash-signatures']?.['documents']).toBe(11);
    // the empty text; one shorter than a shingle is one shingle (test/algorithms/minhash/pipeline.test.ts)
    expect(counters['minhash-signatures']?.['documents_without_fingerprints']).toBe(1);
  });
});
