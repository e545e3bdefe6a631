/**
 * The ground truth reports its pairs from the lowest score its measures read (variant-run.ts
 * truthFloor): alone, and with a variant to compare when it can score the variant's other
 * pairs on demand (Broder's kernel on the local backend). Both runs must give the same
 * measures, files and tables, and the counters must say what was reported.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { charShingles } from '../../../algorithms/text/shingles.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { SMALL_JSONL, smallCorpus } from '../../support/corpus.ts';
import { runOptions } from '../../support/run-options.ts';
import { broderKernelBytes, broderScorerBytes } from '../../../algorithms/broder/kernel.ts';
import { corpus as heavyText } from '../../support/heavy-text.ts';

const VARIANT = 'runs:\n  - algorithm: broder\n    params: { shingle: { unit: char, size: 16 }, sampling: { method: mod, m: 4 } }';
const GT = '{ algorithm: broder, params: { shingle: { unit: char, size: 16 } } }';
const EVALUATE = 'evaluate: { threshold: 0.7, min_score: 0.6, distribution: [0.9, 0.8, 0.5] }';

let root: string;
type RunName = 'alone' | 'compared' | 'tight' | 'roomy' | 'out-of-core';
const runs: Record<RunName, { dir: string; record: RunRecord }> = {} as never;

async function run(name: RunName, variants: string, backend = 'backend: { kind: local, workers: 1 }', corpus = fileURLToPath(SMALL_JSONL)): Promise<void> {
  const config = join(root, `${name}.yaml`);
  writeFileSync(
    config,
    [`experiment: ${name}`, `corpus: { format: jsonl, path: ${corpus} }`, `ground_truth: ${GT}`, variants, EVALUATE, backend, ''].join('\n'),
  );
  const outcome = await runExperiment(runOptions(config, join(root, 'results'), { runId: 'r' }));
  if (outcome.kind !== 'completed') throw new Error(`run ${name}: ${outcome.kind}`);
  runs[name] = { dir: outcome.dir, record: outcome.record };
}

const shingleSets = (): Set<string>[] => Array.from(smallCorpus().texts).map((t) => new Set(charShingles(normalize(t), 16)));

/** MR#1's output pairs from the definition: C(d, 2) for a shingle in d documents. */
function naiveEmissions(): number {
  const df = new Map<string, number>();
  for (const set of shingleSets()) for (const s of set) df.set(s, (df.get(s) ?? 0) + 1);
  let n = 0;
  for (const d of df.values()) n += (d * (d - 1)) / 2;
  return n;
}

/** Each pair's resemblance of 16-character shingles, from the definition (sets of strings). */
function naiveScores(): number[] {
  const sets = shingleSets();
  const out: number[] = [];
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      const [a, b] = [sets[i] as Set<string>, sets[j] as Set<string>];
      let c = 0;
      for (const x of a) if (b.has(x)) c++;
      if (c > 0) out.push(c / (a.size + b.size - c));
    }
  }
  return out;
}

const truthRow = (name: RunName) => runs[name].record.variants.find((v) => v.ground_truth)!;

/** The ground truth's row of a CSV by column, without the measured columns and the experiment's name. */
function truthRowOf(name: RunName, file: string, varying: readonly string[] = []): Record<string, string> {
  const [head, ...rows] = readFileSync(join(runs[name].dir, file), 'utf8').trim().split('\n') as [string, ...string[]];
  const cols = head.split(',');
  const cells = rows.find((r) => r.split(',').includes('ground-truth'))!.split(',');
  return Object.fromEntries(cols.map((c, i) => [c, cells[i] as string]).filter(([c]) => !VARYING_COLUMNS.includes(c as string) && !varying.includes(c as string) && c !== 'experiment'));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'truth-floor-'));
  await run('alone', '');
  await run('compared', VARIANT);
  // A memory budget the in-memory kernel does not fit: the ground truth runs out of core, where
  // it has no scorer, and reports every pair instead (variant-run.ts truthWithinMemory).
  await run('tight', VARIANT, 'backend: { kind: local, workers: 1, memory_mb: 16 }');
  // A budget the in-memory kernel does not fit but the out-of-core scorer does (its lists, 4
  // bytes a shared entry), in whole MB: a corpus large enough for the two to differ by one.
  const texts = heavyText(3, 1500);
  const corpus = join(root, 'heavy.jsonl');
  writeFileSync(corpus, texts.map((text, i) => JSON.stringify({ id: `d${i}`, text })).join('\n') + '\n');
  const shape = { documents: texts.length, chars: texts.reduce((s, t) => s + t.length, 0) };
  const mb = Math.ceil(broderScorerBytes(shape) / 2 ** 20);
  expect(mb * 2 ** 20).toBeLessThan(broderKernelBytes(shape));
  await run('roomy', VARIANT, 'backend: { kind: local, workers: 2 }', corpus);
  await run('out-of-core', VARIANT, `backend: { kind: local, workers: 2, memory_mb: ${mb} }`, corpus);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the ground truth of a run without variants', () => {
  it('reports from the lowest score its measures read, the distribution threshold 0.5, alone or not', () => {
    expect(truthRow('alone').score).toEqual({ kind: 'resemblance', floor: 0.5 });
    expect(truthRow('compared').score).toEqual({ kind: 'resemblance', floor: 0.5 });
  });

  it('counts as MR#2 output the pairs from that score up, as distinct pairs every pair sharing a shingle, and MR#1’s emissions', () => {
    const scores = naiveScores();
    expect(scores.filter((s) => s < 0.5).length).toBeGreaterThan(0); // else the test shows nothing
    for (const name of ['alone', 'compared'] as const) {
      expect(truthRow(name).counters['mr2-resemblance']).toEqual({ distinct_pairs: scores.length, output_pairs: scores.filter((s) => s >= 0.5).length });
      expect(truthRow(name).counters['mr1-shingle-pairs']?.output_pairs).toBe(naiveEmissions());
    }
  });

  it('gives the same measures, distribution, slices and pairs file alone as with a variant', () => {
    const metrics = truthRowOf('alone', 'metrics.csv');
    expect(Object.keys(metrics).length).toBeGreaterThan(10);
    expect(truthRowOf('compared', 'metrics.csv')).toMatchObject(metrics);
    // distribution.csv has a column a variant: the ground truth's is the second.
    const truthColumn = (name: 'alone' | 'compared') => readFileSync(join(runs[name].dir, 'distribution.csv'), 'utf8').trim().split('\n').map((l) => l.split(',').slice(0, 2).join(','));
    expect(truthColumn('alone')).toEqual(truthColumn('compared'));
    expect(truthColumn('alone')).toHaveLength(4);
    const [alone, compared] = [truthRow('alone'), truthRow('compared')];
    expect(alone.slices).toEqual(compared.slices);
    expect(alone.distribution).toEqual(compared.distribution);
    expect(alone.pairs_compared).toBe(compared.pairs_compared);
    expect(readFileSync(join(runs.alone.dir, 'pairs', 'ground-truth.csv.gz'))).toEqual(readFileSync(join(runs.compared.dir, 'pairs', 'ground-truth.csv.gz')));
  });
});

/** The metrics.csv cells of every row but the measured columns, the experiment's name and `without`. */
function metricCells(name: RunName, without: readonly string[] = []): Record<string, string>[] {
  const [head, ...body] = readFileSync(join(runs[name].dir, 'metrics.csv'), 'utf8').trim().split('\n') as [string, ...string[]];
  const cols = head.split(',');
  // Fields split at commas outside quotes (variant names are quoted).
  const fields = (r: string): string[] => r.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((f) => f.replace(/,$/, ''));
  return body.map((r) => Object.fromEntries(fields(r).map((v, i) => [cols[i] as string, v]).filter(([c]) => !VARYING_COLUMNS.includes(c as string) && !['experiment', 'spill_mb', ...without].includes(c as string))));
}

describe('the ground truth out of core with its scorer within the budget', () => {
  it('runs out of core, reports from its floor and gives the measures, counters and pairs of the in-memory run', () => {
    const [truth, inMemory] = [truthRow('out-of-core'), truthRow('roomy')];
    expect(String(truth.backend_extra?.out_of_core)).toMatch(/over memory_mb/);
    expect(inMemory.backend_extra?.out_of_core).toBeUndefined();
    expect(truth.score).toEqual({ kind: 'resemblance', floor: 0.5 });
    expect(truth.counters).toEqual(inMemory.counters);
    // The variant's error reads the truth's scores of its pairs, those under the floor looked up.
    expect(Number(metricCells('roomy')[1]?.avg_error)).toBeGreaterThan(0);
    expect(metricCells('out-of-core')).toEqual(metricCells('roomy'));
    const files = (name: RunName): string[] => (readdirSync(join(runs[name].dir, 'pairs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.csv.gz')).sort();
    expect(files('roomy')).toHaveLength(2);
    expect(files('out-of-core')).toEqual(files('roomy'));
    for (const file of files('roomy')) expect(readFileSync(join(runs['out-of-core'].dir, 'pairs', file)), file).toEqual(readFileSync(join(runs.roomy.dir, 'pairs', file)));
  });
});

describe('the ground truth over the memory budget', () => {
  it('reports every pair it scores, with the measures of one that looks pairs up', () => {
    expect(truthRow('tight').score).toEqual({ kind: 'resemblance', floor: Number.MIN_VALUE });
    expect(truthRow('tight').counters['mr2-resemblance']).toEqual({ distinct_pairs: naiveScores().length, output_pairs: naiveScores().length });
    const rows = (name: RunName): string[] => readFileSync(join(runs[name].dir, 'metrics.csv'), 'utf8').trim().split('\n');
    // Every column but the truth's MR#2 output, the measured ones and the experiment's name.
    const cells = (name: RunName): Record<string, string>[] => {
      const [head, ...body] = rows(name) as [string, ...string[]];
      const cols = head.split(',');
      // Fields split at commas outside quotes (variant names are quoted).
      const fields = (r: string): string[] => r.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((f) => f.replace(/,$/, ''));
      return body.map((r) => Object.fromEntries(fields(r).map((v, i) => [cols[i] as string, v]).filter(([c]) => !VARYING_COLUMNS.includes(c as string) && !['experiment', 'mr2-resemblance.output_pairs', 'spill_mb'].includes(c as string))));
    };
    expect(cells('tight')).toEqual(cells('compared'));
  });
});
