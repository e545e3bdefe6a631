/**
 * How an LSD radix sort cuts a key word into digits. A pass costs its digit's counters whatever
 * the entries, and an entry's move whatever the digit: so as few passes as the widest digit
 * allows, each as narrow as those passes allow (20-bit document indexes: two passes of 10 bits,
 * not one of 16 and one of 4).
 */

/** The widest digit a sort may be asked for: 2^24 counters (64 MB) a pass. */
export const MAX_DIGIT_BITS = 24;

/** The default widest digit: 65,536 counters, which stay in the cache. */
export const DEFAULT_DIGIT_BITS = 16;

/** The number of bits that hold every value OR-ed into `bits` (0 for 0). */
export function significantBits(bits: number): number {
  return 32 - Math.clz32(bits);
}

export interface DigitPlan {
  readonly passes: number;
  readonly digitBits: number;
}

/** The passes over a key of `keyBits` significant bits with digits at most `maxDigitBits` wide. */
export function digitPlan(keyBits: number, maxDigitBits: number): DigitPlan {
  if (!Number.isInteger(maxDigitBits) || maxDigitBits < 1 || maxDigitBits > MAX_DIGIT_BITS) {
    throw new RangeError(`digit width ${maxDigitBits}: need an integer from 1 to ${MAX_DIGIT_BITS}`);
  }
  if (keyBits === 0) return { passes: 0, digitBits: 0 };
  const passes = Math.ceil(keyBits / maxDigitBits);
  return { passes, digitBits: Math.ceil(keyBits / passes) };
}

export interface Digit {
  readonly shift: number;
  readonly mask: number;
  /** the digit's values: 2^bits */
  readonly buckets: number;
}

/** The digits of a key word whose values OR together to `bits`, least significant first. */
export function digitsOf(bits: number, maxDigitBits: number): Digit[] {
  const { passes, digitBits } = digitPlan(significantBits(bits), maxDigitBits);
  const buckets = 2 ** digitBits;
  return Array.from({ length: passes }, (_, pass) => ({ shift: pass * digitBits, mask: buckets - 1, buckets }));
}

/** A zero for each value of a digit: `counts` cleared when it is large enough, else a new array. */
export function zeroedCounts(counts: Uint32Array | undefined, buckets: number): Uint32Array {
  if (!counts || counts.length < buckets) return new Uint32Array(buckets);
  counts.fill(0, 0, buckets);
  return counts;
}
