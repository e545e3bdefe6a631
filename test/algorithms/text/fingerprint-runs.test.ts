/**
 * Fingerprint runs and their split, against the definition: a fingerprint held by two documents
 * or more goes to the shared file with one record a document (documents ascending), one held
 * by one document to the single file, both in fingerprint order; each document's size, shared
 * count and the groups by document frequency follow. The documents holding a fingerprint, read
 * back from the files, are those a pass over the texts counts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countsByPass } from '../../../algorithms/text/feature-counts.ts';
import { documentFrequencies, fingerprintRun, splitPartition, writeFingerprintRuns, type FingerprintRun } from '../../../algorithms/text/fingerprint-runs.ts';
import { fingerprintHex, shingleFingerprints } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import type { RunPart } from '../../../algorithms/text/sorted-runs.ts';
import { WorkerPool } from '../../../harness/runtime/pool.ts';
import { corpus, SHINGLE } from '../../support/heavy-text.ts';
import { kernelOnThreads } from '../../support/kernel-on-threads.ts';

const dir = mkdtempSync(join(tmpdir(), 'fingerprint-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Row = [number, number, number];
const byFingerprintThenDoc = (x: Row, y: Row): number => x[0] - y[0] || x[1] - y[1] || x[2] - y[2];

/** Every document's set of fingerprints as rows, from `shingleFingerprints` alone. */
function definitionRows(texts: readonly string[]): Row[] {
  const rows: Row[] = [];
  texts.forEach((text, doc) => {
    const f = shingleFingerprints(normalize(text), SHINGLE, 'rabin64');
    const seen = new Set<string>();
    for (let i = 0; i < f.count; i++) {
      const hi = f.data[2 * i] as number;
      const lo = f.data[2 * i + 1] as number;
      if (seen.has(`${hi} ${lo}`)) continue;
      seen.add(`${hi} ${lo}`);
      rows.push([hi, lo, doc]);
    }
  });
  return rows.sort(byFingerprintThenDoc);
}

function readRows(part: RunPart): Row[] {
  const words = new Uint32Array(new Uint8Array(readFileSync(part.path)).buffer);
  const rows: Row[] = [];
  for (let i = part.from; i < part.to; i++) rows.push([words[3 * i] as number, words[3 * i + 1] as number, words[3 * i + 2] as number]);
  return rows;
}

/** Runs of `batch` documents each, cut into 2^partBits parts. */
function runsOf(texts: readonly string[], o: { batch: number; partBits: number; name: string }): FingerprintRun[] {
  const runs: FingerprintRun[] = [];
  for (let from = 0; from < texts.length; from += o.batch) {
    const path = join(dir, `${o.name}-${from}`);
    runs.push(fingerprintRun({ texts: texts.slice(from, from + o.batch), firstDoc: from, shingle: SHINGLE, kind: 'rabin64', path, partBits: o.partBits }).run);
  }
  return runs;
}

describe('fingerprint runs split by partition', () => {
  it.each([
    [1, 1, 40, 0, 0],
    [2, 7, 60, 3, 1],
    [3, 13, 80, 4, 2],
    [4, 80, 80, 2, 2],
    [5, 9, 70, 8, 1],
  ])('give the shared and single fingerprints, sizes and counts of the definition (corpus %i, batches of %i)', (seed, batch, n, partBits, partitionBits) => {
    const texts = corpus(seed, n);
    const runs = runsOf(texts, { batch, partBits, name: `c${seed}` });
    const partitions = 2 ** partitionBits;
    // each partition's parts of every run, as writeFingerprintRuns cuts them
    const per = 2 ** (partBits - partitionBits);
    const results = Array.from({ length: partitions }, (_, p) =>
      splitPartition({
        runs: runs.map((r) => ({ path: r.path, cuts: r.cuts.slice(p * per, (p + 1) * per + 1) })),
        width: 2,
        partBits,
        docs: texts.length,
        path: join(dir, `c${seed}-split-${p}`),
      }),
    );

    const rows = definitionRows(texts);
    const groups = new Map<string, Row[]>();
    for (const row of rows) groups.set(`${row[0]} ${row[1]}`, [...(groups.get(`${row[0]} ${row[1]}`) ?? []), row]);
    const all = [...groups.values()];
    const shared = all.filter((g) => g.length > 1);
    const sizes = new Array<number>(texts.length).fill(0);
    const counts = new Array<number>(texts.length).fill(0);
    for (const row of rows) sizes[row[2]]!++;
    for (const g of shared) for (const row of g) counts[row[2]]!++;
    const dfs = [...new Set(shared.map((g) => g.length))].sort((x, y) => x - y);

    expect(shared.length).toBeGreaterThan(5);
    expect(results.flatMap((r) => readRows(r.shared))).toEqual(shared.flat());
    expect(results.flatMap((r) => readRows(r.single))).toEqual(all.filter((g) => g.length === 1).flat());
    expect(texts.map((_, d) => results.reduce((s, r) => s + (r.sizes[d] as number), 0))).toEqual(sizes);
    expect(texts.map((_, d) => results.reduce((s, r) => s + (r.sharedCounts[d] as number), 0))).toEqual(counts);
    expect(results.reduce((s, r) => s + r.entries, 0)).toBe(rows.length);
    const groupsOf = (df: number): number => results.reduce((s, r) => s + (r.frequencies.groups[Array.from(r.frequencies.df).indexOf(df)] ?? 0), 0);
    expect(dfs.map(groupsOf)).toEqual(dfs.map((df) => shared.filter((g) => g.length === df).length));
  });
});

describe('documentFrequencies', () => {
  const pool = new WorkerPool(2);
  afterAll(() => pool.close());

  /** Every distinct fingerprint of `texts` as hex, and the words of each. */
  function keysOf(texts: readonly string[], kind: 'rabin64' | 'md5'): string[] {
    const keys = new Set<string>();
    for (const t of texts) {
      const f = shingleFingerprints(normalize(t), SHINGLE, kind);
      for (let i = 0; i < f.count; i++) keys.add(fingerprintHex(f.data, i, f.width));
    }
    return [...keys];
  }

  it.each([
    ['rabin64', 0, 1],
    ['rabin64', 2, 2],
    ['md5', 0, 2],
    ['md5', 3, 1],
  ] as const)('count the documents holding each fingerprint as a pass over the texts does (%s, partitions of %i bits, %i threads)', async (kind, partitionBits, threads) => {
    const texts = corpus(7, 300);
    const docs = { ids: texts.map((_, i) => `d${i}`), texts };
    const work = mkdtempSync(join(dir, 'frequencies-'));
    // batches of about 1,000 characters: several runs to read each part from
    const k = kernelOnThreads({ docs, pool, threads, budget: 2 ** 30, workDir: work });
    const runs = await writeFingerprintRuns(k, { shingle: SHINGLE, kind, dir: work, batchChars: 1000, partitionBits });
    expect(runs.runs).toBeGreaterThan(3);
    expect(runs.partitions).toHaveLength(2 ** partitionBits);
    // the corpus' fingerprints, and those of texts outside it (most absent, some held)
    const keys = [...keysOf(texts, kind), ...keysOf(['zz yy xx ww vv uu tt', 'ab cd ef gh ij kl mn qq rr'], kind)].filter((key, i, all) => all.indexOf(key) === i);
    const width = kind === 'md5' ? 4 : 2;
    const words = new Uint32Array(keys.length * width);
    keys.forEach((key, i) => {
      for (let x = 0; x < width; x++) words[i * width + x] = parseInt(key.slice(8 * x, 8 * x + 8), 16);
    });
    const expected = countsByPass(docs, SHINGLE, kind, keys);
    const got = documentFrequencies(runs, words);
    expect(new Map(keys.map((key, i) => [key, got[i] as number]))).toEqual(expected);
    // absent, held by one document, by a few, by most (the boilerplate: its records are more than two search windows)
    const held = [...expected.values()];
    expect(held.filter((n) => n === 0).length).toBeGreaterThan(3);
    expect(held.filter((n) => n === 1).length).toBeGreaterThan(10);
    expect(held.filter((n) => n >= 2 && n < 10).length).toBeGreaterThan(10);
    expect(Math.max(...held)).toBeGreaterThan(128);
    rmSync(work, { recursive: true, force: true });
  });
});
