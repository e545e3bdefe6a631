/**
 * Fingerprint runs and their split, against the definition: a fingerprint held by two documents
 * or more goes to the shared file with one record a document (documents ascending), one held
 * by one document to the single file, both in fingerprint order; each document's size, shared
 * count and the groups by document frequency follow.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintRun, splitPartition, type FingerprintRun } from '../../../algorithms/text/fingerprint-runs.ts';
import { shingleFingerprints } from '../../../algorithms/text/fingerprint.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import type { RunPart } from '../../../algorithms/text/sorted-runs.ts';
import { corpus, SHINGLE } from '../../support/heavy-text.ts';

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
