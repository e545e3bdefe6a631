/**
 * `bench run` with the corpus cache: the second run replays the corpus (run.json says so) and
 * writes the same metrics, distribution and pairs as the first; `bench cache` lists and clears.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { withoutVaryingColumns } from '../../support/measured-columns.ts';
import { runOptions } from '../../support/run-options.ts';

const MAIL = fileURLToPath(new URL('../../fixtures/mail', import.meta.url));
const BIN = fileURLToPath(new URL('../../../bin/bench.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'run-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const config = join(root, 'mail.yaml');
writeFileSync(
  config,
  `experiment: mail
corpus: { format: spamassassin, path: ${MAIL} }
runs:
  - algorithm: broder
    params: { shingle: { unit: char, size: 8 }, sampling: { method: mod, m: [2] } }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 8 } } }
evaluate: { threshold: 0.5, min_score: 0.1 }
backend: { kind: local, workers: 1 }
`,
);
const cacheDir = join(root, 'cache');
const corpusCache = { dir: join(cacheDir, 'corpus'), maxBytes: 2 ** 30, method: 'stat' as const, minBytes: 0, notice: () => undefined };

function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of ['metrics.csv', 'distribution.csv']) out[f] = f === 'metrics.csv' ? withoutVaryingColumns(readFileSync(join(dir, f), 'utf8')) : readFileSync(join(dir, f), 'utf8');
  for (const f of readdirSync(join(dir, 'pairs'), { recursive: true }) as string[]) {
    if (f.endsWith('.gz')) out[f] = readFileSync(join(dir, 'pairs', f)).toString('base64');
  }
  return out;
}

describe('bench run with the corpus cache', () => {
  it('replays the corpus on the second run, with the same results', async () => {
    const first = await runExperiment(runOptions(config, join(root, 'out'), { runId: 'a', inputs: { corpusCache } }));
    const second = await runExperiment(runOptions(config, join(root, 'out'), { runId: 'b', inputs: { corpusCache } }));
    const uncached = await runExperiment(runOptions(config, join(root, 'out'), { runId: 'c' }));
    if (first.kind !== 'completed' || second.kind !== 'completed' || uncached.kind !== 'completed') throw new Error('a run did not complete');
    expect([first.record.corpus.cache, second.record.corpus.cache, uncached.record.corpus.cache]).toEqual(['written', 'hit', 'off']);
    expect(files(second.dir)).toEqual(files(first.dir));
    expect(files(uncached.dir)).toEqual(files(first.dir));
    expect(second.record.corpus.skips).toEqual(uncached.record.corpus.skips);
  });

  it('replays the fingerprint features on the second run (the ground truth says so; the sampled variant shared them in both runs), with the same results', async () => {
    const first = await runExperiment(runOptions(config, join(root, 'out'), { runId: 'd', inputs: { corpusCache: { ...corpusCache, dir: join(root, 'cache2', 'corpus') } } }));
    const second = await runExperiment(runOptions(config, join(root, 'out'), { runId: 'e', inputs: { corpusCache: { ...corpusCache, dir: join(root, 'cache2', 'corpus') } } }));
    if (first.kind !== 'completed' || second.kind !== 'completed') throw new Error('a run did not complete');
    const replayed = (r: typeof first.record): unknown[] => r.variants.map((v) => v.backend_extra?.['replayed'] ?? null);
    expect(replayed(first.record)).toEqual([null, null]);
    expect(replayed(second.record)).toEqual([['fingerprint features (char-8 shingles, rabin64)'], null]);
    expect(files(second.dir)).toEqual(files(first.dir));
  });

  it('with storedValues compute (--no-stored-values) replays the corpus but neither replays nor stores fingerprints', async () => {
    const cache = { ...corpusCache, dir: join(root, 'cache3', 'corpus') };
    for (const runId of ['f', 'g']) {
      const r = await runExperiment(runOptions(config, join(root, 'out'), { runId, inputs: { corpusCache: cache, storedValues: 'compute' } }));
      if (r.kind !== 'completed') throw new Error('the run did not complete');
      expect(r.record.variants.map((v) => v.backend_extra?.['replayed'] ?? null)).toEqual([null, null]);
    }
    expect(readdirSync(join(root, 'cache3'))).toEqual(['corpus']);
  });

  it('bench cache lists the entry and --clear removes it', async () => {
    const run = promisify(execFile);
    const env = { ...process.env, CI: 'true', NDD_BENCH_CACHE_DIR: cacheDir };
    const list = await run(process.execPath, [BIN, 'cache'], { env });
    expect(list.stdout).toMatch(new RegExp(`^corpus cache ${join(cacheDir, 'corpus')}: 1 entry, `));
    expect(list.stdout).toMatch(/\n {2}spamassassin \S+fixtures\/mail /);
    expect(list.stdout).toMatch(new RegExp(`\\nstored values ${join(cacheDir, 'stored')}: 2 entries, `));
    expect(list.stdout).toMatch(/\n {2}fingerprint features \(char-8 shingles, rabin64\) of 8 documents /);
    expect(list.stdout).toMatch(/\n {2}word counts of 8 documents /);
    const cleared = await run(process.execPath, [BIN, 'cache', '--clear'], { env });
    expect(cleared.stdout).toMatch(/corpus cache .*: removed 1 entry[^]*stored values .*: removed 2 entries/);
    expect((await run(process.execPath, [BIN, 'cache'], { env })).stdout).toMatch(/corpus cache .*: 0 entries[^]*stored values .*: 0 entries/);
  });
});
