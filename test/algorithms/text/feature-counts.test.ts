import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { adapter } from '../../../algorithms/broder/index.ts';
import { countsByPass, countsFromFeatures, documentCounts, documentCountsById, PassCounts } from '../../../algorithms/text/feature-counts.ts';
import { shingleOccurrences } from '../../../algorithms/text/offsets.ts';
import { featuresCodec } from '../../../algorithms/text/corpus-features.ts';
import { fingerprintSlice, mergeSlices } from '../../../algorithms/text/features.ts';
import { fingerprintRunsKey, writeFingerprintRuns, type HeldFingerprintRuns } from '../../../algorithms/text/fingerprint-runs.ts';
import type { StoreCodec } from '../../../contract/index.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { docSet } from '../../support/corpus.ts';
import { kernelOnThreads } from '../../support/kernel-on-threads.ts';

const explain = adapter.explain!;

describe('documentCounts', () => {
  it('counts documents from the features an earlier run kept as a pass over the collection counts them', async () => {
        const texts = ['the cat sat on the mat today', 'the cat sat on a mat today', 'a cat sat on the mat', 'the dog sat on the mat today', 'the cat sat', 'zzz'];
    for (const fingerprint of ['rabin64', 'md5'] as const) {
      const p = adapter.params.parse({ shingle: { unit: 'word', size: 2 }, fingerprint });
      const features = mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle: p.shingle, kind: fingerprint })]);
      const keys = [...new Set(texts.flatMap((t) => explain.features!(p, t).keys))];
      const absent = fingerprint === 'md5' ? 'ffffffffffffffffffffffffffffffff' : 'ffffffffffffffff';
      const fromFeatures = countsFromFeatures(features, [...keys, absent]);
      expect(fromFeatures).toEqual(new Map([...countsByPass(docSet(texts), p.shingle, p.fingerprint, keys), [absent, 0]]));
      // "sat on" is in the first four documents
      expect(fromFeatures.get(explain.features!(p, 'sat on').keys[0] as string)).toBe(4);
    }
  });

  it('without stored features, counts for all the pairs of a run through one counter (a shared cache), as a pass does', async () => {
    const texts = ['the cat sat on the mat today', 'the cat sat on a mat today', 'a cat sat on the mat', 'the dog sat on the mat today', 'the cat sat', 'zzz'];
    const p = adapter.params.parse({ shingle: { unit: 'word', size: 2 }, fingerprint: 'rabin64' });
    const docs = docSet(texts);
    const computed: string[] = [];
    const shared = new Map<string, unknown>();
    const cached = <T>(key: string, compute: () => T): T => {
      if (!shared.has(key)) {
        computed.push(key);
        shared.set(key, compute());
      }
      return shared.get(key) as T;
    };
    for (const [a, b] of [[0, 1], [2, 3], [0, 4]] as const) {
      const keys = [...new Set([...explain.features!(p, texts[a] as string).keys, ...explain.features!(p, texts[b] as string).keys])];
      expect(await documentCounts({ docs, cached }, p.shingle, p.fingerprint, keys)).toEqual(countsByPass(docs, p.shingle, p.fingerprint, keys));
    }
    expect(computed.filter((k) => k.startsWith('document-counts-pass:'))).toHaveLength(1);
  });
});

describe('documentCountsById', () => {
  it('counts fingerprints given by number as a pass counts their hex, from stored features and without', async () => {
    const texts = ['the cat sat on the mat today', 'the cat sat on a mat today', 'a cat sat on the mat', 'the dog sat on the mat today', 'the cat sat', 'zzz'];
    const docs = docSet(texts);
    for (const fingerprint of ['rabin64', 'md5'] as const) {
      const p = adapter.params.parse({ shingle: { unit: 'word', size: 2 }, fingerprint });
      const stored = mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle: p.shingle, kind: fingerprint })]);
      // a document of the collection, and one outside it whose shingles partly are not in it
      for (const text of [texts[0] as string, 'the cat sat on a sofa']) {
        const occ = shingleOccurrences(text, p.shingle, fingerprint);
        const ids = [...new Set(occ.ids)];
        const expected = countsByPass(docs, p.shingle, fingerprint, ids.map((id) => occ.hexOf(id)));
        const byHex = (counts: Uint32Array) => new Map(ids.map((id, i) => [occ.hexOf(id), counts[i]]));
        const shared = new Map<string, unknown>();
        const cached = <T>(key: string, compute: () => T): T => (shared.has(key) ? (shared.get(key) as T) : (shared.set(key, compute()), shared.get(key) as T));
        const fromStored = await documentCountsById({ docs, cached, storedIfAny: <T>() => stored as T }, p.shingle, fingerprint, occ, ids);
        expect(byHex(fromStored)).toEqual(expected);
        // asked again through the same cache: the same counts
        expect(await documentCountsById({ docs, cached, storedIfAny: <T>() => stored as T }, p.shingle, fingerprint, occ, ids)).toEqual(fromStored);
        expect(byHex(await documentCountsById({ docs }, p.shingle, fingerprint, occ, ids))).toEqual(expected);
      }
    }
  });
});

describe('documentCountsById over a collection of thousands of fingerprints', () => {
  it('counts every fingerprint of its documents, and of a text outside it, as a pass does', async () => {
    // words drawn from a small vocabulary: shingles shared by many documents, and many held by one
    let x = 7;
    const word = (): string => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return `w${(x >>> 8) % 300}`;
    };
    const texts = Array.from({ length: 400 }, () => Array.from({ length: 30 }, word).join(' '));
    const docs = docSet(texts);
    for (const fingerprint of ['rabin64', 'md5'] as const) {
      const p = adapter.params.parse({ shingle: { unit: 'word', size: 2 }, fingerprint });
      const stored = mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle: p.shingle, kind: fingerprint })]);
      expect(stored.fingerprints).toBeGreaterThan(5_000);
      for (const text of [texts.slice(0, 40).join(' '), Array.from({ length: 400 }, word).join(' ')]) {
        const occ = shingleOccurrences(text, p.shingle, fingerprint);
        const ids = [...new Set(occ.ids)];
        const expected = countsByPass(docs, p.shingle, fingerprint, ids.map((id) => occ.hexOf(id)));
        const counts = await documentCountsById({ docs, storedIfAny: <T>() => stored as T }, p.shingle, fingerprint, occ, ids);
        expect(new Map(ids.map((id, i) => [occ.hexOf(id), counts[i]]))).toEqual(expected);
      }
    }
  });
});

describe('PassCounts', () => {
  const texts = Array.from({ length: 40 }, (_, i) => `doc ${i % 7} the cat sat on mat ${i % 3} and the dog ran ${i % 5} times ${'x'.repeat(i % 4)}`);
  const p = adapter.params.parse({ shingle: { unit: 'word', size: 2 }, fingerprint: 'rabin64' });
  const keysOf = (t: string): string[] => [...new Set(explain.features!(p, t).keys)];
  /** Brute force: the documents whose own shingles hold the key. */
  const truth = (key: string): number => texts.filter((t) => keysOf(t).includes(key)).length;

  it('counts, for questions asked together, what each document holds, in one pass', async () => {
    // Pieces of about 100 characters: a pass adds up the counts of many pieces.
    const counter = new PassCounts(docSet(texts), p.shingle, p.fingerprint, { pieceChars: 100 });
    const asked = [keysOf(texts[0] as string), keysOf(texts[5] as string), [...keysOf(texts[9] as string), 'ffffffffffffffff']];
    const answers = await Promise.all(asked.map((keys) => counter.counts(keys)));
    answers.forEach((m, i) => expect([...m]).toEqual((asked[i] as string[]).map((k) => [k, truth(k)])));
    expect(counter.passes).toBe(1);
    // Asked again: kept, no pass; a new key: one more pass.
    await counter.counts(keysOf(texts[0] as string));
    expect(counter.passes).toBe(1);
    const more = keysOf('zebra crossing');
    expect([...(await counter.counts(more))]).toEqual(more.map((k) => [k, 0]));
    expect(counter.passes).toBe(2);
  });

  it('stops a pass at an abort', async () => {
    const ac = new AbortController();
    const counter = new PassCounts(docSet(texts), p.shingle, p.fingerprint, { signal: ac.signal, pieceChars: 100 });
    const asked = counter.counts(keysOf(texts[1] as string));
    // Between two pieces of the pass.
    setImmediate(() => setImmediate(() => ac.abort(new Error('interrupted'))));
    await expect(asked).rejects.toThrow('interrupted');
  });
});

describe('document counts from what the run computed', () => {
  const pool = new WorkerPool(1);
  const dir = mkdtempSync(join(tmpdir(), 'feature-counts-'));
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const texts = Array.from({ length: 60 }, (_, i) => `doc ${i % 7} the cat sat on mat ${i % 3} and the dog ran ${i % 5} times ${'x'.repeat(i % 4)} ${i % 11 === 0 ? `only ${i}` : ''}`);
  const docs = docSet(texts);

  /** A run's cache as the local backend offers it to explanations (ExplainContext.computedIfAny). */
  function computed(values: Map<string, unknown>): <T>(value: string | StoreCodec<T>) => Promise<T | undefined> {
    return async <T>(value: string | StoreCodec<T>) => values.get(typeof value === 'string' ? value : `stored:${value.key}`) as T | undefined;
  }

  for (const fingerprint of ['rabin64', 'md5'] as const) {
    const p = adapter.params.parse({ shingle: { unit: 'word', size: 2 }, fingerprint });
    const held = async (): Promise<HeldFingerprintRuns> => {
      const work = mkdtempSync(join(dir, 'runs-'));
      const k = kernelOnThreads({ docs, pool, threads: 1, budget: 2 ** 30, workDir: work });
      return { ...(await writeFingerprintRuns(k, { shingle: p.shingle, kind: fingerprint, dir: work, batchChars: 200, partitionBits: 1 })), dir: work, removed: false };
    };
    /** Pairs' fingerprints by number and their hex; the counts a pass gives. */
    const asked = (a: number, b: number) => {
      const occ = shingleOccurrences(`${texts[a]} ${texts[b]} zebra crossing`, p.shingle, fingerprint);
      const ids = [...new Set(occ.ids)];
      return { occ, ids, expected: countsByPass(docs, p.shingle, fingerprint, ids.map((id) => occ.hexOf(id))) };
    };

    it(`come from the fingerprint runs without a pass, as a pass counts them (${fingerprint})`, async () => {
      const runs = await held();
      const pass = vi.spyOn(PassCounts.prototype, 'counts');
      try {
        const shared = new Map<string, unknown>();
        const cached = <T>(key: string, compute: () => T): T => (shared.has(key) ? (shared.get(key) as T) : (shared.set(key, compute()), shared.get(key) as T));
        const computedIfAny = computed(new Map([[fingerprintRunsKey(p.shingle, fingerprint), runs]]));
        for (const [a, b] of [[0, 1], [11, 22], [0, 33]] as const) {
          const { occ, ids, expected } = asked(a, b);
          const byId = await documentCountsById({ docs, cached, computedIfAny }, p.shingle, fingerprint, occ, ids);
          expect(new Map(ids.map((id, i) => [occ.hexOf(id), byId[i]]))).toEqual(expected);
          const keys = [...expected.keys()];
          expect(await documentCounts({ docs, computedIfAny }, p.shingle, fingerprint, keys)).toEqual(expected);
          // held by none (zebra), one (only 11), several
          expect(new Set([...expected.values()].map((n) => Math.min(n, 2)))).toEqual(new Set([0, 1, 2]));
        }
        expect(pass).not.toHaveBeenCalled();
      } finally {
        pass.mockRestore();
      }
    });

    it(`come from the features computed in the run, and from a pass once the runs were removed (${fingerprint})`, async () => {
      const features = mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle: p.shingle, kind: fingerprint })]);
      const runs = { ...(await held()), removed: true };
      const pass = vi.spyOn(PassCounts.prototype, 'counts');
      try {
        const { occ, ids, expected } = asked(0, 11);
        const byHex = (counts: Uint32Array) => new Map(ids.map((id, i) => [occ.hexOf(id), counts[i]]));
        const fromFeatures = computed(new Map<string, unknown>([[`stored:${featuresCodec(p.shingle, fingerprint).key}`, features]]));
        expect(byHex(await documentCountsById({ docs, computedIfAny: fromFeatures }, p.shingle, fingerprint, occ, ids))).toEqual(expected);
        expect(pass).not.toHaveBeenCalled();
        const removed = computed(new Map([[fingerprintRunsKey(p.shingle, fingerprint), runs]]));
        expect(byHex(await documentCountsById({ docs, computedIfAny: removed }, p.shingle, fingerprint, occ, ids))).toEqual(expected);
        expect(pass).toHaveBeenCalledTimes(1);
      } finally {
        pass.mockRestore();
      }
    });
  }
});
