import { execFileSync } from 'node:child_process';
/** Every shipped config loads, given its data (licensed data stood in for by the fixtures). */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../harness/errors.ts';
import { loadExperiment } from '../../harness/experiment/load.ts';
import { runExperiment } from '../../harness/experiment/runner.ts';
import { runOptions } from '../support/run-options.ts';

const CONFIGS = fileURLToPath(new URL('../../configs/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
const gov2 = mkdtempSync(join(tmpdir(), 'gov2-'));
afterAll(() => rmSync(gov2, { recursive: true, force: true }));

const env = {
  GOV2_ROOT: gov2,
  GOV_ROOT: gov2,
  TREC_QRELS: join(FIXTURES, 'trec', 'qrels.terabyte04.701-750.txt'),
  CLUEWEB09_ROOT: join(FIXTURES, 'anserini', 'clueweb09-segment1.warc.gz'),
  WEB09_RUNS: join(FIXTURES, 'anserini', 'run.cacm-bm25.txt'),
  CACM_DIR: join(FIXTURES, 'anserini'),
  // a small `bench synth scale --documents 120 --copies 0.25` corpus and its planted pairs
  SCALE_DIR: fileURLToPath(new URL('../fixtures/scale-120', import.meta.url)),
};
const configs = readdirSync(CONFIGS).filter((f) => f.endsWith('.yaml'));

describe('shipped configs', () => {
  it('are the ones the README lists', () => {
    expect(configs.sort()).toEqual(['cacm-runs.yaml', 'detectors.yaml', 'gov-ye.yaml', 'gov2-hash-sampling.yaml', 'gov2-sct-curve.yaml', 'gov2-sct.yaml', 'imatch.yaml', 'minhash-lsh.yaml', 'pdc-mr-mail.yaml', 'pdc-mr.yaml', 'peers.yaml', 'ppjoin-filters.yaml', 'ppjoin-ground-truth.yaml', 'quickstart.yaml', 'scale.yaml', 'simhash-variants.yaml', 'trec04-relevant.yaml', 'web09-runs.yaml', 'ye-size-groups.yaml']);
  });

  it.each(configs)('%s loads and expands', async (name) => {
    const exp = await loadExperiment(join(CONFIGS, name), { env });
    expect(exp.groundTruth.name).toBe('ground-truth');
  });

  it.each(['gov2-sct.yaml', 'gov2-hash-sampling.yaml', 'gov-ye.yaml', 'trec04-relevant.yaml', 'web09-runs.yaml', 'cacm-runs.yaml', 'scale.yaml', 'gov2-sct-curve.yaml'])(
    '%s names the data it misses and where to get it',
    async (name) => {
      const e = await loadExperiment(join(CONFIGS, name), { env: {} }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).issues.every((l) => /environment variable [A-Z0-9_]+ is not set: .+/.test(l))).toBe(true);
    },
  );
});

describe('configs/scale.yaml', () => {
  it('scores every variant on the planted copies: recall in metrics.csv, per edit rate in planted.csv', async () => {
    const out = mkdtempSync(join(tmpdir(), 'scale-'));
    try {
      const r = await runExperiment(runOptions(join(CONFIGS, 'scale.yaml'), out, { env: { ...process.env, ...env } }));
      if (r.kind !== 'completed') throw new Error('expected a completed run');
      // oracle-pairs.csv of the fixture has 40 pairs (wc -l: 41 lines with the header), all in the corpus.
      for (const v of r.record.variants) {
        expect(v.measures.planted_pairs).toBe(40);
        expect(v.planted?.reduce((s, p) => s + p.pairs, 0)).toBe(40);
        expect(v.measures.planted_recall).toBe((v.planted?.reduce((s, p) => s + p.found, 0) ?? NaN) / 40);
      }
      const planted = readFileSync(join(r.dir, 'planted.csv'), 'utf8').split('\n');
      expect(planted[0]).toBe('experiment,variant,algorithm,edit_rate,planted_pairs,found,recall');
      // Exact copies (rate 0: five pairs in the fixture) share every shingle: the ground truth finds them all.
      expect(planted[1]).toBe('scale,ground-truth,broder,0,5,5,1');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('a licensed-collection config without its collection', () => {
  it('plans an EMR dry run from --docs, with no data, variables or network', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dry-'));
    try {
      const r = await runExperiment(runOptions(join(CONFIGS, 'gov2-sct.yaml'), out, { backendKind: 'emr', dryRun: { documents: 1000 } }));
      if (r.kind !== 'dry-run') throw new Error('expected a dry run');
      const plan = JSON.stringify(r.plan);
      expect(plan).toContain('"kind":"emr-plan"');
      expect(plan).toContain('mr1-shingle-pairs');
      expect(readdirSync(out)).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('plans every trial and calibration run of gov-ye.yaml (the adaptive runs are chosen after them)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dry-'));
    try {
      const r = await runExperiment(runOptions(join(CONFIGS, 'gov-ye.yaml'), out, { backendKind: 'emr', dryRun: { documents: 1000 } }));
      if (r.kind !== 'dry-run') throw new Error('expected a dry run');
      const plan = JSON.stringify(r.plan);
      for (const name of ['broder/mod=2/residue=1', 'broder/mod=16/residue=15', 'adaptive-p0.8-t0.6/calibration/m=16', 'adaptive-p0.85-t0.85/calibration/m=2']) expect(plan).toContain(name);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('asks for --docs when it cannot count the documents without the collection', async () => {
    await expect(runExperiment(runOptions(join(CONFIGS, 'gov2-sct.yaml'), tmpdir(), { backendKind: 'emr', dryRun: {} }))).rejects.toThrow(/--dry-run does not read the collection and the subset files are not here: give --docs N/);
  });
});

describe('the documented command', () => {
  const repo = new URL('../../', import.meta.url);
  const documents = (): string[] => {
    const docs = readdirSync(new URL('docs/', repo)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    const detectors = readdirSync(new URL('algorithms/', repo), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `algorithms/${e.name}/README.md`);
    const configs = readdirSync(new URL('configs/', repo)).filter((f) => f.endsWith('.yaml')).map((f) => `configs/${f}`);
    return ['README.md', ...docs, ...detectors, ...configs];
  };

  it('is ./bench everywhere: never an npx call, which starts npm first and can fetch a stranger’s package', () => {
    const calls: string[] = [];
    for (const file of documents()) {
      const text = readFileSync(fileURLToPath(new URL(file, repo)), 'utf8');
      for (const m of text.matchAll(/npx(?: --?[a-z-]+)* bench\b/g)) calls.push(`${file}: ${m[0]}`);
    }
    expect(calls).toEqual([]);
    const readme = readFileSync(fileURLToPath(new URL('README.md', repo)), 'utf8');
    expect(readme.match(/\.\/bench \w/g)?.length ?? 0).toBeGreaterThan(5);
  });

  it('starts this checkout\'s CLI', () => {
    const out = execFileSync(fileURLToPath(new URL('bench', repo)), ['--version'], { encoding: 'utf8' });
    expect(out.trim()).toBe((JSON.parse(readFileSync(fileURLToPath(new URL('package.json', repo)), 'utf8')) as { version: string }).version);
  });
});
