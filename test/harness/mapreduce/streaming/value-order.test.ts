/**
 * Hadoop promises no order of the values within a key, nor of a map-only job's part files. The
 * streaming backend with `shuffle_seed` permutes both (a different permutation each seed): every
 * detector must still write the local backend's pairs, spans, metrics and counters byte for byte.
 * One variant a set of jobs (every reducer of every detector), to keep the three runs short.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runExperiment } from '../../../../harness/experiment/runner.ts';
import { expectSameResults, ONE_VARIANT_PER_JOB_SET, writeEveryDetectorConfig } from '../../../support/every-detector.ts';
import { runOptions } from '../../../support/run-options.ts';

const SEEDS = [1, 2, 3];

let root: string;
let local: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'value-order-'));
  const r = await runExperiment(runOptions(await writeEveryDetectorConfig(root, []), join(root, 'results'), { only: ONE_VARIANT_PER_JOB_SET }));
  if (r.kind !== 'completed') throw new Error('local run did not complete');
  local = r.dir;
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('every job on the streaming backend with the values of each key permuted', () => {
  for (const seed of SEEDS) {
    it(`gives the local backend's results with shuffle seed ${seed}`, async () => {
      // A config a seed: `--backend streaming` takes the first streaming entry of `backends`.
      const config = await writeEveryDetectorConfig(root, [`- { kind: streaming, map_tasks: 2, reduce_tasks: 2, shuffle_seed: ${seed} }`], `seed-${seed}.yaml`);
      const r = await runExperiment(runOptions(config, join(root, `results-${seed}`), { backendKind: 'streaming', only: ONE_VARIANT_PER_JOB_SET }));
      if (r.kind !== 'completed') throw new Error('streaming run did not complete');
      expectSameResults(r.dir, local, `seed ${seed}`);
    }, 300_000);
  }
});
