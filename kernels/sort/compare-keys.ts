/** Keys of `width` 32-bit words, most significant first, compared in place in their arrays. */

/** -1, 0, 1 as key i of a compares with key j of b. */
export function compareKeys(a: Uint32Array, i: number, b: Uint32Array, j: number, width: number): number {
  for (let x = 0; x < width; x++) {
    const p = a[i * width + x] as number;
    const q = b[j * width + x] as number;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}
