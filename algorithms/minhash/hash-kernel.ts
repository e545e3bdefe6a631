/**
 * The hot loops of MinHash in 64-bit integer arithmetic (WebAssembly i64): for every element x
 * of a set and every permutation i, h_i(x) = (a_i·x + b_i) mod p with p = 2^61 − 1, and the
 * minimum per permutation (k-permutation MinHash) or per bin (one-permutation hashing).
 *
 * Why WebAssembly: the product a·x of two 61-bit residues has 122 bits. In JavaScript doubles
 * it must be split into 32-bit halves and recombined (`mersenne.ts` does that exactly; it is the
 * reference these loops are tested against), which costs several times more per hash than four
 * native 64-bit multiplications. A MinHash signature of 128 permutations over the bundled
 * corpus is 2.3·10^8 hashes, so this is the detector's running time.
 *
 * The arithmetic, for residues a = a_hi·2^32 + a_lo and x = x_hi·2^32 + x_lo (x_hi, a_hi < 2^29):
 *   a·x = a_hi·x_hi·2^64 + (a_hi·x_lo + a_lo·x_hi)·2^32 + a_lo·x_lo, each product < 2^64, and
 *   with 2^61 ≡ 1 (mod p): 2^64 ≡ 8, m·2^32 ≡ (m >> 29) + (m mod 2^29)·2^32, n ≡ (n >> 61) + (n mod 2^61),
 * so the six terms plus b sum below 2^64, and one more fold and one conditional subtraction of p
 * give the residue. Every value is unsigned (shifts are logical, comparisons unsigned).
 *
 * Memory layout of a call (byte offsets into the module's memory, 8-byte aligned):
 *   residues  i64 per element, grouped by set; starts  i32 per set + 1 (element indexes);
 *   params    (a_hi, a_lo, b) as three i64 per permutation; out  i64 per set × k.
 * An output slot that no element reached (an empty bin of one-permutation hashing) holds p,
 * which no hash value equals.
 *
 * Where the engine has WebAssembly SIMD, k-permutation MinHash runs on the loop of
 * `hash-kernel-simd.ts` instead (two elements at once, about twice the speed, the same bits);
 * these scalar loops stay for one-permutation hashing and for engines without SIMD.
 */
import {
  I32,
  I64,
  assemble,
  block,
  br,
  brIf,
  get,
  i32,
  i64,
  ifThen,
  loop,
  select,
  set,
  tee,
  type Code,
  type ValueType,
} from '../../kernels/wasm/assembler.ts';
import { align, growTo, wasm } from '../../kernels/wasm/runtime.ts';
import { exactSlot, groupBytes, isMarked, SIMD_MODULE_BYTES, writeGroups, writeSimdParams } from './hash-kernel-simd.ts';

const P = (1n << 61n) - 1n;

// Parameters and locals of both functions, by index.
const RES = 0;
const STARTS = 1;
const SETS = 2;
const PARAMS = 3;
const K = 4;
const OUT = 5;
const D = 6;
const E = 7;
const E_END = 8;
const I = 9;
const ROW = 10;
const PP = 11;
const OP = 12;
const X = 13;
const XH = 14;
const XL = 15;
const AH = 16;
const AL = 17;
const P00 = 18;
const MID = 19;
const R = 20;
const KK = 21;
const B = 22;
const MIN = 23;
const E_START = 24;

const PARAM_TYPES: ValueType[] = [I32, I32, I32, I32, I32, I32];
const LOCAL_TYPES: ValueType[] = [I32, I32, I32, I32, I32, I32, I32, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I64, I32];

/** AH, AL, B := the parameters (a_hi, a_lo, b) of the permutation at PP. */
const loadPermutation: Code[] = [get(PP), i64.load(0), set(AH), get(PP), i64.load(8), set(AL), get(PP), i64.load(16), set(B)];

/** XH, XL := the halves of the element at index E. */
const loadElement: Code[] = [
  get(RES), get(E), i32.const(3), i32.shl, i32.add, i64.load(0), tee(X),
  i64.const(32n), i64.shrU, set(XH),
  get(X), i64.const(0xffffffffn), i64.and, set(XL),
];

/** R = (a·x + b) mod p with a in AH:AL, b in B and x in XH:XL. */
const hashToR: Code[] = [
  get(AL), get(XL), i64.mul, set(P00),
  get(AL), get(XH), i64.mul, get(AH), get(XL), i64.mul, i64.add, set(MID),
  get(P00), i64.const(P), i64.and,
  get(P00), i64.const(61n), i64.shrU, i64.add,
  get(MID), i64.const(0x1fffffffn), i64.and, i64.const(32n), i64.shl, i64.add,
  get(MID), i64.const(29n), i64.shrU, i64.add,
  get(AH), get(XH), i64.mul, i64.const(3n), i64.shl, i64.add,
  get(B), i64.add,
  tee(R), i64.const(P), i64.and, get(R), i64.const(61n), i64.shrU, i64.add, set(R),
  // R < 2p now: R − p when R ≥ p
  get(R), i64.const(P), i64.sub, get(R), get(R), i64.const(P), i64.geU, select, set(R),
];

/** OUT slot at OP := min(slot, R). */
const minIntoOp: Code[] = [get(R), get(OP), i64.load(0), i64.ltU, ifThen(get(OP), get(R), i64.store(0))];

const inc = (local: number, by: number): Code[] => [get(local), i32.const(by), i32.add, set(local)];

/** For each set D: ROW = its output row, and E..E_END its elements, then `body`. */
const forEachSet = (body: Code[]): Code =>
  block(
    loop(
      get(D), get(SETS), i32.geU, brIf(1),
      get(OUT), get(D), get(K), i32.mul, i32.const(3), i32.shl, i32.add, set(ROW),
      get(STARTS), get(D), i32.const(2), i32.shl, i32.add, tee(OP), i32.load(0), set(E_START),
      get(OP), i32.load(4), set(E_END),
      ...body,
      ...inc(D, 1),
      br(0),
    ),
  );

/** For each element E of the current set, `body`. */
const forEachElement = (body: Code[]): Code =>
  block(loop(get(E), get(E_END), i32.geU, brIf(1), ...loadElement, ...body, ...inc(E, 1), br(0)));

/**
 * k-permutation MinHash: OUT[d·k + i] = min over the elements x of set d of h_i(x). The
 * permutation is the outer loop, so its parameters and the running minimum stay in registers
 * while the set's elements (a few kilobytes, in cache) stream past.
 */
const kPermutation = {
  name: 'kPermutation',
  params: PARAM_TYPES,
  locals: LOCAL_TYPES,
  body: [
    forEachSet([
      get(PARAMS), set(PP), get(ROW), set(OP), get(K), set(I),
      block(
        loop(
          get(I), i32.eqz, brIf(1),
          ...loadPermutation,
          i64.const(P), set(MIN),
          get(E_START), set(E),
          forEachElement([...hashToR, get(R), get(MIN), get(R), get(MIN), i64.ltU, select, set(MIN)]),
          get(OP), get(MIN), i64.store(0),
          ...inc(PP, 24), ...inc(OP, 8), ...inc(I, -1),
          br(0),
        ),
      ),
    ]),
  ],
};

/**
 * One-permutation hashing: one hash h = h_0(x) per element, its bin ⌊⌊h / 2^29⌋·k / 2^32⌋ (k
 * contiguous ranges of the top 32 bits of the 61-bit value), OUT[d·k + bin] = the least h in it.
 */
const onePermutation = {
  name: 'onePermutation',
  params: PARAM_TYPES,
  locals: LOCAL_TYPES,
  body: [
    get(K), i64.extendI32U, set(KK),
    get(PARAMS), set(PP),
    ...loadPermutation,
    forEachSet([
      // the row starts empty: every slot p
      get(ROW), set(OP), get(K), set(I),
      block(loop(get(I), i32.eqz, brIf(1), get(OP), i64.const(P), i64.store(0), ...inc(OP, 8), ...inc(I, -1), br(0))),
      get(E_START), set(E),
      forEachElement([
        ...hashToR,
        get(ROW),
        get(R), i64.const(29n), i64.shrU, get(KK), i64.mul, i64.const(32n), i64.shrU, i32.wrapI64,
        i32.const(3), i32.shl, i32.add, set(OP),
        ...minIntoOp,
      ]),
    ]),
  ],
};


const MODULE_BYTES = assemble([kPermutation, onePermutation], 1);
let compiled: object | undefined;
let compiledSimd: object | undefined;

/** Whether this engine runs the SIMD k-permutation loop (Node 16.4 and later do). */
export const SIMD_AVAILABLE = wasm.validate(SIMD_MODULE_BYTES);

interface Exports {
  kPermutation(res: number, starts: number, sets: number, params: number, k: number, out: number): void;
  onePermutation(res: number, starts: number, sets: number, params: number, k: number, out: number): void;
}
interface SimdExports {
  kPermutation(groups: number, bounds: number, sets: number, params: number, k: number, out: number): void;
}

/** Sets of elements reduced mod p, as `hi`/`lo` pairs (`Uint32Array`, hi first), grouped by set. */
export interface ResidueSets {
  /** 2 words per element: the residue's high 29 bits, then its low 32 bits */
  readonly residues: Uint32Array;
  /** element index where each set starts, sets + 1 entries */
  readonly starts: Uint32Array;
}

/** Permutation parameters: (a_hi, a_lo, b_hi, b_lo) per permutation, a in [1, p), b in [0, p). */
export type PermutationWords = Uint32Array;

export interface HashKernelOptions {
  /**
   * Run k-permutation MinHash on the SIMD loop (`hash-kernel-simd.ts`): the default where the
   * engine has SIMD; `false` keeps the scalar loop (the tests run both). Both give the same bits.
   */
  readonly simd?: boolean;
}

/**
 * Runs the WebAssembly loops. One instance holds its own memory, grown as needed; instances
 * are cheap (the modules are compiled once per thread).
 */
export class HashKernel {
  private readonly memory = new wasm.Memory({ initial: 1 });
  private readonly fns: Exports;
  private readonly simd: SimdExports | undefined;

  constructor(options: HashKernelOptions = {}) {
    compiled ??= new wasm.Module(MODULE_BYTES);
    const imports = { env: { memory: this.memory } };
    this.fns = new wasm.Instance(compiled, imports).exports as Exports;
    if (options.simd === true && !SIMD_AVAILABLE) throw new Error('this JavaScript engine has no WebAssembly SIMD');
    if (options.simd ?? SIMD_AVAILABLE) {
      compiledSimd ??= new wasm.Module(SIMD_MODULE_BYTES);
      this.simd = new wasm.Instance(compiledSimd, imports).exports as SimdExports;
    }
  }

  /**
   * Signatures of k values per set, as hi/lo word pairs: `out[2(s·k + i)]` the high 29 bits of
   * slot i of set s, `out[2(s·k + i) + 1]` its low 32 bits. `mode` picks the loop:
   * `k-permutation` uses the k permutations of `perms`, `one-permutation` the first only.
   */
  signatures(sets: ResidueSets, perms: PermutationWords, k: number, mode: 'k-permutation' | 'one-permutation'): Uint32Array {
    const n = sets.starts.length - 1;
    const simd = mode === 'k-permutation' ? this.simd : undefined;
    const outAt = simd ? this.simdKPermutation(sets, perms, k, simd) : this.scalar(sets, perms, k, mode);
    const raw = new Uint32Array(this.memory.buffer, outAt, n * k * 2);
    const out = new Uint32Array(n * k * 2);
    // i64 in memory is little-endian: the low word first.
    for (let s = 0; s < n * k; s++) {
      out[2 * s] = raw[2 * s + 1] as number;
      out[2 * s + 1] = raw[2 * s] as number;
      if (simd && isMarked(out[2 * s] as number)) exactSlot(sets, perms, Math.floor(s / k), s % k, out, 2 * s);
    }
    return out;
  }

  /** Runs the scalar loop of `mode`; returns where its output starts. */
  private scalar(sets: ResidueSets, perms: PermutationWords, k: number, mode: 'k-permutation' | 'one-permutation'): number {
    const n = sets.starts.length - 1;
    const elements = sets.residues.length / 2;
    const usedPerms = mode === 'k-permutation' ? k : 1;
    const resAt = 0;
    const startsAt = align(resAt + elements * 8, 8);
    const paramsAt = align(startsAt + sets.starts.length * 4, 8);
    const outAt = align(paramsAt + usedPerms * 24, 8);
    const buf = this.reserve(outAt + n * k * 8);
    const res = new Uint32Array(buf, resAt, elements * 2);
    for (let e = 0; e < elements; e++) {
      res[2 * e] = sets.residues[2 * e + 1] as number;
      res[2 * e + 1] = sets.residues[2 * e] as number;
    }
    new Uint32Array(buf, startsAt, sets.starts.length).set(sets.starts);
    const params = new Uint32Array(buf, paramsAt, usedPerms * 6);
    for (let i = 0; i < usedPerms; i++) {
      params[6 * i] = perms[4 * i] as number; // a_hi as an i64: low word a_hi, high word 0
      params[6 * i + 1] = 0;
      params[6 * i + 2] = perms[4 * i + 1] as number; // a_lo
      params[6 * i + 3] = 0;
      params[6 * i + 4] = perms[4 * i + 3] as number; // b: low word b_lo, high word b_hi
      params[6 * i + 5] = perms[4 * i + 2] as number;
    }
    if (mode === 'k-permutation') this.fns.kPermutation(resAt, startsAt, n, paramsAt, k, outAt);
    else this.fns.onePermutation(resAt, startsAt, n, paramsAt, k, outAt);
    return outAt;
  }

  /** Runs the SIMD k-permutation loop; returns where its output starts. */
  private simdKPermutation(sets: ResidueSets, perms: PermutationWords, k: number, fns: SimdExports): number {
    const n = sets.starts.length - 1;
    const groupsAt = 0;
    const boundsAt = groupsAt + groupBytes(sets);
    const paramsAt = align(boundsAt + (n + 1) * 4, 16);
    const outAt = paramsAt + k * 64;
    const buf = this.reserve(outAt + n * k * 8);
    writeGroups(sets, buf, groupsAt, boundsAt);
    writeSimdParams(perms, k, buf, paramsAt);
    fns.kPermutation(groupsAt, boundsAt, n, paramsAt, k, outAt);
    return outAt;
  }

  /** Grows the memory to at least `bytes`; returns its buffer. */
  private reserve(bytes: number): ArrayBuffer {
    return growTo(this.memory, bytes);
  }
}
