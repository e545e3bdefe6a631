/**
 * A very small WebAssembly assembler: just what the loops written in 64-bit integer arithmetic
 * (i64), which JavaScript numbers do not have, need: MinHash's hash kernel
 * (algorithms/minhash/hash-kernel.ts) and Rabin's rolling fingerprints (algorithms/text/
 * rabin64-wasm.ts). The instructions are written as calls (`get(x)`, `i64.mul`, `loop(...)`),
 * the module has one imported memory and exported functions. The binary format is the
 * WebAssembly 1.0 core specification's (sections 5.1 to 5.5): LEB128 integers, a type, import,
 * function, export and code section; plus the few 128-bit vector instructions of WebAssembly
 * 2.0 that `hash-kernel-simd.ts` uses.
 */

export type Code = readonly number[];

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a BigInt (i32 and i64 constants). */
function sleb(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

export const I32 = 0x7f;
export const I64 = 0x7e;
/** The 128-bit vector type of the SIMD instructions (WebAssembly 2.0, section 5.3.1). */
export const V128 = 0x7b;
export type ValueType = typeof I32 | typeof I64 | typeof V128;

const flat = (parts: readonly (Code | number)[]): number[] => parts.flatMap((p) => (typeof p === 'number' ? [p] : [...p]));

/** Local variable access by index (parameters first, then declared locals). */
export const get = (x: number): Code => [0x20, ...uleb(x)];
export const set = (x: number): Code => [0x21, ...uleb(x)];
export const tee = (x: number): Code => [0x22, ...uleb(x)];

/** Memory access at the address on the stack plus a constant offset (align as log2 bytes). */
const mem = (opcode: number, align: number) => (offset = 0): Code => [opcode, align, ...uleb(offset)];

export const i32 = {
  const: (v: number): Code => [0x41, ...sleb(BigInt(v | 0))],
  load: mem(0x28, 2),
  /** a byte, zero-extended */
  load8U: mem(0x2d, 0),
  /** two bytes (little-endian), zero-extended */
  load16U: mem(0x2f, 1),
  store: mem(0x36, 2),
  /** the low two bytes (little-endian) */
  store16: mem(0x3b, 1),
  eqz: [0x45],
  eq: [0x46],
  ne: [0x47],
  ltU: [0x49],
  geU: [0x4f],
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  and: [0x71],
  or: [0x72],
  xor: [0x73],
  shl: [0x74],
  shrU: [0x76],
  wrapI64: [0xa7],
} as const;

export const i64 = {
  const: (v: bigint): Code => [0x42, ...sleb(BigInt.asIntN(64, v))],
  load: mem(0x29, 3),
  store: mem(0x37, 3),
  ltU: [0x54],
  geU: [0x5a],
  add: [0x7c],
  sub: [0x7d],
  mul: [0x7e],
  and: [0x83],
  or: [0x84],
  xor: [0x85],
  shl: [0x86],
  shrU: [0x88],
  /** rotate left */
  rotl: [0x89],
  extendI32U: [0xad],
} as const;

/**
 * The vector instructions `hash-kernel-simd.ts` uses (WebAssembly 2.0, section 5.4.8): the
 * prefix byte 0xfd, then the instruction's number as an unsigned LEB128 (0xd9 is two bytes).
 */
const simd = (op: number): Code => [0xfd, ...uleb(op)];
const simdMem = (op: number) => (offset = 0): Code => [...simd(op), 4, ...uleb(offset)];

export const v128 = {
  load: simdMem(0x00),
  and: simd(0x4e),
  xor: simd(0x51),
  /** 1 when any bit is set, else 0 (an i32) */
  anyTrue: simd(0x53),
} as const;

export const f64x2 = {
  /** b < a ? b : a, one `minpd` (on the bit patterns of non-negative integers below 2^62, their order) */
  pmin: simd(0xf6),
  /** b > a ? b : a, one `maxpd` */
  pmax: simd(0xf7),
} as const;

export const i64x2 = {
  splat: simd(0x12),
  extractLane: (lane: number): Code => [...simd(0x1d), lane],
  shl: simd(0xcb),
  shrU: simd(0xcd),
  add: simd(0xce),
  sub: simd(0xd1),
  gtS: simd(0xd9),
  /** the i32 lanes 0, 1 (low) or 2, 3 (high) of both operands, zero-extended and multiplied */
  extmulLowI32x4U: simd(0xde),
  extmulHighI32x4U: simd(0xdf),
} as const;

/** `select`: the first operand when the i32 condition is non-zero, else the second. */
export const select: Code = [0x1b];

/** A block that `br(depth)` leaves, and a loop that `br(depth)` restarts; no results. */
export const block = (...body: (Code | number)[]): Code => [0x02, 0x40, ...flat(body), 0x0b];
export const loop = (...body: (Code | number)[]): Code => [0x03, 0x40, ...flat(body), 0x0b];
export const br = (depth: number): Code => [0x0c, ...uleb(depth)];
export const brIf = (depth: number): Code => [0x0d, ...uleb(depth)];
export const ifThen = (...body: (Code | number)[]): Code => [0x04, 0x40, ...flat(body), 0x0b];

/** The u32 at `index` of the array whose byte offset local `array` holds. */
export const wordAt = (array: number, index: Code): Code => [...get(array), ...index, ...i32.const(2), ...i32.shl, ...i32.add, ...i32.load(0)];

/** Stores the i32 `value` at `index` of the u32 array whose byte offset local `array` holds. */
export const storeWord = (array: number, index: Code, value: Code): Code => [...get(array), ...index, ...i32.const(2), ...i32.shl, ...i32.add, ...value, ...i32.store(0)];

export interface FunctionDef {
  readonly name: string;
  readonly params: readonly ValueType[];
  /** what it returns: nothing, or one value (the value left on the stack at its end) */
  readonly result?: ValueType;
  readonly locals: readonly ValueType[];
  readonly body: readonly (Code | number)[];
}

const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => {
  const bytes = [...Buffer.from(s, 'utf8')];
  return [...uleb(bytes.length), ...bytes];
};

/** A module importing `env.memory` (at least `minPages` pages of 64 KiB, growable) and exporting the functions. */
export function assemble(functions: readonly FunctionDef[], minPages: number): Uint8Array {
  const types = section(1, vec(functions.map((f) => [0x60, ...uleb(f.params.length), ...f.params, ...(f.result === undefined ? [0x00] : [0x01, f.result])])));
  const imports = section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(minPages)]]));
  const funcs = section(3, vec(functions.map((_, i) => uleb(i))));
  const exports = section(7, vec(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)])));
  const bodies = functions.map((f) => {
    const locals = vec(f.locals.map((t) => [0x01, t]));
    const body = [...locals, ...flat(f.body), 0x0b];
    return [...uleb(body.length), ...body];
  });
  const code = section(10, vec(bodies));
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...imports, ...funcs, ...exports, ...code]);
}
