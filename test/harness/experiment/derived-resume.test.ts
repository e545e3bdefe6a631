/**
 * `--resume` with variants of several runs: a run interrupted between two trials, or between two
 * calibration runs, takes the runs it finished from the checkpoint and gives the CSVs of an
 * uninterrupted run (timings aside).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';

let root: string;
let config: string;
let reference: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'derived-resume-'));
  config = join(root, 'r.yaml');
  writeFileSync(
    config,
    `experiment: r
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    name: mod
    params: { shingle: { unit: char, size: 16 }, sampling: { method: mod, m: 4, residues: all } }
  - algorithm: broder
    name: target
    params: { shingle: { unit: char, size: 16 }, sampling: { method: adaptive-target, precision: 0.9, threshold: 0.5, m: [2, 4] } }
evaluate: { threshold: 0.5, min_score: 0.1, size_groups: [{ min_words: 0, max_words: 40 }, { min_words: 41 }] }
backend: { kind: local, workers: 1 }
`,
  );
  const r = await runExperiment(runOptions(config, join(root, 'reference'), { runId: 'x' }));
  if (r.kind !== 'completed') throw new Error('expected a completed run');
  reference = r.dir;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A CSV without the measured columns. */
function deterministic(file: string): string {
  const [head, ...rows] = readFileSync(file, 'utf8').trim().split('\n') as [string, ...string[]];
  const keep = head.split(',').map((c) => !VARYING_COLUMNS.includes(c));
  return [head, ...rows].map((r) => r.split(',').filter((_, i) => keep[i]).join(',')).join('\n');
}

async function interruptedThenResumed(after: string, out: string): Promise<{ dir: string; logs: string[] }> {
  const stop = new AbortController();
  const first = runExperiment(
    runOptions(config, out, {
      runId: 'x',
      signal: stop.signal,
      notice: () => {},
      progress: { update() {}, done() {}, log: (line) => (line.includes(after) ? stop.abort() : undefined) },
    }),
  );
  await expect(first).rejects.toThrow();
  const logs: string[] = [];
  const r = await runExperiment(runOptions(config, out, { runId: 'x', earlier: { checkpoint: 'resume' }, progress: { update() {}, done() {}, log: (l) => logs.push(l) } }));
  if (r.kind !== 'completed') throw new Error('expected a completed run');
  return { dir: r.dir, logs };
}

describe('resuming variants of several runs', () => {
  it.each([
    ['between two trials', 'mod/residue=1:', ['mod/residue=0: resumed', 'mod/residue=1: resumed']],
    ['between two calibration runs', 'target/calibration/m=2:', ['[2/3] mod: resumed', 'target/calibration/m=2: resumed']],
  ])('%s', async (_what, after, resumedLines) => {
    const { dir, logs } = await interruptedThenResumed(after, join(root, after.replace(/[^a-z0-9]/gi, '_')));
    for (const l of resumedLines) expect(logs.some((x) => x.includes(l))).toBe(true);
    for (const f of ['metrics.csv', 'size-groups.csv', 'trials.csv', 'adaptive-plans/target.csv', 'distribution.csv']) {
      expect([f, deterministic(join(dir, f))]).toEqual([f, deterministic(join(reference, f))]);
    }
  });
});
