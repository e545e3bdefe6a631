/**
 * A document as the *set* of its fingerprints, per document and without strings: the distinct
 * fingerprints of a `Fingerprints` list, and the size of the intersection of two such sets
 * (open-addressing hash tables over their words). Detectors that work one document at a time
 * (MinHash) use these instead of the corpus-wide sorted table of `features.ts`.
 */
import type { Fingerprints } from './fingerprint.ts';

/** The distinct fingerprints, in order of first occurrence. */
export function distinctFingerprints(fps: Fingerprints): Fingerprints {
  const { width, data, count } = fps;
  if (count <= 1) return { width, data: data.slice(0, count * width), count };
  let cap = 16;
  while (cap < 2 * count) cap *= 2;
  const mask = cap - 1;
  // slot → 1 + index of the first occurrence held there, 0 when empty
  const table = new Int32Array(cap);
  const out = new Uint32Array(count * width);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const base = i * width;
    let slot = slotOf(data, base, width) & mask;
    for (;;) {
      const held = table[slot] as number;
      if (held === 0) {
        table[slot] = n + 1;
        for (let w = 0; w < width; w++) out[n * width + w] = data[base + w] as number;
        n++;
        break;
      }
      if (sameWords(out, (held - 1) * width, data, base, width)) break;
      slot = (slot + 1) & mask;
    }
  }
  return { width, data: out.slice(0, n * width), count: n };
}

/** |A ∩ B| of two sets of distinct fingerprints (`width` words each): a hash table of the smaller, probed with the other. */
export function intersectionSize(x: Uint32Array, xCount: number, y: Uint32Array, yCount: number, width: number): number {
  if (xCount > yCount) return intersectionSize(y, yCount, x, xCount, width);
  if (xCount === 0) return 0;
  let cap = 16;
  while (cap < 2 * xCount) cap *= 2;
  const mask = cap - 1;
  const table = new Int32Array(cap);
  for (let i = 0; i < xCount; i++) {
    let slot = slotOf(x, i * width, width) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = i + 1;
  }
  let common = 0;
  for (let j = 0; j < yCount; j++) {
    let slot = slotOf(y, j * width, width) & mask;
    for (;;) {
      const held = table[slot] as number;
      if (held === 0) break;
      if (sameWords(x, (held - 1) * width, y, j * width, width)) {
        common++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return common;
}

function slotOf(data: Uint32Array, base: number, width: number): number {
  let h = 0;
  for (let w = 0; w < width; w++) h = Math.imul(h ^ (data[base + w] as number), 0x9e3779b1) ^ (h >>> 15);
  return h ^ (h >>> 16);
}

function sameWords(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): boolean {
  for (let w = 0; w < width; w++) if (a[i + w] !== b[j + w]) return false;
  return true;
}
