/**
 * The arithmetic of the Jaccard join (Xiao, Wang, Lin, Yu, WWW 2008, sections 3 and 4), exact in
 * floating point.
 *
 * A pair of token sets of sizes a and b with o common tokens is reported when
 * `o / (a + b − o) >= t` evaluated in doubles: the very expression Broder's jobs score with
 * (`resemblance` in algorithms/broder/sampling.ts), so a pair is in or out of the join exactly
 * when Broder's full run scores it at or above t. The paper's closed forms (α = ⌈t/(1+t)·(a+b)⌉,
 * prefix |x| − ⌈t·|x|⌉ + 1, ...) are only a starting point here: in doubles 0.7 · 10 is
 * 7.000000000000001 and ⌈·⌉ gives 8, which would drop the pairs with exactly 7 of 10 tokens in
 * common. Every bound is therefore found by stepping from the closed form to the smallest integer
 * for which the double predicate holds. The predicate is monotone in o (more common tokens, a
 * larger quotient) and in the sizes (a larger denominator, a smaller quotient) because IEEE
 * division is correctly rounded and rounding is monotone; the bounds below rely on nothing else.
 */

/** The join's decision for a pair: o common tokens of sets of sizes a and b reach t. */
export function qualifies(o: number, a: number, b: number, t: number): boolean {
  return o / (a + b - o) >= t;
}

/** The score of a pair: its Jaccard, written exactly as Broder's `resemblance`. */
export function jaccard(o: number, a: number, b: number): number {
  return o / (a + b - o);
}

/**
 * α(a, b): the fewest common tokens with which sets of sizes a and b qualify, or min(a, b) + 1
 * when no overlap is enough (sizes too far apart).
 */
export function minOverlap(a: number, b: number, t: number): number {
  const most = Math.min(a, b);
  let o = Math.min(most + 1, Math.max(1, Math.ceil((t / (1 + t)) * (a + b))));
  while (o > 1 && qualifies(o - 1, a, b, t)) o--;
  while (o <= most && !qualifies(o, a, b, t)) o++;
  return o;
}

/**
 * Length filter: the smallest size s <= n of a set that can qualify with a set of size n
 * (s / n >= t, the case o = s); n itself always can.
 */
export function minPartnerSize(n: number, t: number): number {
  let s = Math.min(n, Math.max(1, Math.ceil(t * n)));
  while (s > 1 && qualifies(s - 1, n, s - 1, t)) s--;
  while (s < n && !qualifies(s, n, s, t)) s++;
  return s;
}

/**
 * Probing prefix length of a set of size n (the paper's |x| − ⌈t·|x|⌉ + 1): any set y with
 * |y| <= n that qualifies with it shares at least α(n, |y|) >= α(n, minPartnerSize(n)) tokens, so
 * (prefix filtering principle) a token of y's prefix lies among x's first n − α + 1 tokens.
 */
export function probePrefix(n: number, t: number): number {
  if (n === 0) return 0;
  return n - minOverlap(n, minPartnerSize(n, t), t) + 1;
}

/**
 * Indexing prefix length of a set of size n (the paper's mid-prefix, |x| − ⌈2t/(1+t)·|x|⌉ + 1):
 * it is probed only by sets of size >= n, which need α(n, |x|) >= α(n, n) common tokens.
 */
export function indexPrefix(n: number, t: number): number {
  if (n === 0) return 0;
  return n - minOverlap(n, n, t) + 1;
}

/**
 * Position filter (PPJoin): at a common token found at position i of x and j of y (0-based),
 * with `before` common tokens ahead of it, the overlap is at most this. Along a pair's common
 * tokens the bound never grows (each step adds one to `before` and takes at least one from the
 * rest of both sets), so checking it at the last common token of the prefixes decides as well as
 * checking it at every one.
 */
export function positionBound(before: number, i: number, nx: number, j: number, ny: number): number {
  return before + 1 + Math.min(nx - i - 1, ny - j - 1);
}

/**
 * The largest symmetric difference |x Δ y| = |x| + |y| − 2o of a qualifying pair: the budget of
 * the suffix filter and the signature filter.
 */
export function maxHamming(nx: number, ny: number, alpha: number): number {
  return nx + ny - 2 * alpha;
}
