/**
 * Pareto frontiers for the leaderboard (ann-benchmarks' `create_pointset`): the points no other
 * point beats on both axes. Which end of an axis is better is a parameter, so one function
 * serves "higher F1 is better" and "lower average error is better".
 */

export interface FrontierDirection {
  /** true: smaller x is better (runtime, cost) */
  readonly xLower: boolean;
  /** true: larger y is better (F1, recall); false: smaller y is better (average error) */
  readonly yHigher: boolean;
}

/**
 * The non-dominated points, sorted by x ascending. A point is kept when no other point is at
 * least as good on both axes and strictly better on one; of identical points only the first is
 * kept. Points with a non-finite coordinate take no part.
 */
export function paretoFrontier<T extends { readonly x: number; readonly y: number }>(points: readonly T[], dir: FrontierDirection): T[] {
  const xSign = dir.xLower ? 1 : -1;
  const ySign = dir.yHigher ? -1 : 1;
  // Best x first; at equal x, best y first, so the first of a tie is the one that can survive.
  const ordered = points
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => Number.isFinite(p.x) && Number.isFinite(p.y))
    .sort((a, b) => xSign * (a.p.x - b.p.x) || ySign * (a.p.y - b.p.y) || a.i - b.i);
  const frontier: T[] = [];
  let bestY: number | undefined;
  for (const { p } of ordered) {
    // Every point seen so far has x at least as good, so p survives only with a strictly better y.
    if (bestY === undefined || ySign * (p.y - bestY) < 0) {
      frontier.push(p);
      bestY = p.y;
    }
  }
  return frontier.sort((a, b) => a.x - b.x);
}
