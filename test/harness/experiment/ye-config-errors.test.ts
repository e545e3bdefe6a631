/**
 * Bad size groups, thresholds, precision targets and residues are config errors: one line each,
 * naming the file, the line and column of the value, and the field.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../harness/errors.ts';
import { loadExperiment } from '../../../harness/experiment/load.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ye-config-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The issues of a config made of the lines given after a valid head (corpus on line 2). */
async function issues(name: string, lines: string): Promise<{ file: string; issues: readonly string[] }> {
  const file = join(root, `${name}.yaml`);
  writeFileSync(file, `experiment: ${name}\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\n${lines}`);
  const err = await loadExperiment(file, { env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return { file, issues: (err as ConfigError).issues };
}

describe('config errors of the Ye et al. features', () => {
  it('overlapping size groups', async () => {
    const r = await issues('overlap', 'evaluate:\n  size_groups: [{ min_words: 0, max_words: 500 }, { min_words: 500 }]\n');
    expect(r.issues).toEqual([`${r.file}:4:64: evaluate.size_groups[1].min_words: size groups overlap: 500+ starts inside the group before it (0-500)`]);
  });

  it('unsorted size groups', async () => {
    const r = await issues('unsorted', 'evaluate:\n  size_groups: [{ min_words: 500, max_words: 999 }, { min_words: 0, max_words: 499 }]\n');
    expect(r.issues).toEqual([`${r.file}:4:66: evaluate.size_groups[1].min_words: size groups must be sorted by min_words: 0 follows 500`]);
  });

  it('a threshold list with values outside (0, 1]', async () => {
    const r = await issues('thresholds', 'evaluate:\n  min_score: 0.1\n  thresholds: [0.5, 0, 1.2]\n');
    expect(r.issues).toEqual([
      `${r.file}:5:21: evaluate.thresholds[1]: must be more than 0, got 0`,
      `${r.file}:5:24: evaluate.thresholds[2]: must be at most 1, got 1.2`,
    ]);
  });

  it('a precision target outside (0, 1]', async () => {
    const zero = await issues('target0', 'runs:\n  - algorithm: broder\n    params: { sampling: { method: adaptive-target, precision: 0, threshold: 0.6 } }\n');
    expect(zero.issues).toEqual([`${zero.file}:5:63: runs[0].params.sampling.precision: must be more than 0, got 0`]);
    const r = await issues('target', 'runs:\n  - algorithm: broder\n    params: { sampling: { method: adaptive-target, precision: 1.5, threshold: 0.6 } }\n');
    expect(r.issues).toEqual([`${r.file}:5:63: runs[0].params.sampling.precision: must be at most 1, got 1.5`]);
  });

  it('a residue not below m', async () => {
    const r = await issues('residue', 'runs:\n  - algorithm: broder\n    params: { sampling: { method: mod, m: 2, residue: 5 } }\n');
    expect(r.issues).toEqual([`${r.file}:5:55: runs[0].params.sampling.residue: must be below m (2): fp mod 2 is never 5, so nothing would be kept`]);
  });

  it('a ground truth of several runs', async () => {
    const r = await issues('gt', 'ground_truth: { algorithm: broder, params: { sampling: { method: mod, m: 2, residues: all } } }\n');
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toMatch(/ground_truth\.algorithm: broder as configured is several runs .*: the ground truth must be one run$/);
  });

  describe('size groups that leave document sizes uncovered, with a calibrated (adaptive-target) run', () => {
    const run = 'runs:\n  - algorithm: broder\n    name: target\n    params: { sampling: { method: adaptive-target, precision: 0.9, threshold: 0.6, m: [2, 4] } }\n';
    const message = (gaps: string): string =>
      `evaluate.size_groups: documents of ${gaps} words are in no size group, but 'target' chooses its parameters per size group (calibration): make the groups cover every size from 0 words, the last without max_words`;

    it('a gap between groups, a first group above 0 words, a bounded last group', async () => {
      const between = await issues('gap', `evaluate:\n  size_groups: [{ min_words: 0, max_words: 9 }, { min_words: 20 }]\n${run}`);
      expect(between.issues).toEqual([`${between.file}:4:16: ${message('10-19')}`]);
      const below = await issues('below', `evaluate:\n  size_groups: [{ min_words: 5, max_words: 9 }, { min_words: 10 }]\n${run}`);
      expect(below.issues).toEqual([`${below.file}:4:16: ${message('0-4')}`]);
      const all = await issues('all', `evaluate:\n  size_groups: [{ min_words: 1, max_words: 9 }, { min_words: 11, max_words: 50 }]\n${run}`);
      expect(all.issues).toEqual([`${all.file}:4:16: ${message('0-0, 10-10, 51+')}`]);
    });

    it('are fine without a calibrated run, and covering groups are fine with one', async () => {
      const file = join(root, 'fine.yaml');
      const head = `experiment: fine\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\n`;
      writeFileSync(file, `${head}evaluate:\n  size_groups: [{ min_words: 0, max_words: 9 }, { min_words: 20 }]\nruns:\n  - algorithm: broder\n`);
      await expect(loadExperiment(file, { env: {} })).resolves.toBeDefined();
      writeFileSync(file, `${head}evaluate:\n  size_groups: [{ min_words: 0, max_words: 9 }, { min_words: 10 }]\n${run}`);
      await expect(loadExperiment(file, { env: {} })).resolves.toBeDefined();
    });
  });
});
