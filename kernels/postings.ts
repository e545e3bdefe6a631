/**
 * Postings: lists of keys turned into, for each key, the lists that hold it (a CSR transposed:
 * count, prefix sum, fill). The inverted indexes of the joins (documents by fingerprint, units by
 * signature, documents by prefix token) and their way back (each document's ids) are all this.
 */
export interface InvertListsOptions {
  /** keys are 0 .. keys-1 */
  readonly keys: number;
  /** the lists' entries, each a key */
  readonly entries: Uint32Array;
  /** list l holds `entries[listStart[l] .. listEnd[l])`; lists may leave entries out */
  readonly listStart: Uint32Array;
  /** default: `listStart[l + 1]`, the lists end to end */
  readonly listEnd?: Uint32Array;
  /**
   * Which lists to invert: those whose flag is not 0 (default: all). Cheaper than empty lists
   * when most are left out: a flag a list, not two offsets.
   */
  readonly keep?: Uint8Array;
  /** the number of lists (default: `listStart.length - 1`, or `listEnd.length`) */
  readonly lists?: number;
  /**
   * Which positions to record: `'in-list'`, for each posting, the entry's position in its list;
   * `'in-postings'`, for each entry (as `entries` holds them), its position in its key's postings.
   */
  readonly positions?: 'in-list' | 'in-postings';
  /**
   * The postings' offsets (keys + 1, the last the total) when the caller has counted them
   * already: no counting pass, and this array is the result's `start`.
   */
  readonly start?: Uint32Array;
  /** makes the arrays returned (e.g. on a SharedArrayBuffer, for worker threads); zero-filled */
  readonly allocate?: (length: number) => Uint32Array;
}

export interface Postings {
  /** the lists holding key k are `lists[start[k] .. start[k + 1])`, ascending: keys + 1 offsets */
  readonly start: Uint32Array;
  readonly lists: Uint32Array;
  /** with `positions`: as asked there */
  readonly positions: Uint32Array | undefined;
}

/** The postings of the lists' keys. */
export function invertLists(o: InvertListsOptions & { readonly positions: 'in-list' | 'in-postings' }): Postings & { readonly positions: Uint32Array };
export function invertLists(o: InvertListsOptions): Postings;
export function invertLists(o: InvertListsOptions): Postings {
  const { keys, entries, listStart } = o;
  const listEnd = o.listEnd ?? listStart.subarray(1);
  const lists = o.lists ?? listEnd.length;
  const allocate = o.allocate ?? ((length: number) => new Uint32Array(length));
  const start = o.start ?? countedStarts(o, listEnd, lists, allocate(keys + 1));
  const total = start[keys] as number;
  const fill = start.slice(0, keys);
  const out = allocate(total);
  const inList = o.positions === 'in-list';
  const inPostings = o.positions === 'in-postings';
  const positions = inList ? allocate(total) : inPostings ? allocate(entries.length) : undefined;
  const keep = o.keep;
  for (let l = 0; l < lists; l++) {
    if (keep && keep[l] === 0) continue;
    const from = listStart[l] as number;
    const end = listEnd[l] as number;
    for (let q = from; q < end; q++) {
      const k = entries[q] as number;
      const at = fill[k] as number;
      fill[k] = at + 1;
      out[at] = l;
      if (inList) (positions as Uint32Array)[at] = q - from;
      else if (inPostings) (positions as Uint32Array)[q] = at - (start[k] as number);
    }
  }
  return { start, lists: out, positions };
}

function countedStarts(o: InvertListsOptions, listEnd: Uint32Array, lists: number, start: Uint32Array): Uint32Array {
  const { keys, entries, listStart, keep } = o;
  for (let l = 0; l < lists; l++) {
    if (keep && keep[l] === 0) continue;
    const end = listEnd[l] as number;
    for (let q = listStart[l] as number; q < end; q++) {
      const k = (entries[q] as number) + 1;
      start[k] = (start[k] as number) + 1;
    }
  }
  for (let k = 0; k < keys; k++) start[k + 1] = (start[k + 1] as number) + (start[k] as number);
  return start;
}
