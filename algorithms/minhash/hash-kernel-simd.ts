/**
 * The k-permutation loop of `hash-kernel.ts` in WebAssembly SIMD: two elements of a set per
 * 128-bit vector, hashed by the same permutation at once, with the same exact arithmetic as the
 * scalar loop (see there), so the signatures are bit for bit the same.
 *
 * An element pair is one vector of four 32-bit lanes [x_lo, x'_lo, x_hi, x'_hi]: the halves are
 * split once, when the pairs are laid out, instead of once per permutation. A permutation is
 * two vectors [a_lo, a_lo, a_hi, a_hi] and [a_hi, a_hi, a_lo, a_lo] and b in both 64-bit lanes,
 * so the four 32×32→64 products are `i64x2.extmul_{low,high}_i32x4_u` of the pair with them:
 *   low(X, A1) = a_lo·x_lo,  high(X, A1) = a_hi·x_hi,  low(X, A2) + high(X, A2) = a_hi·x_lo + a_lo·x_hi.
 * The folds are lane shifts, ands and adds. Every value stays below 2^63, so a signed compare
 * (`i64x2.gt_s`, the only 64-bit lane compare there is) orders them as unsigned numbers would:
 * it picks r − p when r ≥ p, and the running minimum, with `v128.bitselect`.
 * A set of odd size repeats its last element in the last pair's second lane: a minimum does not
 * change when an element comes twice. An empty set has no pairs and its slots stay p.
 *
 * Memory layout of a call (byte offsets into the module's memory):
 *   pairs   16 bytes per element pair, grouped by set, 16-byte aligned;
 *   bounds  i32 per set + 1: the byte address of the set's first pair (the next set's is its end);
 *   params  (A1, A2, b b) as three vectors per permutation, 16-byte aligned;  out  i64 per set × k.
 */
import { MERSENNE_61 as P } from './mersenne.ts';
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
  loop,
  select,
  set,
  tee,
  v128,
  type Code,
  type ValueType,
} from './wasm-assembler.ts';

/** Sets as `hash-kernel.ts`'s `ResidueSets`: hi/lo words per element, and where each set starts. */
interface ResidueSets {
  readonly residues: Uint32Array;
  readonly starts: Uint32Array;
}

// Parameters and locals, by index (parameter 0, the pairs' address, is in the bounds).
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
const X = 15;
const A1 = 16;
const A2 = 17;
const BB = 18;
const P00 = 19;
const MID = 20;
const R = 21;
const MIN = 22;
const PV = 23;
const M29 = 24;
const ONE = 25;

const PARAM_TYPES: ValueType[] = [I32, I32, I32, I32, I32, I32];
const LOCAL_TYPES: ValueType[] = [I32, I32, I32, I32, I32, I32, I32, I64, I64, V128, V128, V128, V128, V128, V128, V128, V128, V128, V128, V128];

const inc = (local: number, by: number): Code[] => [get(local), i32.const(by), i32.add, set(local)];

/** R = (a·x + b) mod p in both lanes, for the pair X and the permutation A1, A2, BB. */
const hashPairToR: Code[] = [
  get(X), get(A1), i64x2.extmulLowI32x4U, set(P00),
  get(X), get(A2), i64x2.extmulLowI32x4U, get(X), get(A2), i64x2.extmulHighI32x4U, i64x2.add, set(MID),
  get(P00), get(PV), v128.and,
  get(P00), i32.const(61), i64x2.shrU, i64x2.add,
  get(MID), get(M29), v128.and, i32.const(32), i64x2.shl, i64x2.add,
  get(MID), i32.const(29), i64x2.shrU, i64x2.add,
  get(X), get(A1), i64x2.extmulHighI32x4U, i32.const(3), i64x2.shl, i64x2.add,
  get(BB), i64x2.add,
  tee(R), get(PV), v128.and, get(R), i32.const(61), i64x2.shrU, i64x2.add, tee(R),
  // R ≤ p + 3 now, and R ≥ p exactly when R + 1 ≥ 2^61: then (R + 1) mod 2^61 = R − p
  get(R), get(ONE), i64x2.add, i32.const(61), i64x2.shrU, i64x2.add, get(PV), v128.and, set(R),
];

const kPermutationSimd = {
  name: 'kPermutation',
  params: PARAM_TYPES,
  locals: LOCAL_TYPES,
  body: [
    i64.const(P), i64x2.splat, set(PV),
    i64.const(0x1fffffffn), i64x2.splat, set(M29),
    i64.const(1n), i64x2.splat, set(ONE),
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
            get(PP), v128.load(0), set(A1), get(PP), v128.load(16), set(A2), get(PP), v128.load(32), set(BB),
            get(PV), set(MIN),
            get(V_START), set(V),
            block(
              loop(
                get(V), get(V_END), i32.geU, brIf(1),
                get(V), v128.load(0), set(X),
                ...hashPairToR,
                get(R), get(MIN), get(MIN), get(R), i64x2.gtS, v128.bitselect, set(MIN),
                ...inc(V, 16),
                br(0),
              ),
            ),
            // the lesser of the two lanes' minima
            get(OP),
            get(MIN), i64x2.extractLane(0), tee(LO), get(MIN), i64x2.extractLane(1), tee(HI), get(LO), get(HI), i64.ltU, select,
            i64.store(0),
            ...inc(PP, 48), ...inc(OP, 8), ...inc(I, -1),
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

/** Bytes the pairs of `sets` take. */
export function pairBytes(sets: ResidueSets): number {
  let pairs = 0;
  for (let s = 0; s + 1 < sets.starts.length; s++) pairs += ((sets.starts[s + 1] as number) - (sets.starts[s] as number) + 1) >>> 1;
  return pairs * 16;
}

/**
 * Writes the element pairs of `sets` at byte `pairsAt` of `buf` and each set's first pair's
 * address at `boundsAt` (sets + 1 entries), as the loop reads them.
 */
export function writePairs(sets: ResidueSets, buf: ArrayBuffer, pairsAt: number, boundsAt: number): void {
  const n = sets.starts.length - 1;
  const res = sets.residues;
  const lanes = new Uint32Array(buf, pairsAt, pairBytes(sets) / 4);
  const bounds = new Uint32Array(buf, boundsAt, n + 1);
  let w = 0;
  for (let s = 0; s < n; s++) {
    bounds[s] = pairsAt + 4 * w;
    const end = sets.starts[s + 1] as number;
    for (let e = sets.starts[s] as number; e < end; e += 2) {
      const f = e + 1 < end ? e + 1 : e;
      lanes[w] = res[2 * e + 1] as number;
      lanes[w + 1] = res[2 * f + 1] as number;
      lanes[w + 2] = res[2 * e] as number;
      lanes[w + 3] = res[2 * f] as number;
      w += 4;
    }
  }
  bounds[n] = pairsAt + 4 * w;
}

/** Writes the permutations (a_hi, a_lo, b_hi, b_lo words each) as the loop reads them: 48 bytes each. */
export function writeSimdParams(perms: Uint32Array, k: number, buf: ArrayBuffer, paramsAt: number): void {
  const params = new Uint32Array(buf, paramsAt, 12 * k);
  for (let i = 0; i < k; i++) {
    const aHi = perms[4 * i] as number;
    const aLo = perms[4 * i + 1] as number;
    const o = 12 * i;
    params[o] = aLo;
    params[o + 1] = aLo;
    params[o + 2] = aHi;
    params[o + 3] = aHi;
    params[o + 4] = aHi;
    params[o + 5] = aHi;
    params[o + 6] = aLo;
    params[o + 7] = aLo;
    // b in both 64-bit lanes, low word first
    params[o + 8] = perms[4 * i + 3] as number;
    params[o + 9] = perms[4 * i + 2] as number;
    params[o + 10] = perms[4 * i + 3] as number;
    params[o + 11] = perms[4 * i + 2] as number;
  }
}
