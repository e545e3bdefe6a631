/** A ground truth must score pairs by resemblance, from the lowest score the evaluation reads. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import type { AlgorithmAdapter } from '../../../contract/index.ts';
import { ConfigError } from '../../../harness/errors.ts';
import { loadExperiment } from '../../../harness/experiment/load.ts';
import { TEST_DETECTORS } from '../../contract/detectors/catalog.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'gt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A join that reports pairs from its threshold up (as PPJoin does). */
const join5: AlgorithmAdapter = {
  name: 'join',
  description: 'test: an exact join at a threshold',
  citation: 'none',
  params: z.object({ t: z.number().default(0.5) }).strict(),
  plan: (p: { t: number }) => ({ jobs: [], output: { pairs: 'p', score: { kind: 'resemblance', floor: p.t }, decisions: { kind: 'every-reported-pair' } } }),
};
const catalog = { ...TEST_DETECTORS, adapters: [...TEST_DETECTORS.adapters, join5] };

async function load(gt: string, evaluate = ''): Promise<string> {
  const file = join(dir, 'x.yaml');
  writeFileSync(file, `experiment: x\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\nground_truth: ${gt}\n${evaluate}`);
  const e = await loadExperiment(file, { env: {}, detectors: catalog }).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (e === undefined) return 'loaded';
  if (!(e instanceof ConfigError)) throw e;
  return e.message;
}

describe('the ground truth', () => {
  it('must estimate the resemblance', async () => {
    expect(await load('{ algorithm: exact-duplicates }')).toMatch(
      /x\.yaml:3:\d+: ground_truth\.algorithm: exact-duplicates cannot be the ground truth: its scores are not resemblances \(exact duplicates by hash/,
    );
  });

  it('must report every pair from min_score (or the threshold, when lower) up', async () => {
    expect(await load('{ algorithm: join, params: { t: 0.5 } }')).toMatch(/join as configured reports pairs from RR 0.5 up, but the evaluation needs every pair from 0.1/);
    expect(await load('{ algorithm: join, params: { t: 0.1 } }')).toBe('loaded');
    expect(await load('{ algorithm: join, params: { t: 0.5 } }', 'evaluate: { min_score: 0.5, threshold: 0.5 }\n')).toBe('loaded');
  });
});
