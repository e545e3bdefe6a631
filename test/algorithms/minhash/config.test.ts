/**
 * The detector as a user meets it: its defaults, its parameter errors as one-line config errors
 * naming the field, configs/minhash-lsh.yaml's variants, and that config planned for EMR.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { minhashParams } from '../../../algorithms/minhash/params.ts';
import { resolveSettings } from '../../../algorithms/minhash/settings.ts';
import { ConfigError } from '../../../harness/errors.ts';
import { loadExperiment } from '../../../harness/experiment/load.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

const CONFIG = fileURLToPath(new URL('../../../configs/minhash-lsh.yaml', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'minhash-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('minhash parameters', () => {
  it('default to Broder\'s shingling, 128 k-permutation slots, t = 0.5 with bands and rows chosen as datasketch does, estimated verification', () => {
    const p = minhashParams.parse({ permutations: 128, threshold: 0.5 });
    expect(p).toMatchObject({
      shingle: { unit: 'char', size: 64, start: 'word' },
      fingerprint: 'rabin64',
      sketch: 'k-permutation',
      bits: null,
      bands: null,
      rows: null,
      verify: 'estimated',
    });
    // datasketch: MinHashLSH(threshold=0.5, num_perm=128) has b = 25, r = 5
    expect(resolveSettings(p, { minScore: 0.1, seed: 1 }).lsh()).toEqual({ bands: 25, rows: 5 });
  });

  const refused: [string, string, RegExp][] = [
    ['bands without rows', '{ bands: 10 }', /runs\[0\]\.params\.rows: bands and rows go together/],
    ['bands × rows over the slots', '{ permutations: 16, bands: 5, rows: 4 }', /runs\[0\]\.params\.bands: bands × rows = 20 is more than the 16 slots/],
    ['weights not summing to 1', '{ weights: { false_positive: 0.5, false_negative: 0.6 } }', /runs\[0\]\.params\.weights: .*must be 1/],
    ['a threshold of 0', '{ threshold: 0 }', /runs\[0\]\.params\.threshold/],
    ['b-bit over 32', '{ bits: 40 }', /runs\[0\]\.params\.bits/],
    ['an unknown key', '{ permutation: 64 }', /runs\[0\]\.params.*permutation/],
  ];
  it.each(refused)('refuses %s with a one-line error naming the field', async (_name, params, message) => {
    const file = join(root, 'bad.yaml');
    writeFileSync(file, `experiment: bad\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\nruns:\n  - algorithm: minhash\n    params: ${params}\n`);
    const e = await loadExperiment(file, { env: {} }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ConfigError);
    const issues = (e as ConfigError).issues;
    expect(issues.some((l) => message.test(l) && !l.includes('\n'))).toBe(true);
  });
});

describe('configs/minhash-lsh.yaml', () => {
  it('sweeps 16 to 512 permutations, the 128-slot alternatives and hash-value sampling', async () => {
    const exp = await loadExperiment(CONFIG, { env: {} });
    expect(exp.variants.map((v) => v.name)).toEqual([
      'minhash/permutations=16',
      'minhash/permutations=32',
      'minhash/permutations=64',
      'minhash/permutations=128',
      'minhash/permutations=256',
      'minhash/permutations=512',
      'minhash/sketch=one-permutation',
      'minhash/bits=8',
      'minhash/verify=exact',
      'minhash/verify=none',
      'broder/mod=2',
      'broder/mod=4',
      'broder/mod=8',
      'broder/mod=16',
      'broder/mod=32',
    ]);
  });

  it('plans its MinHash variants for EMR as one Hadoop Streaming step per job, the signatures map-only', async () => {
    const r = await runExperiment(runOptions(CONFIG, join(root, 'out'), { backendKind: 'emr', dryRun: { documents: 6046 }, only: ['minhash/permutations=128', 'minhash/verify=exact'] }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    const plan = r.plan as { requests: { operation: string; params: { Steps?: { Name: string; HadoopJarStep: { Args: string[] } }[] } }[] };
    const steps = plan.requests.flatMap((q) => q.params.Steps ?? []);
    const of = (variant: string): string[] => steps.filter((s) => s.Name.includes(variant)).map((s) => s.Name.split(' ').at(-1) as string);
    expect(of('minhash_permutations_128')).toEqual(['minhash-signatures', 'minhash-bands', 'minhash-candidates', 'minhash-verify', 'minhash-clusters']);
    expect(of('minhash_verify_exact')).toEqual(['minhash-signatures', 'minhash-fingerprint-sets', 'minhash-bands', 'minhash-candidates', 'minhash-verify', 'minhash-clusters']);
    const signatures = steps.find((s) => s.Name.endsWith('minhash-signatures'));
    expect(signatures?.HadoopJarStep.Args).toContain('mapreduce.job.reduces=0');
  });
});
