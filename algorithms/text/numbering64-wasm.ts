/**
 * FingerprintNumbering (fingerprint-numbering.ts) for 64-bit fingerprints, in WebAssembly, with
 * each document's distinct fingerprints (occurrence-sets.ts DistinctOccurrences) made in the
 * same pass: the same ids (0, 1, … in the order first seen, kept for the life of the process)
 * and the same sets, by the same hash and linear probing. The tests hold it to the JavaScript
 * table and to occurrence-sets.ts.
 *
 * Why: an error sample numbers the shingles of a few hundred documents in a process where that
 * code never ran, so the JavaScript loops ran mostly before V8 had compiled them, and their
 * compilations took a core beside the run (docs/performance.md, the error step, a fifteenth
 * time). A module this small is compiled before its first call and runs at full speed from the
 * first document.
 *
 * Memory (byte offsets): the number of keys at 0; from KEYS_AT the keys by id, 8 bytes each
 * (the two 32-bit words as fingerprint arrays hold them, high first); then the slots (id + 1 of
 * the key a slot holds, 0 where empty), at most half of them full; then two words an id for the
 * distinct pass (the call that last saw it, and its place among that document's distinct ids);
 * then a call's fingerprints and what it gives (ids, ranks, distinct ids, first occurrences).
 */
import { I32, assemble, block, br, brIf, get, i32, ifThen, loop, set, storeWord, wordAt, type Code, type FunctionDef, type ValueType } from '../../kernels/wasm/assembler.ts';
import { align, growTo, wasm, type WasmMemory } from '../../kernels/wasm/runtime.ts';
import { hexOfWords, type Numbering } from './fingerprint-numbering.ts';
import { slotsFor } from './key-table.ts';
import type { DistinctOccurrences } from './occurrence-sets.ts';

const KEYS_AT = 64;

// Parameters and locals of both functions, by index (`rehash` reads only SLOTS and MASK).
const IN = 0;
const COUNT = 1;
const IDS = 2;
const RANK = 3;
const DISTINCT = 4;
const FIRST = 5;
const STAMP = 6;
const SLOTS = 7;
const MASK = 8;
const MARKS = 9;
const K = 10;
const W0 = 11;
const W1 = 12;
const H = 13;
const SLOT = 14;
const HELD = 15;
const ID = 16;
const N = 17;
const KEYS = 18;
const AT = 19;

const PARAMS: readonly ValueType[] = [I32, I32, I32, I32, I32, I32, I32, I32, I32, I32];
const LOCALS: readonly ValueType[] = [I32, I32, I32, I32, I32, I32, I32, I32, I32, I32];

/** The byte offset of key `id` (an i32 on the stack) less KEYS_AT: loads and stores add it. */
const keyAt = (id: Code): Code => [...id, ...i32.const(3), ...i32.shl];

/** H := fmix(W0, W1), the hash fingerprint-numbering.ts ids2 computes (mixWord twice, then finalized); SLOT := H & MASK. */
// prettier-ignore
const hashed: Code = [
  ...get(W0), ...i32.const(0xcc9e2d51), ...i32.mul, ...set(H),
  ...get(H), ...get(H), ...i32.const(15), ...i32.shrU, ...i32.xor, ...get(W1), ...i32.xor, ...i32.const(0xcc9e2d51), ...i32.mul, ...set(H),
  ...get(H), ...get(H), ...i32.const(15), ...i32.shrU, ...i32.xor, ...set(H),
  ...get(H), ...get(H), ...i32.const(16), ...i32.shrU, ...i32.xor, ...i32.const(0x85ebca6b), ...i32.mul, ...set(H),
  ...get(H), ...get(H), ...i32.const(13), ...i32.shrU, ...i32.xor, ...i32.const(0xc2b2ae35), ...i32.mul, ...set(H),
  ...get(H), ...get(H), ...i32.const(16), ...i32.shrU, ...i32.xor, ...get(MASK), ...i32.and, ...set(SLOT),
];

/**
 * For each of the COUNT fingerprints at IN: its id at IDS (a new key taking the next id), and
 * the distinct pass of occurrence-sets.ts: an id not seen yet in this call (its mark is not
 * STAMP) gets the next place, its id at DISTINCT and its occurrence at FIRST; RANK holds each
 * occurrence's place. Gives the number of distinct ids; the number of keys is kept at 0.
 */
// prettier-ignore
const numberFn: FunctionDef = {
  name: 'number',
  params: PARAMS,
  result: I32,
  locals: LOCALS,
  body: [
    ...i32.const(0), ...i32.load(0), ...set(KEYS),
    ...i32.const(0), ...set(N),
    ...i32.const(0), ...set(K),
    ...block(loop(
      ...get(K), ...get(COUNT), ...i32.geU, ...brIf(1),
      ...get(IN), ...get(K), ...i32.const(3), ...i32.shl, ...i32.add, ...set(AT),
      ...get(AT), ...i32.load(0), ...set(W0),
      ...get(AT), ...i32.load(4), ...set(W1),
      ...hashed,
      ...block(loop(
        ...wordAt(SLOTS, get(SLOT)), ...set(HELD),
        ...get(HELD), ...i32.eqz, ...ifThen(
          // a new key: the next id
          ...get(KEYS), ...set(ID),
          ...keyAt(get(ID)), ...get(W0), ...i32.store(KEYS_AT),
          ...keyAt(get(ID)), ...get(W1), ...i32.store(KEYS_AT + 4),
          ...storeWord(SLOTS, get(SLOT), [...get(ID), ...i32.const(1), ...i32.add]),
          ...get(KEYS), ...i32.const(1), ...i32.add, ...set(KEYS),
          ...br(2),
        ),
        ...get(HELD), ...i32.const(1), ...i32.sub, ...set(ID),
        ...keyAt(get(ID)), ...i32.load(KEYS_AT), ...get(W0), ...i32.eq,
        ...keyAt(get(ID)), ...i32.load(KEYS_AT + 4), ...get(W1), ...i32.eq,
        ...i32.and, ...brIf(1),
        ...get(SLOT), ...i32.const(1), ...i32.add, ...get(MASK), ...i32.and, ...set(SLOT),
        ...br(0),
      )),
      ...storeWord(IDS, get(K), get(ID)),
      ...get(MARKS), ...get(ID), ...i32.const(3), ...i32.shl, ...i32.add, ...set(AT),
      ...get(AT), ...i32.load(0), ...get(STAMP), ...i32.ne, ...ifThen(
        ...get(AT), ...get(STAMP), ...i32.store(0),
        ...get(AT), ...get(N), ...i32.store(4),
        ...storeWord(DISTINCT, get(N), get(ID)),
        ...storeWord(FIRST, get(N), get(K)),
        ...get(N), ...i32.const(1), ...i32.add, ...set(N),
      ),
      ...storeWord(RANK, get(K), [...get(AT), ...i32.load(4)]),
      ...get(K), ...i32.const(1), ...i32.add, ...set(K),
      ...br(0),
    )),
    ...i32.const(0), ...get(KEYS), ...i32.store(0),
    ...get(N),
  ],
};

/** Every key into the (zeroed) slots at SLOTS of MASK + 1, by id. */
// prettier-ignore
const rehashFn: FunctionDef = {
  name: 'rehash',
  params: PARAMS,
  result: I32,
  locals: LOCALS,
  body: [
    ...i32.const(0), ...i32.load(0), ...set(KEYS),
    ...i32.const(0), ...set(ID),
    ...block(loop(
      ...get(ID), ...get(KEYS), ...i32.geU, ...brIf(1),
      ...keyAt(get(ID)), ...i32.load(KEYS_AT), ...set(W0),
      ...keyAt(get(ID)), ...i32.load(KEYS_AT + 4), ...set(W1),
      ...hashed,
      ...block(loop(
        ...wordAt(SLOTS, get(SLOT)), ...i32.eqz, ...brIf(1),
        ...get(SLOT), ...i32.const(1), ...i32.add, ...get(MASK), ...i32.and, ...set(SLOT),
        ...br(0),
      )),
      ...storeWord(SLOTS, get(SLOT), [...get(ID), ...i32.const(1), ...i32.add]),
      ...get(ID), ...i32.const(1), ...i32.add, ...set(ID),
      ...br(0),
    )),
    ...get(KEYS),
  ],
};

/** A document's fingerprints numbered, and its distinct ones (occurrence-sets.ts). */
export interface NumberedDistinct {
  readonly ids: Uint32Array;
  readonly distinct: DistinctOccurrences;
}

/** Where the slots and marks lie for room for `keys` keys (a power of two) in twice as many slots. */
class Layout {
  readonly slots: number;
  readonly slotsAt: number;
  readonly marksAt: number;
  readonly scratchAt: number;

  constructor(readonly keys: number) {
    this.slots = 2 * keys;
    this.slotsAt = KEYS_AT + 8 * keys;
    this.marksAt = this.slotsAt + 4 * this.slots;
    this.scratchAt = align(this.marksAt + 8 * keys, 8);
  }
}

let compiled: object | undefined;

export class Fingerprint64Numbering implements Numbering {
  readonly width = 2;
  private readonly memory: WasmMemory;
  private readonly fns: {
    number(input: number, count: number, ids: number, rank: number, distinct: number, first: number, stamp: number, slots: number, mask: number, marks: number): number;
    rehash(...args: number[]): number;
  };
  private layout: Layout;
  private count = 0;
  /** the last call's mark in the distinct pass */
  private stamp = 0;

  constructor(expected = 16) {
    compiled ??= new wasm.Module(assemble([numberFn, rehashFn], 1));
    this.memory = new wasm.Memory({ initial: 1 });
    this.fns = new wasm.Instance(compiled, { env: { memory: this.memory } }).exports as Fingerprint64Numbering['fns'];
    this.layout = layoutFor(expected);
    growTo(this.memory, this.layout.scratchAt);
  }

  /** Number of distinct keys. */
  get size(): number {
    return this.count;
  }

  /** The distinct keys by id, 2 words each (a view: valid until the next key is added). */
  keys(): Uint32Array {
    return new Uint32Array(this.memory.buffer, KEYS_AT, 2 * this.count);
  }

  /** Key `id` in hex, as fingerprintHex writes it. */
  hexOf(id: number): string {
    return hexOfWords(new Uint32Array(this.memory.buffer, KEYS_AT + 8 * id, 2), 0, 2);
  }

  /** The ids of the `count` keys of `data` (2 words each), new ones added, and the distinct ones among them. */
  number(data: Uint32Array, count: number): NumberedDistinct {
    if (data.length < 2 * count) throw new RangeError(`Fingerprint64Numbering: ${count} keys asked of ${data.length} words`);
    this.makeRoom(count);
    const l = this.layout;
    const inAt = l.scratchAt;
    const idsAt = inAt + 8 * count;
    const rankAt = idsAt + 4 * count;
    const distinctAt = rankAt + 4 * count;
    const firstAt = distinctAt + 4 * count;
    const buffer = growTo(this.memory, firstAt + 4 * count);
    new Uint32Array(buffer, inAt, 2 * count).set(data.subarray(0, 2 * count));
    this.stamp++;
    const n = this.fns.number(inAt, count, idsAt, rankAt, distinctAt, firstAt, this.stamp, l.slotsAt, l.slots - 1, l.marksAt);
    this.count = new Uint32Array(buffer, 0, 1)[0] as number;
    // One copy out of the memory a document, the first occurrences moved up to follow the distinct ids.
    const words = new Uint32Array(buffer, idsAt, 4 * count);
    words.copyWithin(2 * count + n, 3 * count, 3 * count + n);
    const made = words.slice(0, 2 * count + 2 * n);
    const out = made.buffer;
    return {
      ids: new Uint32Array(out, 0, count),
      distinct: {
        rank: new Uint32Array(out, 4 * count, count),
        distinct: new Uint32Array(out, 8 * count, n),
        first: new Uint32Array(out, 8 * count + 4 * n, n),
      },
    };
  }

  /**
   * Room for `more` new keys: the keys' space, and slots at most half full. A larger layout
   * moves the slots and marks past the keys: the slots are filled again and the marks cleared.
   */
  private makeRoom(more: number): void {
    const need = this.count + more;
    const l = this.layout;
    if (need <= l.keys) return;
    const grown = layoutFor(need);
    const buffer = growTo(this.memory, grown.scratchAt);
    new Uint8Array(buffer, grown.slotsAt, grown.scratchAt - grown.slotsAt).fill(0);
    this.fns.rehash(0, 0, 0, 0, 0, 0, 0, grown.slotsAt, grown.slots - 1, 0);
    this.layout = grown;
  }
}

/** Room for `keys` keys: key-table.ts's slots for them (a power of two, at least twice the keys), half of them keys. */
function layoutFor(keys: number): Layout {
  return new Layout(slotsFor(Math.max(16, keys)) / 2);
}
