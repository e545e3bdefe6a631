/**
 * Rabin's rolling fingerprints in WebAssembly (one module, three functions):
 * - `roll`: rabin64.ts's pass over the windows at word starts, the same steps on the fingerprint
 *   as one 64-bit integer (i64) instead of two 32-bit halves, with the same byte tables
 *   (rabin64.ts says what they hold) and the same bits (the tests hold it to BigInt long division
 *   and to the JavaScript pass);
 * - `cutOneByte` and `cutTwoByte`: offsets.ts's cut of a text that lowers a character to one,
 *   each one code unit (one byte a unit in: ASCII and Latin-1 mail; two: the rest of it), into
 *   character shingles for explanations, its walk (normalizing, with each
 *   character's origin) and the same roll, with each window's original range, in one call (the
 *   tests hold it to the cut composed of normalizeWithOffsets, shingleFingerprints and
 *   originalRange).
 *
 * Why: an error sample's explanations cut a few hundred documents in a process where nothing
 * fingerprinted before (the stored features were replayed), so the JavaScript loops ran mostly
 * before V8 had compiled them, and their compilations took a core beside the run
 * (docs/performance.md, the error step). A WebAssembly module this small is compiled before its
 * first call and runs at full speed from the first text.
 *
 * Memory of a call (byte offsets): the tables at 0 (4 × 256 i64: the step's high-byte and
 * low-byte tables, then those removing the unit that leaves a window of n units), the cuts'
 * classes of the 65,536 code units at CLASSES_AT (a byte each), then from UNITS_AT the text
 * (UTF-16 code units; for a cut, its lowered text, then the units it normalizes to and their
 * origins), then the windows kept: fingerprints (i64, 8-byte aligned) and, for a cut, their
 * original starts and ends (u32).
 */
import { I32, I64, assemble, block, br, brIf, get, i32, i64, ifThen, loop, set, storeWord, wordAt, type Code, type FunctionDef, type ValueType } from '../../kernels/wasm/assembler.ts';
import { align, growTo, wasm } from '../../kernels/wasm/runtime.ts';

const SHIFT_HIGH = 0;
const SHIFT_LOW = 2048;
const GONE_HIGH = 4096;
const GONE_LOW = 6144;
/** the cut's class of each UTF-16 code unit: 1 a letter, mark or digit (offsets.ts isWordUnit), 0 a separator */
const CLASSES_AT = 8192;
const UNITS_AT = CLASSES_AT + 65536;
const SPACE = 0x20;

// Parameters and locals of both functions, by index (`roll` leaves the cut's parameters 0).
const UNITS = 0;
const LEN = 1;
const N = 2;
const OUT = 3;
/** the cuts: the lowered text, a byte or two a character; where each unit came from; the windows' ranges; what it reports */
const IN = 4;
const FROM = 5;
const TO = 6;
const STARTS = 7;
const ENDS = 8;
const RES = 9;
const I = 10;
const F = 11;
const TOP = 12;
const LEAVING = 13;
const PREV = 14;
const COUNT = 15;
const O = 16;
const PENDING = 17;
const C = 18;
const WORD = 19;

const PARAMS: readonly ValueType[] = [I32, I32, I32, I32, I32, I32, I32, I32, I32, I32];
const LOCALS: readonly ValueType[] = [I32, I64, I32, I32, I32, I32, I32, I32, I32, I32];

/** The unit at `index` of the text: load16 at UNITS + 2·index. */
const unitAt = (index: Code): Code => [...get(UNITS), ...index, ...i32.const(1), ...i32.shl, ...i32.add, ...i32.load16U(0)];

/** The entry for `byte` (an i32 on the stack) of the i64 table at `table`. */
const entry = (table: number): Code => [...i32.const(3), ...i32.shl, ...i64.load(table)];

/** F := F · t^16 + unit mod P, the unit an i32 left on the stack by `unit` (rabin64.ts's step). */
const step = (unit: Code): Code => [
  ...get(F), ...i64.const(48n), ...i64.shrU, ...i32.wrapI64, ...set(TOP),
  ...get(F), ...i64.const(16n), ...i64.shl, ...unit, ...i64.extendI32U, ...i64.or,
  ...get(TOP), ...i32.const(8), ...i32.shrU, ...entry(SHIFT_HIGH), ...i64.xor,
  ...get(TOP), ...i32.const(0xff), ...i32.and, ...entry(SHIFT_LOW), ...i64.xor,
  ...set(F),
];

/** The fingerprint F at `out` slot COUNT, high word first as rabin64.ts writes it (i64 is little-endian: rotated by 32). */
const storeF: Code = [...get(OUT), ...get(COUNT), ...i32.const(3), ...i32.shl, ...i32.add, ...get(F), ...i64.const(32n), ...i64.rotl, ...i64.store(0)];

/** With `ranges`: the window of units [first, last] at slot COUNT as original characters, [FROM[first], TO[last]). */
const storeRange = (ranges: boolean, first: Code, last: Code): Code =>
  ranges ? [...storeWord(STARTS, get(COUNT), wordAt(FROM, first)), ...storeWord(ENDS, get(COUNT), wordAt(TO, last))] : [];

/**
 * rabin64.ts rollWordWindows over the LEN units at UNITS (LEN at least N): every window's
 * fingerprint stored at slot COUNT, COUNT advanced when the window starts a word; with `ranges`,
 * its original range too. COUNT is how many were kept.
 */
// prettier-ignore
const rolled = (ranges: boolean): Code => [
  // the first window, units [0, n): nothing leaves it yet
  ...i64.const(0n), ...set(F),
  ...i32.const(0), ...set(I),
  ...block(loop(
    ...get(I), ...get(N), ...i32.geU, ...brIf(1),
    ...step(unitAt(get(I))),
    ...get(I), ...i32.const(1), ...i32.add, ...set(I),
    ...br(0),
  )),
  ...i32.const(0), ...set(COUNT),
  ...storeF,
  ...storeRange(ranges, i32.const(0), [...get(N), ...i32.const(1), ...i32.sub]),
  ...unitAt(i32.const(0)), ...set(PREV),
  ...get(PREV), ...i32.const(SPACE), ...i32.ne, ...set(COUNT),
  // then every later window, [I − N + 1, I]: shift in unit I, remove the unit that left; kept
  // (COUNT advanced) when the unit that left was a space and the window starts with a non-space
  ...block(loop(
    ...get(I), ...get(LEN), ...i32.geU, ...brIf(1),
    ...step(unitAt(get(I))),
    ...get(PREV), ...set(LEAVING),
    ...get(F),
    ...get(LEAVING), ...i32.const(0xff), ...i32.and, ...entry(GONE_LOW), ...i64.xor,
    ...get(LEAVING), ...i32.const(8), ...i32.shrU, ...entry(GONE_HIGH), ...i64.xor,
    ...set(F),
    ...unitAt([...get(I), ...get(N), ...i32.sub, ...i32.const(1), ...i32.add]), ...set(PREV),
    ...storeF,
    ...storeRange(ranges, [...get(I), ...get(N), ...i32.sub, ...i32.const(1), ...i32.add], get(I)),
    ...get(COUNT),
    ...get(LEAVING), ...i32.const(SPACE), ...i32.eq,
    ...get(PREV), ...i32.const(SPACE), ...i32.ne,
    ...i32.and, ...i32.add, ...set(COUNT),
    ...get(I), ...i32.const(1), ...i32.add, ...set(I),
    ...br(0),
  )),
];

const roll: FunctionDef = { name: 'roll', params: PARAMS, result: I32, locals: LOCALS, body: [...rolled(false), ...get(COUNT)] };

/**
 * offsets.ts's cut of a text that lowers a character to one, each in one code unit, into
 * character shingles at word starts (its walk, then the roll): the LEN lowered characters at IN
 * (`wide`: two bytes each, else one) normalized into units at UNITS (letters, marks and digits
 * kept, by the classes at CLASSES_AT; a space for each run of anything else between words), each
 * unit's original character [FROM, TO); then the windows of N units at word starts, their
 * fingerprints at OUT and their original ranges at STARTS and ENDS. Reports the units at RES;
 * keeps no window when they are fewer than N (the caller cuts such a text as offsets.ts does).
 */
// prettier-ignore
const cut = (wide: boolean): FunctionDef => ({
  name: wide ? 'cutTwoByte' : 'cutOneByte',
  params: PARAMS,
  result: I32,
  locals: LOCALS,
  body: [
    // PENDING: 1 + where the run of separators before the next word started, 0: none
    ...i32.const(0), ...set(O),
    ...i32.const(0), ...set(PENDING),
    ...i32.const(0), ...set(I),
    ...block(loop(
      ...get(I), ...get(LEN), ...i32.geU, ...brIf(1),
      ...(wide
        ? [...get(IN), ...get(I), ...i32.const(1), ...i32.shl, ...i32.add, ...i32.load16U(0)]
        : [...get(IN), ...get(I), ...i32.add, ...i32.load8U(0)]),
      ...set(C),
      ...get(C), ...i32.load8U(CLASSES_AT), ...set(WORD),
      ...get(WORD), ...ifThen(
        // a space for the separators before this word, unless it is the first
        ...get(PENDING), ...i32.eqz, ...i32.eqz, ...get(O), ...i32.eqz, ...i32.eqz, ...i32.and, ...ifThen(
          ...get(UNITS), ...get(O), ...i32.const(1), ...i32.shl, ...i32.add, ...i32.const(SPACE), ...i32.store16(0),
          ...storeWord(FROM, get(O), [...get(PENDING), ...i32.const(1), ...i32.sub]),
          ...storeWord(TO, get(O), get(PENDING)),
          ...get(O), ...i32.const(1), ...i32.add, ...set(O),
        ),
        ...i32.const(0), ...set(PENDING),
        ...get(UNITS), ...get(O), ...i32.const(1), ...i32.shl, ...i32.add, ...get(C), ...i32.store16(0),
        ...storeWord(FROM, get(O), get(I)),
        ...storeWord(TO, get(O), [...get(I), ...i32.const(1), ...i32.add]),
        ...get(O), ...i32.const(1), ...i32.add, ...set(O),
      ),
      ...get(WORD), ...i32.eqz, ...get(PENDING), ...i32.eqz, ...i32.and, ...ifThen(
        ...get(I), ...i32.const(1), ...i32.add, ...set(PENDING),
      ),
      ...get(I), ...i32.const(1), ...i32.add, ...set(I),
      ...br(0),
    )),
    ...get(RES), ...get(O), ...i32.store(0),
    ...get(O), ...set(LEN),
    ...i32.const(0), ...set(COUNT),
    ...block(
      ...get(LEN), ...get(N), ...i32.ltU, ...brIf(0),
      ...rolled(true),
    ),
    ...get(COUNT),
  ],
});


/** Texts longer than this roll in JavaScript: the memory an instance grows to is kept for the thread's life. */
export const WASM_UNITS = 1 << 20;

/** rabin64.ts's tables: 4 Int32 a byte value (hi and lo of the high-byte entry, then of the low-byte one). */
export interface RollTables {
  readonly shift: Int32Array;
  readonly gone: Int32Array;
  /** the window length `gone` removes a unit from */
  readonly n: number;
}

/** One instance a thread, made when first asked. */
let roller: WasmRoller | undefined;

/**
 * The fingerprints of the n-unit windows of `s` at word starts into `out` (hi, lo a window), as
 * rabin64.ts rollWordWindows gives them; `s` is at least n and at most WASM_UNITS units long.
 */
export function rollWordWindowsWasm(s: string, tables: RollTables, out: Uint32Array): number {
  roller ??= new WasmRoller();
  return roller.roll(s, tables, out);
}

/** A text cut into the character shingles at its word starts (cutWasm). */
export interface WasmCut {
  /** hi, lo of each shingle's fingerprint: a view of the module's memory, valid until the next call */
  readonly fingerprints: Uint32Array;
  /** [start, end) of each in the original text */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

/**
 * offsets.ts's cut of `lower` (a text lowered a character to one, each one code unit, at most
 * WASM_UNITS of them) into its character shingles of `tables.n` at word starts, with their
 * fingerprints and original ranges; `classes[c]` 1 where code unit c is a letter, mark or digit,
 * known for every unit of `lower`. `wide`: some unit is above U+00FF (two bytes a unit go in,
 * and all of `classes`; else one byte, and the first 256). Undefined when it normalizes to
 * fewer than n characters (cut as offsets.ts cuts it then).
 */
export function cutWasm(lower: string, tables: RollTables, classes: Uint8Array, o: { readonly wide: boolean }): WasmCut | undefined {
  roller ??= new WasmRoller();
  return roller.cut(lower, tables, classes, o.wide);
}

type CutFn = (units: number, len: number, n: number, out: number, input: number, from: number, to: number, starts: number, ends: number, res: number) => number;

class WasmRoller {
  private readonly memory = new wasm.Memory({ initial: 1 });
  private readonly fns: {
    roll(units: number, len: number, n: number, out: number, ...unused: number[]): number;
    cutOneByte: CutFn;
    cutTwoByte: CutFn;
  };
  /** the tables in memory now (rabin64.ts's, by identity) */
  private shift: Int32Array | undefined;
  private gone: Int32Array | undefined;
  /** the one-byte classes in memory now, by identity (a wide cut copies all of its table each time) */
  private classes: Uint8Array | undefined;

  constructor() {
    const module = new wasm.Module(assemble([roll, cut(false), cut(true)], 1));
    this.fns = new wasm.Instance(module, { env: { memory: this.memory } }).exports as WasmRoller['fns'];
  }

  roll(s: string, tables: RollTables, out: Uint32Array): number {
    const len = s.length;
    const outAt = align(UNITS_AT + 2 * len, 8);
    this.prepare(outAt + 8 * windowsAtMost(len), tables);
    Buffer.from(this.memory.buffer).write(s, UNITS_AT, 'utf16le');
    const count = this.fns.roll(UNITS_AT, len, tables.n, outAt, 0, 0, 0, 0, 0, 0);
    out.set(new Uint32Array(this.memory.buffer, outAt, 2 * count));
    return count;
  }

  cut(lower: string, tables: RollTables, classes: Uint8Array, wide: boolean): WasmCut | undefined {
    const len = lower.length;
    // the lowered text, the units, their origins, then the windows' fingerprints and ranges
    const inAt = UNITS_AT;
    const unitsAt = align(inAt + (wide ? 2 : 1) * len, 8);
    const fromAt = align(unitsAt + 2 * len, 8);
    const toAt = fromAt + 4 * len;
    const windows = windowsAtMost(len);
    const outAt = align(toAt + 4 * len, 8);
    const startsAt = outAt + 8 * windows;
    const endsAt = startsAt + 4 * windows;
    const resAt = endsAt + 4 * windows;
    this.prepare(resAt + 8, tables);
    if (wide) {
      new Uint8Array(this.memory.buffer, CLASSES_AT, 65536).set(classes.subarray(0, 65536));
      this.classes = undefined;
    } else if (this.classes !== classes) {
      new Uint8Array(this.memory.buffer, CLASSES_AT, 256).set(classes.subarray(0, 256));
      this.classes = classes;
    }
    Buffer.from(this.memory.buffer).write(lower, inAt, wide ? 'utf16le' : 'latin1');
    const count = (wide ? this.fns.cutTwoByte : this.fns.cutOneByte)(unitsAt, len, tables.n, outAt, inAt, fromAt, toAt, startsAt, endsAt, resAt);
    const buf = this.memory.buffer;
    if ((new Uint32Array(buf, resAt, 1)[0] as number) < tables.n) return undefined;
    return {
      fingerprints: new Uint32Array(buf, outAt, 2 * count),
      starts: new Uint32Array(buf, startsAt, count).slice(),
      ends: new Uint32Array(buf, endsAt, count).slice(),
    };
  }

  /** Memory for `bytes`, and the tables in it. */
  private prepare(bytes: number, tables: RollTables): void {
    growTo(this.memory, bytes);
    if (this.shift !== tables.shift) this.shift = this.tableInto(SHIFT_HIGH, SHIFT_LOW, tables.shift);
    if (this.gone !== tables.gone) this.gone = this.tableInto(GONE_HIGH, GONE_LOW, tables.gone);
  }

  /** rabin64.ts's interleaved Int32 table as two i64 tables, each entry little-endian (lo, then hi); gives `table`. */
  private tableInto(highAt: number, lowAt: number, table: Int32Array): Int32Array {
    const words = new Uint32Array(this.memory.buffer, 0, UNITS_AT / 4);
    for (let b = 0; b < 256; b++) {
      words[(highAt >> 2) + 2 * b] = table[4 * b + 1] as number;
      words[(highAt >> 2) + 2 * b + 1] = table[4 * b] as number;
      words[(lowAt >> 2) + 2 * b] = table[4 * b + 3] as number;
      words[(lowAt >> 2) + 2 * b + 1] = table[4 * b + 2] as number;
    }
    return table;
  }
}

/** Slots a pass over `len` units may write: a word start needs a non-space and all but the first follow a space (⌈len/2⌉), and the pass writes one slot more. */
function windowsAtMost(len: number): number {
  return Math.ceil(len / 2) + 2;
}
