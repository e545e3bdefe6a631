/**
 * `bench explain` on a run of the small JSONL fixture: the explanation read back from the run
 * folder agrees with the run's own files, and bad arguments are one-line errors, exit 2.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainFromRun } from '../../../harness/commands/explain.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { renderExplanation } from '../../../harness/evaluate/explain/render.ts';
import { runBench } from '../../support/cli.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';
import { fileURLToPath } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'bench-explain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let runDir = '';

const CONFIG = `experiment: explain-test
corpus:
  format: jsonl
  path: ${fileURLToPath(SMALL_JSONL)}
ground_truth:
  algorithm: broder
  params: { shingle: { unit: word, size: 3 } }
runs:
  - algorithm: broder
    params: { shingle: { unit: word, size: 3 }, sampling: { method: mod, m: [2] } }
evaluate:
  threshold: 0.5
  min_score: 0.1
backend:
  kind: local
  workers: 1
`;

beforeAll(async () => {
  const file = join(dir, 'explain.yaml');
  writeFileSync(file, CONFIG);
  const r = await runExperiment(runOptions(file, join(dir, 'results'), { env: { NDD_BENCH_CACHE_DIR: 'off' } }));
  if (r.kind !== 'completed') throw new Error(r.kind);
  runDir = r.dir;
}, 60_000);

/** The pairs file's rows as `a,b → score`. */
function pairs(variant: string): Map<string, number> {
  const text = gunzipSync(readFileSync(join(runDir, 'pairs', `${variant}.csv.gz`))).toString('utf8');
  return new Map(text.trim().split('\n').slice(1).map((l) => [l.split(',').slice(0, 2).join(','), Number(l.split(',')[2])]));
}

describe('bench explain', () => {
  it('gives the exact resemblance the ground truth wrote and the score the variant wrote', async () => {
    const truth = pairs('ground-truth');
    const mod = pairs('broder/mod=2');
    for (const [x, y] of [['b0', 'b0-edit'], ['b1', 'b1-cut'], ['b0', 'list0']] as const) {
      const { explanation: e } = await explainFromRun({ run: runDir, variant: 'broder/mod=2', docA: x, docB: y });
      expect(e.exact.resemblance ?? 0).toBe(truth.get(`${x},${y}`) ?? 0);
      expect(e.run.score).toBe(mod.get(`${x},${y}`) ?? null);
      // the evidence recomputes the score the run reported
      expect(e.evidence?.data.score ?? 0).toBe(e.run.score ?? 0);
    }
  });

  it('prints lines of at most 100 columns', async () => {
    const r = await explainFromRun({ run: runDir, variant: 'broder/mod=2', docA: 'b0-edit', docB: 'b0' });
    const text = renderExplanation(r.explanation, r.texts, 100);
    expect(text).toContain('broder/mod=2 on b0 and b0-edit:');
    expect(text.split('\n').every((l) => l.length <= 100)).toBe(true);
  });

  describe.concurrent('as users run it', () => {
    it('prints JSON with --json', async () => {
      const r = await runBench(['explain', runDir, 'ground-truth', 'b0', 'b0-copy', '--json'], { NDD_BENCH_CACHE_DIR: 'off' });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ variant: 'ground-truth', exact: { resemblance: 1 }, verdict: 'true positive' });
    });

    it.each([
      [['explain', '/nonexistent/run', 'ground-truth', 'b0', 'b1'], '/nonexistent/run/run.json: not found'],
      [['explain', '<run>', 'broder/mod=4', 'b0', 'b1'], 'no variant "broder/mod=4"; did you mean broder/mod=2?'],
      [['explain', '<run>', 'ground-truth', 'b0', 'b1-edti'], 'no document "b1-edti" in the run\'s 19 documents; did you mean b1-edit?'],
      [['explain', '<run>', 'ground-truth', 'b0', 'b0'], 'the same document twice'],
    ])('refuses %j in one line, exit 2', async (args, message) => {
      const r = await runBench(args.map((a) => (a === '<run>' ? runDir : a)), { NDD_BENCH_CACHE_DIR: 'off' });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  });
});
