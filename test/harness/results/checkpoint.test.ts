import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Checkpoint, variantIdentity } from '../../../harness/results/checkpoint.ts';
import type { VariantRecord } from '../../../harness/results/types.ts';
import { variantRecord } from '../../support/variant-record.ts';

function record(name: string, marker: number): VariantRecord {
  return variantRecord(name, {
    params: { marker },
    measures: { pairs: marker },
    files: [{ file: `pairs/${name}.csv.gz`, rows: 1, description: 'pairs' }],
  });
}

const ID = variantIdentity('x', {});
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ndd-checkpoint-test-'));
  dirs.push(d);
  return join(d, '.resume-r1');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function save(c: Checkpoint, name: string, marker: number): void {
  c.save(name, ID, { record: record(name, marker), files: [{ file: `pairs/${name}.csv.gz`, bytes: Buffer.from(`${name}:${marker}`) }] });
}

/** What restore gives for a variant: its marker and its file's bytes, or undefined. */
function restored(c: Checkpoint, name: string): [number | null | undefined, string] | undefined {
  const s = c.restore(name, ID);
  return s && [s.record.measures.pairs, s.files[0]?.bytes.toString() ?? ''];
}

describe('Checkpoint', () => {
  it('keeps every variant’s data when one is saved again and another after it', () => {
    const dir = tempDir();
    const { checkpoint: c } = Checkpoint.open(dir, 'd', false);
    save(c, 'a', 1);
    save(c, 'b', 2);
    save(c, 'a', 3); // saved again: a's data is now 3
    save(c, 'c', 4); // with slots from the count of variants, c took a's new folder
    expect(restored(c, 'a')).toEqual([3, 'a:3']);
    expect(restored(c, 'b')).toEqual([2, 'b:2']);
    expect(restored(c, 'c')).toEqual([4, 'c:4']);
    // a's first folder is gone: three variants, three folders
    expect(readdirSync(dir).filter((f) => /^v\d+$/.test(f))).toHaveLength(3);
  });

  it('keeps every variant’s data across a resume', () => {
    const dir = tempDir();
    const first = Checkpoint.open(dir, 'd', false).checkpoint;
    save(first, 'a', 1);
    save(first, 'b', 2);
    save(first, 'a', 3);
    const { checkpoint: c, saved } = Checkpoint.open(dir, 'd', true);
    expect(saved).toBe(2);
    save(c, 'c', 4);
    expect(restored(c, 'a')).toEqual([3, 'a:3']);
    expect(restored(c, 'b')).toEqual([2, 'b:2']);
    expect(restored(c, 'c')).toEqual([4, 'c:4']);
  });

  it('continues past the folders of a manifest written without a slot counter', () => {
    const dir = tempDir();
    const old = Checkpoint.open(dir, 'd', false).checkpoint;
    save(old, 'a', 1); // v000
    save(old, 'b', 0); // v001
    save(old, 'b', 2); // v002, v001 removed
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    // As an older version wrote it: {a: v000, b: v002} and no counter (it would have put c in v002).
    expect(manifest.variants).toEqual({ a: { identity: ID, dir: 'v000' }, b: { identity: ID, dir: 'v002' } });
    delete manifest.next_slot;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const { checkpoint: c } = Checkpoint.open(dir, 'd', true);
    save(c, 'c', 4);
    expect(restored(c, 'a')).toEqual([1, 'a:1']);
    expect(restored(c, 'b')).toEqual([2, 'b:2']);
    expect(restored(c, 'c')).toEqual([4, 'c:4']);
  });

  it('does not restore a folder that holds another variant’s record', () => {
    const dir = tempDir();
    const old = Checkpoint.open(dir, 'd', false).checkpoint;
    save(old, 'a', 1);
    save(old, 'b', 2);
    // What the old slot bug left behind: the manifest sends a to b's folder.
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { variants: Record<string, { dir: string }> };
    manifest.variants.a = { ...manifest.variants.a, dir: manifest.variants.b?.dir ?? '' };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const { checkpoint: c } = Checkpoint.open(dir, 'd', true);
    expect(restored(c, 'a')).toBeUndefined();
    expect(restored(c, 'b')).toEqual([2, 'b:2']);
  });
});

describe('Checkpoint: a variant’s files', () => {
  it('restores files of nested paths, empty ones too, each with its own bytes, with no folder made for their paths', () => {
    const dir = tempDir();
    const { checkpoint: c } = Checkpoint.open(dir, 'd', false);
    const files = [
      { file: 'pairs/broder/sct=10.csv.gz', bytes: Buffer.from('pairs of sct 10') },
      { file: 'errors/broder/sct=10.jsonl', bytes: [Buffer.from('{"kind":'), Buffer.from('"false positive"}\n')] },
      { file: 'judgments/broder/sct=10.csv', bytes: Buffer.alloc(0) },
    ];
    c.save('broder/sct=10', ID, { record: record('broder/sct=10', 1), files });
    const back = Checkpoint.open(dir, 'd', true).checkpoint.restore('broder/sct=10', ID);
    expect(back?.files.map((f) => [f.file, Buffer.concat(f.bytes as Buffer[]).toString()])).toEqual([
      ['pairs/broder/sct=10.csv.gz', 'pairs of sct 10'],
      ['errors/broder/sct=10.jsonl', '{"kind":"false positive"}\n'],
      ['judgments/broder/sct=10.csv', ''],
    ]);
    const slot = readdirSync(dir).find((f) => /^v\d+$/.test(f)) as string;
    expect(readdirSync(join(dir, slot), { withFileTypes: true }).filter((e) => e.isDirectory())).toEqual([]);
  });

  it('does not restore a variant whose files are cut short, or longer than its index says', () => {
    const dir = tempDir();
    const { checkpoint: c } = Checkpoint.open(dir, 'd', false);
    save(c, 'a', 1);
    save(c, 'b', 2);
    const slots = readdirSync(dir).filter((f) => /^v\d+$/.test(f)).sort();
    const cut = join(dir, slots[0] as string, 'files.bin');
    writeFileSync(cut, readFileSync(cut).subarray(0, 2));
    const longer = join(dir, slots[1] as string, 'files.bin');
    writeFileSync(longer, Buffer.concat([readFileSync(longer), Buffer.from('!')]));
    const reopened = Checkpoint.open(dir, 'd', true).checkpoint;
    expect(reopened.restore('a', ID)).toBeUndefined();
    expect(reopened.restore('b', ID)).toBeUndefined();
  });
});

describe('Checkpoint in bounded pieces', () => {
  it('saves and restores the ground truth’s pairs and the files with no read or write over a few bytes', () => {
    const dir = tempDir();
    const { checkpoint: c } = Checkpoint.open(dir, 'd', false, { chunkBytes: 7 });
    const truth = { a: Uint32Array.from([0, 0, 3]), b: Uint32Array.from([1, 2, 9]), score: Float64Array.from([0.5, 1, 1 / 3]) };
    const bytes = Buffer.from('a file of more than seven bytes');
    // A file made in pieces (a pairs file) is saved as its pieces in order.
    const made = [bytes.subarray(0, 3), bytes.subarray(3)];
    c.save('t', ID, { record: record('t', 1), files: [{ file: 'pairs/t.csv.gz', bytes: made }], truth });
    const back = Checkpoint.open(dir, 'd', true, { chunkBytes: 7 }).checkpoint.restore('t', ID);
    expect(back?.truth).toEqual(truth);
    // Read back in pieces of at most 7 bytes, never joined.
    const pieces = back?.files[0]?.bytes as Buffer[];
    expect(pieces.map((p) => p.length)).toEqual([7, 7, 7, 7, 3]);
    expect(Buffer.concat(pieces)).toEqual(bytes);
  });
});

describe('Checkpoint: a run saved before its evaluation', () => {
  it('is restored under its identity only, counts as saved, and goes when the variant is saved whole', () => {
    const dir = tempDir();
    const { checkpoint: c } = Checkpoint.open(dir, 'd', false, { chunkBytes: 5 });
    const pairs = { a: Uint32Array.from([1]), b: Uint32Array.from([4]), score: Float64Array.from([0.25]) };
    c.saveResult('t', ID, { pairs, facts: { runtimeS: 1.5, counters: { g: { n: 2 } } } });
    expect(Checkpoint.savedCount(dir)).toBe(1);
    const reopened = Checkpoint.open(dir, 'd', true).checkpoint;
    expect(reopened.savedResults).toBe(1);
    expect(reopened.restoreResult('t', ID)).toEqual({ pairs, facts: { runtimeS: 1.5, counters: { g: { n: 2 } } } });
    expect(reopened.restoreResult('t', variantIdentity('y', {}))).toBeUndefined();
    save(reopened, 't', 7);
    expect(reopened.savedResults).toBe(0);
    expect(reopened.restoreResult('t', ID)).toBeUndefined();
    // the result's folder went with it: one variant, one folder
    expect(readdirSync(dir).filter((f) => /^v\d+$/.test(f))).toHaveLength(1);
  });
});
