/**
 * `shuffle_seed` permutes the values within each key (Hadoop promises no order): a toy job whose
 * output depends on that order (`toy-order`) gives map-output order without a seed, another
 * order with each seed, and the same order again with the same seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamingBackend } from '../../../../harness/mapreduce/streaming/backend.ts';
import { streamingBackendSchema } from '../../../../harness/mapreduce/streaming/config.ts';
import { toyOrder } from './toy/toy-algorithms.ts';
import { makeContext, pairsOf, removeTempDirs, TOY_DOCS, toyJobScript } from './toy/fixture.ts';

let script = '';
beforeAll(async () => {
  script = await toyJobScript();
});
afterAll(removeTempDirs);

async function consecutivePairs(seed: number | undefined): Promise<string[]> {
  // one map task, so that map-output order is document order
  const config = streamingBackendSchema.parse({ kind: 'streaming', map_tasks: 1, reduce_tasks: 1, ...(seed === undefined ? {} : { shuffle_seed: seed }) });
  const backend = createStreamingBackend(config, { jobScript: script });
  const plan = toyOrder.plan({}, { minScore: 0, seed: 0 });
  const r = await backend.run({ variant: 'order', algorithm: toyOrder.name, params: {}, minScore: 0, seed: 0, plan }, makeContext(TOY_DOCS));
  await backend.close();
  return pairsOf(r.outputs.pairs).map((p) => p.key);
}

/** Consecutive documents of each parity, as map-output order delivers them (computed from the documents' indexes). */
function inDocumentOrder(n: number): string[] {
  const pairs: string[] = [];
  for (let i = 0; i + 2 < n; i++) pairs.push(`${i}:${i + 2}`);
  return pairs.sort();
}

describe('streaming backend shuffle_seed', () => {
  it('keeps map-output order within a key without a seed', async () => {
    expect(await consecutivePairs(undefined)).toEqual(inDocumentOrder(TOY_DOCS.texts.length));
  });

  it('delivers the values of a key in another order with each seed, the same order for the same seed', async () => {
    const unshuffled = inDocumentOrder(TOY_DOCS.texts.length);
    const seen = new Set<string>();
    for (const seed of [1, 2, 3]) {
      const pairs = await consecutivePairs(seed);
      expect(pairs, `seed ${seed}`).not.toEqual(unshuffled);
      // four pairs of consecutive values in each of the two keys, whatever the order
      expect(pairs.length).toBe(TOY_DOCS.texts.length - 2);
      expect(await consecutivePairs(seed), `seed ${seed} again`).toEqual(pairs);
      seen.add(pairs.join(' '));
    }
    expect(seen.size).toBeGreaterThan(1);
  }, 60_000);
});
