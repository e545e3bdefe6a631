import { describe, expect, it } from 'vitest';
import { buildEntryOrder, documentFrequency, entryOrderFor, keptPrefixEnds, trailingZeros } from '../../../algorithms/broder/entry-order.ts';
import { fingerprintMod } from '../../../algorithms/text/fingerprint.ts';
import { fingerprintSlice, mergeSlices } from '../../../algorithms/text/features.ts';

const texts = [
  'the quick brown fox jumps over the lazy dog and runs far away',
  'the quick brown fox jumps over the lazy cat and runs far away',
  'a completely different sentence about near duplicate documents',
  'the quick brown fox',
  '',
];
const f = mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle: { unit: 'word', size: 2 }, kind: 'rabin64' })]);

/** A document's (id, entryPos) entries, in their order, from the features or an order. */
function entries(ids: Uint32Array, pos: Uint32Array, d: number): [number, number][] {
  const out: [number, number][] = [];
  for (let e = f.docStart[d] as number; e < (f.docStart[d + 1] as number); e++) out.push([ids[e] as number, pos[e] as number]);
  return out;
}

describe('entry orders', () => {
  it.each(['trailing-zeros', 'document-frequency'] as const)('%s: each document keeps its own entries, each id with its posting place', (kind) => {
    const o = buildEntryOrder(f, kind);
    for (let d = 0; d < f.docs; d++) {
      const byId = (x: [number, number], y: [number, number]) => x[0] - y[0];
      expect(entries(o.ids, o.entryPos, d).sort(byId)).toEqual(entries(f.ids, f.entryPos, d));
    }
  });

  it('mod 2^k with residue 0 keeps a prefix of the trailing-zeros order, as long as a brute-force count', () => {
    const o = buildEntryOrder(f, 'trailing-zeros');
    for (const m of [1, 2, 4, 8, 64]) {
      const kept = (id: number) => fingerprintMod(f.words, id, f.width, m) === 0;
      const ends = keptPrefixEnds(f, o, kept);
      for (let d = 0; d < f.docs; d++) {
        const mine = entries(o.ids, o.entryPos, d).map(([id]) => kept(id));
        const n = mine.filter(Boolean).length;
        expect(mine).toEqual(mine.map((_, i) => i < n)); // a prefix
        expect((ends[d] as number) - (f.docStart[d] as number)).toBe(n);
      }
    }
    // Trailing zeros are what mod 2^k reads: the lowest k bits of the fingerprint.
    for (let id = 0; id < f.fingerprints; id++) expect(trailingZeros(f, id) >= 3).toBe(fingerprintMod(f.words, id, f.width, 8) === 0);
  });

  it('SCT keeps a prefix of the document-frequency order', () => {
    const o = buildEntryOrder(f, 'document-frequency');
    for (const limit of [1, 2, 3]) {
      const kept = (id: number) => documentFrequency(f, id) <= limit;
      const ends = keptPrefixEnds(f, o, kept);
      for (let d = 0; d < f.docs; d++) {
        const n = entries(f.ids, f.entryPos, d).filter(([id]) => kept(id)).length;
        expect((ends[d] as number) - (f.docStart[d] as number)).toBe(n);
        expect(entries(o.ids, o.entryPos, d).slice(0, n).every(([id]) => kept(id))).toBe(true);
      }
    }
  });

  it('is used for SCT and for mod 2^k with residue 0 only', () => {
    expect(entryOrderFor({ method: 'sct', threshold: 5 })).toBe('document-frequency');
    expect(entryOrderFor({ method: 'mod', m: 64, residue: 0 })).toBe('trailing-zeros');
    expect(entryOrderFor({ method: 'mod', m: 64, residue: 1 })).toBeNull();
    expect(entryOrderFor({ method: 'mod', m: 6, residue: 0 })).toBeNull();
    expect(entryOrderFor({ method: 'none' })).toBeNull();
  });
});
