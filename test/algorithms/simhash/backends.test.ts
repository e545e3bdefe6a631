/**
 * simhash through the runner on the local and streaming backends gives byte-identical pairs,
 * signatures and cluster tables, metadata variants included (the documents-meta dataset), and is
 * planned for EMR with its four steps and the meta object.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment, type RunOptions } from '../../../harness/experiment/runner.ts';
import { runOptions } from '../../support/run-options.ts';
import { mulberry32 } from '../text/random-text.ts';

let root: string;
let config: string;

/** 80 mails: 20 originals and 3 edits of each (case and punctuation, a word changed, a signature), with meta. */
function corpus(): string {
  const random = mulberry32(11);
  const vocabulary = 'offer price meeting report budget library project deadline server network update invoice team review garden travel'.split(' ');
  const lines: string[] = [];
  for (let i = 0; i < 20; i++) {
    const words = Array.from({ length: 60 }, () => vocabulary[Math.floor(random() * vocabulary.length)] as string);
    const base = words.join(' ');
    const subject = `${words[0]} ${words[1]} ${i}`;
    const edits = [base, `${base.toUpperCase().replaceAll(' ', ', ')}!`, base.replace(words[5] as string, 'changed'), `${base}\n-- \nsent from my phone`];
    edits.forEach((text, e) => {
      const meta = { subject: e === 3 ? `Re: ${subject}` : subject, from: `user${(i + e) % 5}@example.org`, tagged: words.slice(0, 3).join(' ') };
      lines.push(JSON.stringify({ id: `m${i}-${e}`, text, meta }));
    });
  }
  return lines.join('\n') + '\n';
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'simhash-backends-'));
  writeFileSync(join(root, 'mails.jsonl'), corpus());
  config = join(root, 'sim.yaml');
  writeFileSync(
    config,
    `experiment: sim
corpus: { format: jsonl, path: ${join(root, 'mails.jsonl')} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: simhash
    params: { k: [0, 3] }
  - algorithm: simhash
    name: meta
    params: { k: 3, metadata: { fields: [subject, from] }, tag_boost: true }
  - algorithm: simhash
    name: shingles
    params: { k: 6, features: { unit: char, size: 16 }, low_threshold: true }
evaluate: { threshold: 0.5, min_score: 0.1 }
backend: { kind: local, workers: 2 }
backends:
  - { kind: streaming, map_tasks: 2, reduce_tasks: 2 }
  - { kind: emr, region: us-east-1, s3_prefix: 's3://example-bucket/ndd' }
`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const options = (over: Partial<RunOptions> = {}): RunOptions => runOptions(config, join(root, 'results'), over);
const VARIANTS = ['simhash/k=0', 'simhash/k=3', 'meta', 'shingles'];
/** The .csv.gz files under a folder (a variant named a/b is a/b.csv.gz), sorted. */
const csvFiles = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.csv.gz')).sort();

describe('simhash on local and streaming', () => {
  const dirs: Record<string, string> = {};
  beforeAll(async () => {
    for (const kind of ['local', 'streaming'] as const) {
      const r = await runExperiment(options(kind === 'local' ? {} : { backendKind: kind }));
      if (r.kind !== 'completed') throw new Error(`${kind}: expected a completed run`);
      dirs[kind] = r.dir;
    }
  }, 300_000);

  it('writes byte-identical pairs, signatures and clusters on both', () => {
    const local = dirs.local as string;
    const streaming = dirs.streaming as string;
    for (const folder of ['pairs', 'signatures', 'clusters']) {
      const files = csvFiles(join(local, folder)).filter((f) => f !== 'ground-truth.csv.gz');
      expect(files).toEqual(VARIANTS.map((v) => `${v}.csv.gz`).sort());
      for (const f of files) expect(readFileSync(join(streaming, folder, f)).equals(readFileSync(join(local, folder, f))), `${folder}/${f}`).toBe(true);
    }
  });

  it('finds the planted near-duplicates and gives metadata a say', () => {
    const pairs = (name: string): string[] =>
      gunzipSync(readFileSync(join(dirs.local as string, 'pairs', name)))
        .toString()
        .trim()
        .split('\n')
        .slice(1);
    // an original and its copy in other case and punctuation normalize alike: distance 0
    const at0 = new Set(pairs('simhash/k=0.csv.gz').map((r) => r.split(',').slice(0, 3).join(',')));
    for (let i = 0; i < 20; i++) expect(at0.has(`m${i}-0,m${i}-1,1`), `m${i}`).toBe(true);
    // with the sender as a feature, copies sent by different users move apart
    expect(pairs('meta.csv.gz')).not.toEqual(pairs('simhash/k=3.csv.gz'));
  });
});

describe('simhash on EMR', () => {
  it('is planned with its four steps per variant and the documents-meta object', async () => {
    const r = await runExperiment(options({ backendKind: 'emr', dryRun: { documents: 80 } }));
    if (r.kind !== 'dry-run') throw new Error('expected a dry run');
    const plan = JSON.stringify(r.plan);
    for (const job of ['simhash-df', 'simhash-fingerprints', 'simhash-hamming', 'simhash-clusters']) expect(plan).toContain(`--job ${job} --phase map`);
    expect(plan).toContain('input/documents-meta/part-00000');
    expect(plan).toContain('--side documents-meta=side-documents-meta');
  });
});
