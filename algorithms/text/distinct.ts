/**
 * A document as the *set* of its fingerprints, per document and without strings: the distinct
 * fingerprints of a `Fingerprints` list (an open-addressing hash set over their words), and the
 * same sorted ascending (for merging two sets). Detectors that work one document at a time
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
    let h = 0;
    for (let w = 0; w < width; w++) h = Math.imul(h ^ (data[base + w] as number), 0x9e3779b1) ^ (h >>> 15);
    let slot = (h ^ (h >>> 16)) & mask;
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

/** The fingerprints sorted ascending as unsigned integers (words most significant first). */
export function sortedFingerprints(fps: Fingerprints): Fingerprints {
  const { width, data, count } = fps;
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((x, y) => compareWords(data, x * width, data, y * width, width));
  const out = new Uint32Array(count * width);
  order.forEach((i, k) => out.set(data.subarray(i * width, (i + 1) * width), k * width));
  return { width, data: out, count };
}

function sameWords(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): boolean {
  for (let w = 0; w < width; w++) if (a[i + w] !== b[j + w]) return false;
  return true;
}

/** −, 0, + as the fingerprint at word i of a compares with the one at word j of b. */
export function compareWords(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): number {
  for (let w = 0; w < width; w++) {
    const u = a[i + w] as number;
    const v = b[j + w] as number;
    if (u !== v) return u - v;
  }
  return 0;
}
