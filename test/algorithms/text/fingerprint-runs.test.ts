/**
 * The split of merged fingerprint runs, against the definition: a fingerprint held by two
 * documents or more goes to the shared file with all its records, one held by one document to
 * the single file; each document's shared count and the groups by document frequency follow.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitPartition } from '../../../algorithms/text/fingerprint-runs.ts';
import { writeRun, type RunPart } from '../../../algorithms/text/sorted-runs.ts';
import { mulberry32 } from './random-text.ts';

const dir = mkdtempSync(join(tmpdir(), 'fingerprint-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Row = [number, number, number];

/** Batches of documents, each a set of fingerprints drawn from a small pool so that many are shared. */
function batches(seed: number, sizes: readonly number[]): Row[][] {
  const next = mulberry32(seed);
  let doc = 0;
  return sizes.map((docs) => {
    const rows: Row[] = [];
    for (let d = 0; d < docs; d++, doc++) {
      const set = new Set<number>();
      for (let k = 0; k < 6; k++) set.add(Math.floor(next() * 40));
      for (const f of set) rows.push([f % 3 === 0 ? 0xfffffff0 : f >> 2, f, doc]);
    }
    return rows.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  });
}

function readRows(part: RunPart): Row[] {
  const words = new Uint32Array(new Uint8Array(readFileSync(part.path)).buffer);
  const rows: Row[] = [];
  for (let i = part.from; i < part.to; i++) rows.push([words[3 * i] as number, words[3 * i + 1] as number, words[3 * i + 2] as number]);
  return rows;
}

describe('splitPartition', () => {
  it.each([
    [1, [5], 2],
    [2, [4, 7, 3], 1],
    [3, [10, 10], 3],
  ])('puts shared and single fingerprints apart, with the counts of the definition (case %i)', (seed, sizes, bufferRecords) => {
    const runs = batches(seed, sizes);
    const parts = runs.map((rows, r) => {
      const path = join(dir, `run-${seed}-${r}`);
      writeRun(path, Uint32Array.from(rows.flat()), 3);
      return { path, from: 0, to: rows.length };
    });
    const docs = sizes.reduce((s, x) => s + x, 0);
    const got = splitPartition({ parts, width: 2, docs, path: join(dir, `split-${seed}`), bufferRecords });

    const all = runs.flat().sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    const byFingerprint = new Map<string, Row[]>();
    for (const row of all) {
      const key = `${row[0]} ${row[1]}`;
      byFingerprint.set(key, [...(byFingerprint.get(key) ?? []), row]);
    }
    const groups = [...byFingerprint.values()];
    const shared = groups.filter((g) => g.length > 1);
    const counts = new Array<number>(docs).fill(0);
    for (const g of shared) for (const row of g) counts[row[2]]!++;
    const dfs = [...new Set(shared.map((g) => g.length))].sort((x, y) => x - y);

    expect(shared.length).toBeGreaterThan(3);
    expect(readRows(got.shared)).toEqual(shared.flat());
    expect(readRows(got.single)).toEqual(groups.filter((g) => g.length === 1).flat());
    expect(Array.from(got.sharedCounts)).toEqual(counts);
    expect(Array.from(got.frequencies.df)).toEqual(dfs);
    expect(Array.from(got.frequencies.groups)).toEqual(dfs.map((df) => shared.filter((g) => g.length === df).length));
  });
});
