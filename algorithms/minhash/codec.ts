/**
 * The text form of a signature record (the `minhash-signatures` dataset): key the document
 * index, value `size slot_0 slot_1 … slot_{k−1}`, where size is the number of distinct
 * fingerprints of the document and each slot is its value in lowercase hexadecimal without
 * leading zeros. The encoding is canonical (one string per value), so two slots are equal
 * exactly when their strings are, and a band key is the band's slot strings joined.
 * A document without fingerprints has the value `0` and no slots.
 */

export interface SignatureRecord {
  readonly size: number;
  /** the k slot strings, empty for a document without fingerprints */
  readonly slots: readonly string[];
}

/** One slot (hi 29 bits, lo 32 bits) as canonical hexadecimal. */
export function slotHex(hi: number, lo: number): string {
  return hi === 0 ? lo.toString(16) : hi.toString(16) + lo.toString(16).padStart(8, '0');
}

/** The record value of the k slots of set `s` in `values` (2 words a slot). */
export function encodeSignature(size: number, values: Uint32Array, s: number, k: number): string {
  let out = String(size);
  for (let i = 0; i < k; i++) {
    const at = 2 * (s * k + i);
    out += ' ' + slotHex(values[at] as number, values[at + 1] as number);
  }
  return out;
}

export function decodeSignature(value: string): SignatureRecord {
  const parts = value.split(' ');
  return { size: Number(parts[0]), slots: parts.slice(1) };
}

/** The key of band j: its index and its r slot strings (slots j·r … j·r + r − 1). */
export function bandKey(slots: readonly string[], band: number, rows: number): string {
  return `${band}:${slots.slice(band * rows, band * rows + rows).join(' ')}`;
}

/** Slots equal in two decoded signatures. */
export function matchingSlotStrings(x: readonly string[], y: readonly string[]): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) if (x[i] === y[i]) m++;
  return m;
}
