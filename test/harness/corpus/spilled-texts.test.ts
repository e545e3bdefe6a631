import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lengthOf, totalLength, type DocumentTexts } from '../../../contract/index.ts';
import { pickTexts, SpilledTexts, SpilledTextsWriter, utf8Bytes } from '../../../harness/corpus/spilled-texts.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ndd-spilled-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function spill(texts: readonly string[]): SpilledTexts {
  const w = new SpilledTextsWriter(join(dir, 'texts'));
  for (const t of texts) w.add(t);
  return w.finish();
}

// ASCII, Latin-1, astral, a lone surrogate (a JSON reader can yield one), empty, and a text
// longer than the writer's and the reader's 8 MiB buffers.
const big = 'abcdefghij'.repeat(900_000);
const samples = ['plain ascii', 'café crème', 'emoji 🦆 and 中文', 'lone \ud800 surrogate', '', big, 'after the big one'];

describe('spilled texts', () => {
  it('reads every text back exactly, by index, slice and iteration', () => {
    const s = spill(samples);
    expect(s.length).toBe(samples.length);
    samples.forEach((t, i) => expect(s.at(i)).toBe(t));
    expect(s.slice(2, 5)).toEqual(samples.slice(2, 5));
    expect([...s]).toEqual(samples);
  });

  it('follows the array conventions of at and slice at the edges', () => {
    const s = spill(samples);
    expect(s.at(-1)).toBe(samples.at(-1));
    expect(s.at(samples.length)).toBeUndefined();
    expect(s.at(1.5)).toBeUndefined();
    expect(s.slice(-2)).toEqual(samples.slice(-2));
    expect(s.slice(5, 2)).toEqual([]);
    expect(s.slice()).toEqual(samples);
  });

  it('reads texts in any order, across windows of the file', () => {
    const many = Array.from({ length: 3000 }, (_, i) => `${i} `.repeat(1 + (i % 5000)));
    const s = spill(many);
    for (const i of [2999, 0, 1500, 1499, 2998, 1]) expect(s.at(i)).toBe(many[i]);
  });

  it('knows each length without reading, and the UTF-8 bytes written', () => {
    const s = spill(samples);
    samples.forEach((t, i) => expect(lengthOf(s, i)).toBe(t.length));
    expect(totalLength(s)).toBe(samples.reduce((n, t) => n + t.length, 0));
    expect(utf8Bytes(s)).toBe(samples.reduce((n, t) => n + Buffer.byteLength(t, 'utf8'), 0));
    expect(utf8Bytes(samples)).toBe(utf8Bytes(s));
  });

  it('stores a text as UTF-8 unless it holds a lone surrogate, then as UTF-16', () => {
    spill(['abc', 'é中', 'x\udc00']);
    expect(statSync(join(dir, 'texts')).size).toBe(3 + (2 + 3) + 2 * 2);
  });

  it('picks texts by index from an array or from the file, reading none of them', () => {
    const picked: DocumentTexts = pickTexts(spill(samples), [4, 0, 2]);
    expect([...picked]).toEqual([samples[4], samples[0], samples[2]]);
    expect(lengthOf(picked, 2)).toBe((samples[2] as string).length);
    expect(picked.at(3)).toBeUndefined();
    expect(pickTexts(samples, [1, 0])).toEqual([samples[1], samples[0]]);
  });

  it('refuses to write over a file that exists', () => {
    spill(['x']);
    expect(() => new SpilledTextsWriter(join(dir, 'texts'))).toThrow(/EEXIST/);
  });
});
