/**
 * The k-permutation loop of `hash-kernel.ts` in WebAssembly SIMD: the elements of a set in groups
 * of four, hashed by the same permutation two at a time (two 64-bit lanes), with exact
 * arithmetic, so the signatures are bit for bit the scalar loop's (the tests compare both with
 * BigInt and `mersenne.ts`).
 *
 * The 32×32→64 products are `i64x2.extmul_{low,high}_i32x4_u` (V8 makes each two unpacks and a
 * `pmuludq`; `i64x2.mul` is eight instructions). To need three products instead of four, residues
 * are split at bit 31, a = a_1·2^31 + a_0 (a_0 < 2^31, a_1 < 2^30), so that a_0 + a_1 < 2^32
 * (Karatsuba):
 *   a·x = a_1x_1·2^62 + m·2^31 + a_0x_0,  m = (a_0 + a_1)(x_0 + x_1) − a_0x_0 − a_1x_1 < 2^62,
 * and with 2^61 ≡ 1 (mod p): 2^62 ≡ 2 and m·2^31 ≡ (m >> 30) + (m mod 2^30)·2^31, so
 *   s = a_0x_0 + (m mod 2^30)·2^31 + (m >> 30) + 2·a_1x_1 + b < 2^62 + 3·2^61 + 2^32 < 2^64,
 *   r = (s mod 2^61) + (s >> 61) ≤ p + 4,  r ≡ a·x + b (mod p).
 * r is the residue unless r ≥ p, which happens about once in 2^59 hashes: so the loop keeps the
 * running minimum of r, and marks the slot when any r of it reached p (bit 63 of the slot, which
 * no residue has); `exactSlot` then computes that slot again with `mersenne.ts`.
 *
 * There is no 64-bit lane minimum in WebAssembly, but every r is below 2^62, so its bits read as
 * a double are a non-negative number that is never NaN, and such doubles are ordered as their
 * bit patterns are as integers (denormals included). So `f64x2.pmin` (one `minpd`) keeps the
 * running minimum, one per lane pair (four lanes a set, the least of which is the slot), and
 * `f64x2.pmax` the running maximum that says whether an r reached p. A compare and a select
 * would be four instructions each.
 *
 * The halves x_0, x_1 and x_0 + x_1 are made once, when the groups are laid out, not once per
 * permutation. A set whose size is not a multiple of four repeats its last element: a minimum
 * does not change when an element comes twice. An empty set has no groups; its slots stay p.
 *
 * Memory layout of a call (byte offsets into the module's memory, 16-byte aligned):
 *   groups  48 bytes per four elements: [x_0 ×4] [x_1 ×4] [x_0 + x_1 ×4] (32-bit lanes), by set;
 *   bounds  i32 per set + 1: the byte address of the set's first group (the next set's is its end);
 *   params  64 bytes per permutation: [a_0 ×4] [a_1 ×4] [a_0 + a_1 ×4] [b ×2 (64-bit)];
 *   out     i64 per set × k.
 */
import { MERSENNE_61 as P, mulAddMod, P_HI, P_LO } from './mersenne.ts';
import {
  I32,
  I64,
  V128,
  assemble,
  block,
  br,
  brIf,
  get,
  i32,
  i64,
  i64x2,
  f64x2,
  loop,
  select,
  set,
  tee,
  v128,
  type Code,
  type ValueType,
} from '../../kernels/wasm/assembler.ts';

/** Sets as `hash-kernel.ts`'s `ResidueSets`: hi/lo words per element, and where each set starts. */
interface ResidueSets {
  readonly residues: Uint32Array;
  readonly starts: Uint32Array;
}

// Parameters and locals, by index (parameter 0, the groups' address, is in the bounds).
const BOUNDS = 1;
const SETS = 2;
const PARAMS = 3;
const K = 4;
const OUT = 5;
const D = 6;
const V = 7;
const V_START = 8;
const V_END = 9;
const I = 10;
const PP = 11;
const OP = 12;
const LO = 13;
const HI = 14;
const X0 = 15;
const X1 = 16;
const XS = 17;
const A0 = 18;
const A1 = 19;
const AS = 20;
const BB = 21;
const P00 = 22;
const P11 = 23;
const MID = 24;
const R = 25;
const MIN_L = 26;
const MIN_H = 27;
const PV = 28;
const M30 = 29;
const PM1 = 30;
const FLAG = 31;

const PARAM_TYPES: ValueType[] = [I32, I32, I32, I32, I32, I32];
const LOCAL_TYPES: ValueType[] = [I32, I32, I32, I32, I32, I32, I32, I64, I64, ...Array.from({ length: 17 }, (): ValueType => V128)];

const inc = (local: number, by: number): Code[] => [get(local), i32.const(by), i32.add, set(local)];

/**
 * R ≡ a·x + b (mod p), R ≤ p + 4, for two elements of the group X0, X1, XS: the low (elements
 * 0, 1) or the high (2, 3) lanes, by `extmul`; FLAG := max(FLAG, R).
 */
const hashHalfToR = (extmul: Code): Code[] => [
  get(X1), get(A1), extmul, tee(P11),
  get(X0), get(A0), extmul, i64x2.add, set(P00), // a_0x_0 + a_1x_1
  get(XS), get(AS), extmul, get(P00), i64x2.sub, set(MID),
  get(P00), get(P11), i64x2.add,
  get(MID), get(M30), v128.and, i32.const(31), i64x2.shl, i64x2.add,
  get(MID), i32.const(30), i64x2.shrU, i64x2.add,
  get(BB), i64x2.add,
  tee(R), get(PV), v128.and, get(R), i32.const(61), i64x2.shrU, i64x2.add, tee(R),
  // R ≤ p + 4: R ≥ p (R − p is the residue) is marked, not reduced
  get(FLAG), f64x2.pmax, set(FLAG),
];

/** MIN := R in the lanes where MIN > R. */
const minInto = (min: number): Code[] => [get(min), get(R), f64x2.pmin, set(min)];

const kPermutationSimd = {
  name: 'kPermutation',
  params: PARAM_TYPES,
  locals: LOCAL_TYPES,
  body: [
    i64.const(P), i64x2.splat, set(PV),
    i64.const(0x3fffffffn), i64x2.splat, set(M30),
    i64.const(P - 1n), i64x2.splat, set(PM1),
    block(
      loop(
        get(D), get(SETS), i32.geU, brIf(1),
        get(BOUNDS), get(D), i32.const(2), i32.shl, i32.add, tee(OP), i32.load(0), set(V_START),
        get(OP), i32.load(4), set(V_END),
        get(OUT), get(D), get(K), i32.mul, i32.const(3), i32.shl, i32.add, set(OP),
        get(PARAMS), set(PP), get(K), set(I),
        block(
          loop(
            get(I), i32.eqz, brIf(1),
            get(PP), v128.load(0), set(A0), get(PP), v128.load(16), set(A1), get(PP), v128.load(32), set(AS), get(PP), v128.load(48), set(BB),
            get(PV), set(MIN_L), get(PV), set(MIN_H), get(FLAG), get(FLAG), v128.xor, set(FLAG),
            get(V_START), set(V),
            block(
              loop(
                get(V), get(V_END), i32.geU, brIf(1),
                get(V), v128.load(0), set(X0), get(V), v128.load(16), set(X1), get(V), v128.load(32), set(XS),
                ...hashHalfToR(i64x2.extmulLowI32x4U),
                ...minInto(MIN_L),
                ...hashHalfToR(i64x2.extmulHighI32x4U),
                ...minInto(MIN_H),
                ...inc(V, 48),
                br(0),
              ),
            ),
            // the least of the four lanes' minima
            get(MIN_H), set(R), ...minInto(MIN_L),
            get(OP),
            get(MIN_L), i64x2.extractLane(0), tee(LO), get(MIN_L), i64x2.extractLane(1), tee(HI), get(LO), get(HI), i64.ltU, select,
            get(FLAG), get(PM1), i64x2.gtS, v128.anyTrue, i64.extendI32U, i64.const(63n), i64.shl, i64.or,
            i64.store(0),
            ...inc(PP, 64), ...inc(OP, 8), ...inc(I, -1),
            br(0),
          ),
        ),
        ...inc(D, 1),
        br(0),
      ),
    ),
  ],
};

/** The module; `WebAssembly.validate` says whether this engine has SIMD. */
export const SIMD_MODULE_BYTES = assemble([kPermutationSimd], 1);

/** Bytes the groups of `sets` take. */
export function groupBytes(sets: ResidueSets): number {
  let groups = 0;
  for (let s = 0; s + 1 < sets.starts.length; s++) groups += ((sets.starts[s + 1] as number) - (sets.starts[s] as number) + 3) >>> 2;
  return groups * 48;
}

/**
 * Writes the element groups of `sets` at byte `groupsAt` of `buf` and each set's first group's
 * address at `boundsAt` (sets + 1 entries), as the loop reads them.
 */
export function writeGroups(sets: ResidueSets, buf: ArrayBuffer, groupsAt: number, boundsAt: number): void {
  const n = sets.starts.length - 1;
  const res = sets.residues;
  const lanes = new Uint32Array(buf, groupsAt, groupBytes(sets) / 4);
  const bounds = new Uint32Array(buf, boundsAt, n + 1);
  let w = 0;
  for (let s = 0; s < n; s++) {
    bounds[s] = groupsAt + 4 * w;
    const first = sets.starts[s] as number;
    const end = sets.starts[s + 1] as number;
    for (let g = first; g < end; g += 4) {
      for (let j = 0; j < 4; j++) {
        const e = g + j < end ? g + j : end - 1;
        const hi = res[2 * e] as number;
        const lo = res[2 * e + 1] as number;
        const x0 = lo & 0x7fffffff;
        const x1 = ((hi << 1) | (lo >>> 31)) >>> 0;
        lanes[w + j] = x0;
        lanes[w + 4 + j] = x1;
        lanes[w + 8 + j] = x0 + x1;
      }
      w += 12;
    }
  }
  bounds[n] = groupsAt + 4 * w;
}

/** Writes the permutations (a_hi, a_lo, b_hi, b_lo words each) as the loop reads them: 64 bytes each. */
export function writeSimdParams(perms: Uint32Array, k: number, buf: ArrayBuffer, paramsAt: number): void {
  const params = new Uint32Array(buf, paramsAt, 16 * k);
  for (let i = 0; i < k; i++) {
    const aHi = perms[4 * i] as number;
    const aLo = perms[4 * i + 1] as number;
    const a0 = aLo & 0x7fffffff;
    const a1 = ((aHi << 1) | (aLo >>> 31)) >>> 0;
    const o = 16 * i;
    params.fill(a0, o, o + 4);
    params.fill(a1, o + 4, o + 8);
    params.fill(a0 + a1, o + 8, o + 12);
    // b in both 64-bit lanes, low word first
    params[o + 12] = perms[4 * i + 3] as number;
    params[o + 13] = perms[4 * i + 2] as number;
    params[o + 14] = perms[4 * i + 3] as number;
    params[o + 15] = perms[4 * i + 2] as number;
  }
}

/** Whether an output slot (its high word, as the loop stored it) is marked for `exactSlot`. */
export function isMarked(highWord: number): boolean {
  return highWord >= 0x80000000;
}

/**
 * Slot `i` of set `s` computed exactly (min over the set of (a_i·x + b_i) mod p, by `mulAddMod`),
 * as hi/lo words at out[at], out[at + 1]: for the slots the loop marked.
 */
export function exactSlot(sets: ResidueSets, perms: Uint32Array, s: number, i: number, out: Uint32Array, at: number): void {
  const h = new Uint32Array(2);
  let hi = P_HI;
  let lo = P_LO;
  const r = sets.residues;
  for (let e = sets.starts[s] as number; e < (sets.starts[s + 1] as number); e++) {
    mulAddMod(perms[4 * i] as number, perms[4 * i + 1] as number, r[2 * e] as number, r[2 * e + 1] as number, perms[4 * i + 2] as number, perms[4 * i + 3] as number, h, 0);
    if ((h[0] as number) < hi || ((h[0] as number) === hi && (h[1] as number) < lo)) {
      hi = h[0] as number;
      lo = h[1] as number;
    }
  }
  out[at] = hi;
  out[at + 1] = lo;
}
