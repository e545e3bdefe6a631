/**
 * The ground truth's scorer (kernel.ts exactScorer, contract LocalKernel.scorer) on the worker
 * threads must give every pair the double the definition gives, in memory and out of core, and
 * the same doubles as the synchronous scoring of the same lists (prefix-join.ts exactResemblance).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapter as broder } from '../../../algorithms/broder/index.ts';
import { outOfCoreLists } from '../../../algorithms/broder/external.ts';
import { broderKernel, broderKernelBytes } from '../../../algorithms/broder/kernel.ts';
import { exactResemblance } from '../../../algorithms/broder/prefix-join.ts';
import { corpusFeatures } from '../../../algorithms/text/corpus-features.ts';
import type { DocumentSet, KernelContext } from '../../../contract/index.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { bruteForce, corpus, SHINGLE } from '../../support/heavy-text.ts';
import { kernelOnThreads } from '../../support/kernel-on-threads.ts';

const pool = new WorkerPool(2);
afterAll(() => pool.close());

const params = broder.params.parse({ shingle: SHINGLE });
const documents = (texts: string[]): DocumentSet => ({ ids: texts.map((_, i) => `d${i}`), texts });

function context(docs: DocumentSet, o: { workDir: string; threads: 1 | 2; budget: number }): KernelContext {
  return kernelOnThreads({ docs, pool, ...o });
}

/** A seeded shuffle, so that the pairs asked for come in no particular order. */
function shuffled<T>(xs: T[], seed: number): T[] {
  let s = seed;
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('the scorer', () => {
  const cases = [1, 2, 3].flatMap((seed) => (['in memory', 'out of core'] as const).flatMap((where) => ([1, 2] as const).map((threads) => [seed, where, threads] as const)));
  it.each(cases)('scores every pair as brute force does and as the lists scored here do (corpus %i, %s, %i threads)', async (seed, where, threads) => {
    const texts = corpus(seed, 40);
    const docs = documents(texts);
    const all = shuffled(bruteForce(texts), seed);
    const chars = texts.reduce((s, t) => s + t.length, 0);
    const fits = broderKernelBytes({ documents: texts.length, chars });
    const work = mkdtempSync(join(tmpdir(), 'scorer-'));
    try {
      const k = context(docs, { workDir: work, threads, budget: where === 'in memory' ? fits : fits - 1 });
      const scorer = await broderKernel(params, 0.5).scorer!(k);
      const a = Uint32Array.from(all, (p) => p.a);
      const b = Uint32Array.from(all, (p) => p.b);
      const got = await scorer(a, b);
      expect([...got]).toEqual(all.map((p) => p.rr));
      const lists = where === 'in memory' ? await corpusFeatures(k, params.shingle, params.fingerprint) : await outOfCoreLists(k, params);
      expect(got).toEqual(exactResemblance(lists, a, b));
      // Some pairs share nothing: they score 0.
      expect(all.some((p) => p.rr === 0)).toBe(true);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
