/**
 * The permuted tables of Manku, Jain and Das Sarma (WWW 2007, §3): cut the 64 bits into B
 * blocks; two fingerprints within Hamming distance k differ in at most k blocks, so they agree
 * on at least B − k whole blocks (pigeonhole). One table for every choice of B − k blocks,
 * keyed by those blocks' bits (the "leading bits" of the table's permutation): every pair within
 * distance k shares a key in at least one table, and only fingerprints that share a key are
 * compared. Exact, not approximate.
 *
 * A pair sharing keys in several tables is reported by the first of them only (`firstTable`),
 * so that tables can be searched independently (one reduce key or one worker each) and still
 * report each pair once.
 *
 * Bits are numbered from the most significant: bit 0 is the top bit of `hi`.
 */

/** Tables a layout may have: each costs a sort of all fingerprints and a pass over them. */
export const MAX_TABLES = 256;
/** Key bits `auto` aims for: with 2^16 buckets a million random fingerprints compare ~8M pairs per table. */
const MIN_KEY_BITS = 16;

export interface TableLayout {
  /** [first bit, bit count] of each block, in bit order; empty for the brute-force layout */
  readonly blocks: readonly (readonly [number, number])[];
  /** the blocks each table is keyed by, ascending; tables in lexicographic order */
  readonly tables: readonly (readonly number[])[];
  /** each table's key bits as a 64-bit mask (hi, lo words) */
  readonly maskHi: Uint32Array;
  readonly maskLo: Uint32Array;
}

/** C(n, r). */
export function binomial(n: number, r: number): number {
  if (r < 0 || r > n) return 0;
  let c = 1;
  for (let i = 1; i <= Math.min(r, n - r); i++) c = (c * (n - i + 1)) / i;
  return Math.round(c);
}

/** Tables of B blocks at distance k: one per choice of the B − k blocks that must agree. */
export function tableCount(blocks: number, k: number): number {
  return binomial(blocks, Math.min(k, blocks));
}

/** Bit counts of B blocks over 64 bits, as equal as can be, the larger first. */
export function blockSizes(blocks: number): number[] {
  const base = Math.floor(64 / blocks);
  const extra = 64 % blocks;
  return Array.from({ length: blocks }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * The fewest blocks whose tables have keys of at least 16 bits, within MAX_TABLES tables
 * (k = 0: 1, the whole fingerprint; 1: 2; 2: 3; 3: 4, Manku's 4 tables of 16 bits; 4: 6; 5: 7;
 * 6: 8; 7: 10; 8: 11); null when none does (k >= 9), where `layoutFor` compares every pair.
 */
export function autoBlocks(k: number): number | null {
  for (let b = Math.max(1, k + 1); b <= 64; b++) {
    if (tableCount(b, k) > MAX_TABLES) return null;
    const keyBits = blockSizes(b)
      .sort((x, y) => x - y)
      .slice(0, b - k)
      .reduce((s, x) => s + x, 0);
    if (keyBits >= MIN_KEY_BITS) return b;
  }
  return null;
}

/** The layout for distance k: `blocks` blocks, or auto; one keyless table when auto finds none. */
export function layoutFor(k: number, blocks: number | 'auto'): TableLayout {
  const b = blocks === 'auto' ? autoBlocks(k) : blocks;
  if (b === null) return { blocks: [], tables: [[]], maskHi: new Uint32Array(1), maskLo: new Uint32Array(1) };
  if (k > 0 && b <= k) throw new RangeError(`blocks (${b}) must exceed k (${k})`);
  const sizes = blockSizes(b);
  const starts: (readonly [number, number])[] = [];
  let at = 0;
  for (const s of sizes) {
    starts.push([at, s]);
    at += s;
  }
  const tables = subsets(b, b - Math.min(k, b));
  const maskHi = new Uint32Array(tables.length);
  const maskLo = new Uint32Array(tables.length);
  tables.forEach((t, i) => {
    for (const blk of t) {
      const [first, count] = starts[blk] as readonly [number, number];
      for (let bit = first; bit < first + count; bit++) {
        if (bit < 32) maskHi[i] = ((maskHi[i] as number) | (1 << (31 - bit))) >>> 0;
        else maskLo[i] = ((maskLo[i] as number) | (1 << (63 - bit))) >>> 0;
      }
    }
  });
  return { blocks: starts, tables, maskHi, maskLo };
}

/** All r-subsets of 0..n-1, each ascending, in lexicographic order. */
function subsets(n: number, r: number): number[][] {
  const out: number[][] = [];
  const pick: number[] = [];
  const walk = (from: number): void => {
    if (pick.length === r) {
      out.push([...pick]);
      return;
    }
    for (let i = from; i <= n - (r - pick.length); i++) {
      pick.push(i);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return out;
}

/**
 * The first table in which two fingerprints whose XOR is (xHi, xLo) share a key: the first
 * whose key bits are all zero in the XOR; -1 when none (then they differ in more than k bits).
 */
export function firstTable(maskHi: Uint32Array, maskLo: Uint32Array, xHi: number, xLo: number): number {
  const n = maskHi.length;
  for (let t = 0; t < n; t++) {
    if (((xHi & (maskHi[t] as number)) | (xLo & (maskLo[t] as number))) === 0) return t;
  }
  return -1;
}

/**
 * Table t's key of a fingerprint as text: its key blocks' bits concatenated (the leading bits
 * of the table's permutation) in hex, prefixed by the table's number, `t:hex`. Equal keys ⇔
 * equal masked bits. The keyless table's key is `0:`.
 */
export function tableKey(layout: TableLayout, t: number, hi: number, lo: number): string {
  let hex = '';
  let nibble = 0;
  let filled = 0;
  for (const blk of layout.tables[t] as readonly number[]) {
    const [first, count] = layout.blocks[blk] as readonly [number, number];
    for (let bit = first; bit < first + count; bit++) {
      const v = bit < 32 ? (hi >>> (31 - bit)) & 1 : (lo >>> (63 - bit)) & 1;
      nibble = (nibble << 1) | v;
      if (++filled === 4) {
        hex += nibble.toString(16);
        nibble = 0;
        filled = 0;
      }
    }
  }
  if (filled > 0) hex += (nibble << (4 - filled)).toString(16);
  return `${t}:${hex}`;
}
