import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DocumentSet, StoreCodec } from '../../../contract/index.ts';
import { clearStoredValues, documentsDigest, listStoredValues, ValueStore, type StoreOptions } from '../../../harness/runtime/stored-values.ts';
import { deadPid } from '../../support/dead-pid.ts';

const root = mkdtempSync(join(tmpdir(), 'stored-values-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;

/** A fresh store folder, and what the store says. */
function storeOptions(o: Partial<StoreOptions> = {}): StoreOptions & { notices: string[] } {
  const notices: string[] = [];
  return { dir: join(root, `s${folders++}`), maxBytes: 2 ** 30, minChars: 0, notice: (l) => notices.push(l), notices, ...o };
}

interface Value {
  readonly total: number;
  readonly a: Uint32Array;
  readonly b: Uint32Array;
}

const codec = (key = 'test-value:v1'): StoreCodec<Value> => ({
  key,
  describe: 'a test value',
  encode: (v) => ({ meta: { total: v.total }, arrays: [v.a, v.b] }),
  decode: ({ meta, arrays }) => ({ total: meta['total'] as number, a: arrays[0] as Uint32Array, b: arrays[1] as Uint32Array }),
});

const docs = (texts: string[]): DocumentSet => ({ ids: texts.map((_, i) => `d${i}`), texts });
const value = (): Value => ({ total: 7, a: Uint32Array.of(1, 2, 3, 0xffffffff), b: new Uint32Array(0) });

/** `compute` that counts its calls. */
function counted(v: () => Value): { compute: () => Promise<Value>; calls: () => number } {
  let n = 0;
  return { compute: () => (n++, Promise.resolve(v())), calls: () => n };
}

const entries = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith('.values'));

/** A store folder holding one entry, for 'some text'. */
async function oneEntry(): Promise<{ o: ReturnType<typeof storeOptions>; d: DocumentSet; file: string }> {
  const o = storeOptions();
  const d = docs(['some text']);
  const w = new ValueStore(o);
  await w.get(d, codec(), counted(value).compute);
  await w.flush();
  return { o, d, file: join(o.dir, entries(o.dir)[0] as string) };
}

/** An entry's bytes with another header (`head`, JSON text) in place of its own. */
function withHeader(file: string, head: (old: Record<string, unknown>) => unknown): Buffer {
  const bytes = readFileSync(file);
  const headLength = bytes.readUInt32LE(8);
  const text = Buffer.from(JSON.stringify(head(JSON.parse(bytes.subarray(12, 12 + headLength).toString('utf8')) as Record<string, unknown>)));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(text.length);
  return Buffer.concat([bytes.subarray(0, 8), length, text, bytes.subarray(12 + headLength)]);
}

describe('ValueStore', () => {
  it('computes and writes a value once; a later store over the same folder replays it, on SharedArrayBuffers', async () => {
    const o = storeOptions();
    const d = docs(['one text', 'another text']);
    const first = counted(value);
    const w = new ValueStore(o);
    expect((await w.get(d, codec(), first.compute)).replayed).toBe(false);
    await w.flush();
    expect(entries(o.dir)).toHaveLength(1);

    const again = counted(value);
    const r = await new ValueStore(o).get(docs(['one text', 'another text']), codec(), again.compute);
    expect(again.calls()).toBe(0);
    expect(r.replayed).toBe(true);
    expect({ total: r.value.total, a: [...r.value.a], b: [...r.value.b] }).toEqual({ total: 7, a: [1, 2, 3, 0xffffffff], b: [] });
    expect(r.value.a.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(o.notices).toEqual([]);
  });

  it('gives a value it computed once per process, as computed, and writes it only when flushed', async () => {
    const o = storeOptions();
    const d = docs(['one text']);
    const s = new ValueStore(o);
    const c = counted(value);
    const first = await s.get(d, codec(), c.compute);
    const second = await s.get(docs(['one text']), codec(), c.compute);
    expect({ calls: c.calls(), replayed: second.replayed, same: second.value === first.value }).toEqual({ calls: 1, replayed: false, same: true });
    expect(s.peek(d, codec())?.value).toBe(first.value);
    expect(() => readdirSync(o.dir)).toThrow(/ENOENT/);
    await s.flush();
    expect(entries(o.dir)).toHaveLength(1);
  });

  it('writes nothing it was told to discard (an interrupted run)', async () => {
    const o = storeOptions();
    const s = new ValueStore(o);
    await s.get(docs(['one text']), codec(), counted(value).compute);
    s.discard();
    await s.flush();
    expect(() => readdirSync(o.dir)).toThrow(/ENOENT/);
  });

  it('peeks without computing: undefined before a value is stored, the value after', async () => {
    const o = storeOptions();
    const d = docs(['one text']);
    expect(new ValueStore(o).peek(d, codec())).toBeUndefined();
    const w = new ValueStore(o);
    await w.get(d, codec(), counted(value).compute);
    await w.flush();
    expect([...(new ValueStore(o).peek(d, codec())?.value.a ?? [])]).toEqual([1, 2, 3, 0xffffffff]);
  });

  it('computes again for other texts, other texts in another order, or another codec key', async () => {
    const o = storeOptions();
    const w = new ValueStore(o);
    await w.get(docs(['a b', 'c d']), codec(), counted(value).compute);
    await w.flush();
    for (const [texts, key] of [
      [['a b', 'c e'], 'test-value:v1'],
      [['c d', 'a b'], 'test-value:v1'],
      [['a b', 'c d'], 'test-value:v2'],
    ] as const) {
      const c = counted(value);
      expect((await new ValueStore(o).get(docs([...texts]), codec(key), c.compute)).replayed).toBe(false);
      expect(c.calls()).toBe(1);
    }
  });

  it('tells texts apart that differ only in a lone surrogate (which UTF-8 would turn into the same character)', () => {
    const digests = ['x\uD800y', 'x\uDBFFy', 'x\uFFFDy', 'x\uD800\uDC00y'].map((t) => documentsDigest(docs([t])));
    expect(new Set(digests).size).toBe(4);
    expect(documentsDigest(docs(['x\uD800y']))).toBe(digests[0]);
  });

  it('splits nothing into the same digest: ["ab"] and ["a", "b"] differ', () => {
    expect(documentsDigest(docs(['ab']))).not.toBe(documentsDigest(docs(['a', 'b'])));
    expect(documentsDigest(docs(['ab', '']))).not.toBe(documentsDigest(docs(['ab'])));
  });

  it('removes an entry whose array fails its SHA-256 check, says so, computes the value and writes it whole again', async () => {
    const { o, d, file } = await oneEntry();
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0xff; // the last word of array a
    writeFileSync(file, bytes);

    const c = counted(value);
    const s = new ValueStore(o);
    const r = await s.get(d, codec(), c.compute);
    expect({ replayed: r.replayed, calls: c.calls() }).toEqual({ replayed: false, calls: 1 });
    expect(o.notices).toEqual([`stored values: entry ${file} fails the SHA-256 check of its array 0: removed; the value is computed`]);
    await s.flush();
    expect((await new ValueStore(o).get(d, codec(), counted(value).compute)).replayed).toBe(true);
  });

  it.each([
    ['was cut short', (file: string) => truncateSync(file, statSync(file).size - 6), 10],
    ['has a header claiming arrays its file does not hold (nothing is allocated for them)', (file: string) => writeFileSync(file, withHeader(file, (h) => ({ ...h, lengths: [2 ** 40, 0] }))), 16],
  ] as const)('computes the value when an entry %s', async (_, damage, arrayBytes) => {
    const { o, d, file } = await oneEntry();
    damage(file);
    const c = counted(value);
    expect((await new ValueStore(o).get(d, codec(), c.compute)).replayed).toBe(false);
    expect(c.calls()).toBe(1);
    expect(o.notices).toEqual([`stored values: entry ${file} holds ${arrayBytes} bytes of arrays where its header says otherwise: removed; the value is computed`]);
  });

  it('computes the value when an entry’s header is JSON of another shape, or the entry cannot be read at all', async () => {
    const { o, d, file } = await oneEntry();
    writeFileSync(file, withHeader(file, () => null));
    const c = counted(value);
    expect((await new ValueStore(o).get(d, codec(), c.compute)).replayed).toBe(false);
    expect(o.notices).toEqual([`stored values: entry ${file} has a header of another shape: removed; the value is computed`]);
    mkdirSync(file); // a folder where the entry goes: opened, not readable
    expect((await new ValueStore(o).get(d, codec(), c.compute)).replayed).toBe(false);
    expect(c.calls()).toBe(2);
    expect(o.notices[1]).toMatch(/^stored values: entry .* cannot be read \(EISDIR.*\): removed; the value is computed$/);
  });

  it('keeps nothing for documents of fewer characters than minChars', async () => {
    const o = storeOptions({ minChars: 10 });
    const s = new ValueStore(o);
    await s.get(docs(['four', 'five5']), codec(), counted(value).compute);
    await s.flush();
    expect(() => readdirSync(o.dir)).toThrow(/ENOENT/);
  });

  it('still gives the value, with one notice, when the folder cannot be written', async () => {
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, '');
    const o = storeOptions({ dir: join(blocker, 'stored') });
    const s = new ValueStore(o);
    const r = await s.get(docs(['text']), codec(), counted(value).compute);
    await s.flush();
    expect([...r.value.a]).toEqual([1, 2, 3, 0xffffffff]);
    expect(o.notices).toHaveLength(1);
    expect(o.notices[0]).toMatch(/^stored values: a test value not kept \(.*ENOTDIR.*\); the next run computes it again$/);
  });

  it('removes the least recently used entries past maxBytes, and temporary files of processes that are gone', async () => {
    // An entry here is about 300 bytes (magic, header, 20 bytes of arrays): room for one.
    const o = storeOptions({ maxBytes: 400 });
    const first = new ValueStore(o);
    await first.get(docs(['first']), codec(), counted(value).compute);
    await first.flush();
    const firstEntry = entries(o.dir);
    const stale = join(o.dir, `${'0'.repeat(64)}.${deadPid()}.0.tmp`);
    writeFileSync(stale, 'partial');
    const second = new ValueStore(o);
    await second.get(docs(['second']), codec(), counted(value).compute);
    await second.flush();
    const now = entries(o.dir);
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(firstEntry);
    expect(readdirSync(o.dir)).not.toContain(stale.slice(o.dir.length + 1));
  });

  it('lists entries with what they are and for how many documents, and clears them', async () => {
    const o = storeOptions();
    const s = new ValueStore(o);
    await s.get(docs(['a', 'b', 'c']), codec(), counted(value).compute);
    await s.flush();
    const listed = listStoredValues(o.dir);
    expect(listed.map((e) => ({ describe: e.describe, documents: e.documents, bytes: e.bytes }))).toEqual([
      { describe: 'a test value', documents: 3, bytes: statSync(join(o.dir, entries(o.dir)[0] as string)).size },
    ]);
    expect(clearStoredValues(o.dir)).toEqual({ entries: 1, bytes: listed[0]?.bytes });
    expect(listStoredValues(o.dir)).toEqual([]);
  });
});
