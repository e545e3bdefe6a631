/**
 * The Broder plan through the streaming backend (the real bundled job script, real sort
 * processes) gives the pairs, scores and counters of the local backend's typed-array kernel.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { findAdapter } from '../../../../algorithms/registry.ts';
import type { DocumentSet } from '../../../../contract/index.ts';
import { createStreamingBackend } from '../../../../harness/mapreduce/streaming/backend.ts';
import { streamingBackendSchema } from '../../../../harness/mapreduce/streaming/config.ts';
import { rowsOf, runPlan } from '../../../support/run-plan.ts';
import { makeContext, removeTempDirs } from './toy/fixture.ts';

/** 30 short texts: 8 originals, each with planted near-duplicates (edits, cuts, an exact copy), and loners. */
function plantedCorpus(): DocumentSet {
  let seed = 12345;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const vocabulary = Array.from({ length: 300 }, (_, i) => `w${(i * 7919) % 1000}${'abcdefgh'[i % 8]}`);
  const sentence = (n: number) => Array.from({ length: n }, () => vocabulary[rand(vocabulary.length)]).join(' ');
  const texts: string[] = [];
  for (let b = 0; b < 8; b++) {
    const original = `${sentence(30)}. ${sentence(25)}.`;
    const words = original.split(' ');
    texts.push(original);
    const edited = [...words];
    for (let k = 0; k < 3; k++) edited[rand(edited.length)] = vocabulary[rand(vocabulary.length)] as string;
    texts.push(edited.join(' '));
    if (b % 2 === 0) texts.push(words.slice(0, 40).join(' '));
    if (b % 3 === 0) texts.push(original);
  }
  while (texts.length < 30) texts.push(`${sentence(35)}.`);
  return { ids: texts.map((_, i) => `d${i}`), texts };
}

const DOCS = plantedCorpus();
const broder = await findAdapter('broder');
if (!broder) throw new Error('broder is not registered');

afterAll(removeTempDirs);

describe('Broder plan on the streaming backend', () => {
  const cases: [string, unknown][] = [
    ['ground truth', {}],
    ['SCT 3', { sampling: { method: 'sct', threshold: 3 } }],
    // loners (35 words) at m = 1, cuts (40) at m = 2, originals and edits (55) at m = 4: pairs across groups
    ['adaptive by words', { sampling: { method: 'adaptive', by: 'words', groups: [{ max_size: 39, m: 1 }, { max_size: 50, m: 2 }, { m: 4 }] } }],
  ];
  for (const [name, raw] of cases) {
    it(`gives the local kernel's pairs, scores and counters: ${name}`, async () => {
      const adapter = broder;
      const params = adapter.params.parse(raw);
      const minScore = 0.1;
      const plan = adapter.plan(params, { minScore, seed: 0 });
      const backend = createStreamingBackend(streamingBackendSchema.parse({ kind: 'streaming' }));
      const streamed = await backend.run({ variant: name, algorithm: 'broder', params, minScore, seed: 0, plan }, makeContext(DOCS));
      const local = await runPlan('broder', raw, DOCS, { engine: 'auto', minScore });
      expect(rowsOf(streamed.outputs.pairs)).toEqual(local.rows);
      expect(streamed.counters).toEqual(local.counters);
      // The planted exact copy of document 0 (index 3) shares all its fingerprints: resemblance 1 in
      // the ground truth. (SCT 3 drops the fingerprints these 4 related texts share.)
      if (name === 'ground truth') expect(rowsOf(streamed.outputs.pairs)).toContain('0 3 1');
      expect(streamed.outputs.pairs.a.length).toBeGreaterThan(8);
    });
  }
});
