/**
 * rabin64.ts's rolling pass over the windows at word starts, in WebAssembly: the same steps on
 * the fingerprint as one 64-bit integer (i64) instead of two 32-bit halves, with the same byte
 * tables (rabin64.ts says what they hold), and the same bits (the tests hold it to BigInt long
 * division and to the JavaScript pass).
 *
 * Why: an error sample's explanations fingerprint a few hundred documents in a process where
 * nothing fingerprinted before (the stored features were replayed), so the JavaScript loop ran
 * mostly before V8 had compiled it, and its compilation took a core beside the run for 7–17 ms
 * (docs/performance.md, the error step). A WebAssembly module this small is compiled before its
 * first call and runs at full speed from the first text.
 *
 * Memory of a call (byte offsets): the tables at 0 (4 × 256 i64: the step's high-byte and
 * low-byte tables, then those removing the unit that leaves a window of n units), the text's
 * UTF-16 code units at UNITS_AT, the fingerprints kept after them (i64, 8-byte aligned).
 */
import { I32, I64, assemble, block, br, brIf, get, i32, i64, loop, set, type Code, type FunctionDef } from '../../kernels/wasm/assembler.ts';

const SHIFT_HIGH = 0;
const SHIFT_LOW = 2048;
const GONE_HIGH = 4096;
const GONE_LOW = 6144;
const UNITS_AT = 8192;
const SPACE = 0x20;

// Parameters and locals, by index.
const UNITS = 0;
const LEN = 1;
const N = 2;
const OUT = 3;
const I = 4;
const F = 5;
const TOP = 6;
const LEAVING = 7;
const PREV = 8;
const COUNT = 9;

/** The unit at index I of the text: load16 at UNITS + 2·I. */
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

// prettier-ignore
const roll: FunctionDef = {
  name: 'roll',
  params: [I32, I32, I32, I32],
  result: I32,
  locals: [I32, I64, I32, I32, I32, I32],
  body: [
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
    ...unitAt(i32.const(0)), ...set(PREV),
    ...get(PREV), ...i32.const(SPACE), ...i32.ne, ...set(COUNT),
    // then every later window: shift in unit I, remove the unit that left; kept (COUNT advanced)
    // when the unit that left was a space and the window now starts with a non-space
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
      ...get(COUNT),
      ...get(LEAVING), ...i32.const(SPACE), ...i32.eq,
      ...get(PREV), ...i32.const(SPACE), ...i32.ne,
      ...i32.and, ...i32.add, ...set(COUNT),
      ...get(I), ...i32.const(1), ...i32.add, ...set(I),
      ...br(0),
    )),
    ...get(COUNT),
  ],
};

/** The part of the WebAssembly JavaScript API used here (Node's type declarations leave it out). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer; grow(pages: number): number };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

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

class WasmRoller {
  private readonly memory = new wasm.Memory({ initial: 1 });
  private readonly run: (units: number, len: number, n: number, out: number) => number;
  /** the tables in memory now (rabin64.ts's, by identity) */
  private shift: Int32Array | undefined;
  private gone: Int32Array | undefined;

  constructor() {
    const module = new wasm.Module(assemble([roll], 1));
    this.run = (new wasm.Instance(module, { env: { memory: this.memory } }).exports as { roll: WasmRoller['run'] }).roll;
  }

  roll(s: string, tables: RollTables, out: Uint32Array): number {
    const len = s.length;
    const outAt = UNITS_AT + 8 * Math.ceil((2 * len) / 8);
    // a word start needs a non-space, and all but the first follow a space: at most ⌈len/2⌉, and the pass writes one slot more
    this.reserve(outAt + 8 * (Math.ceil(len / 2) + 2));
    if (this.shift !== tables.shift) this.shift = this.tableInto(SHIFT_HIGH, SHIFT_LOW, tables.shift);
    if (this.gone !== tables.gone) this.gone = this.tableInto(GONE_HIGH, GONE_LOW, tables.gone);
    Buffer.from(this.memory.buffer).write(s, UNITS_AT, 'utf16le');
    const count = this.run(UNITS_AT, len, tables.n, outAt);
    out.set(new Uint32Array(this.memory.buffer, outAt, 2 * count));
    return count;
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

  /** Grows the memory to at least `bytes`. */
  private reserve(bytes: number): void {
    const pages = Math.ceil(bytes / 65536);
    const have = this.memory.buffer.byteLength / 65536;
    if (pages > have) this.memory.grow(pages - have);
  }
}
